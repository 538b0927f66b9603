// mqstore: offline inspector for a store directory. Dumps and verifies CommitLog,
// ConsumeQueue, IndexFile and checkpoint files; exits 1 when it finds a problem.
//
//   mqstore verify <storePathRootDir>              everything, with CRCs, summary only
//   mqstore commitlog <dir|file> [--dump] [--no-crc]
//   mqstore consumequeue <dir|file> [--commitlog <dir>] [--dump]
//   mqstore index <file> [--slots N] [--entries N] [--dump]
//   mqstore checkpoint <file>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <string>

#include "env/env.h"
#include "store/store_format.h"
#include "store/store_inspector.h"

namespace {

using apogee::store::InspectOptions;
using apogee::store::InspectReport;

int Print(const apogee::Result<InspectReport>& r) {
  if (!r.ok()) {
    std::fprintf(stderr, "mqstore: %s\n", r.status().ToString().c_str());
    return 2;
  }
  std::fputs(r->text.c_str(), stdout);
  return r->ok() ? 0 : 1;
}

int VerifyAll(apogee::env::Env* env, const std::string& root, int32_t slots, int32_t entries,
              const InspectOptions& options) {
  using apogee::env::JoinPath;
  int worst = 0;
  auto take = [&](int rc) { worst = std::max(worst, rc); };
  take(Print(apogee::store::InspectCheckpoint(
      env, JoinPath(root, apogee::store::kCheckpointFileName))));
  std::string commit_log = JoinPath(root, apogee::store::kCommitLogDirName);
  take(Print(apogee::store::InspectCommitLog(env, commit_log, options)));
  std::string cq_root = JoinPath(root, apogee::store::kConsumeQueueDirName);
  auto topics = env->ListDir(cq_root);
  if (topics.ok()) {
    for (const std::string& topic : *topics) {
      auto queues = env->ListDir(JoinPath(cq_root, topic));
      if (!queues.ok()) continue;
      for (const std::string& q : *queues) {
        take(Print(apogee::store::InspectConsumeQueue(env, JoinPath(JoinPath(cq_root, topic), q),
                                                      commit_log, options)));
      }
    }
  }
  std::string index_dir = JoinPath(root, apogee::store::kIndexDirName);
  auto index_files = env->ListDir(index_dir);
  if (index_files.ok()) {
    for (const std::string& f : *index_files) {
      take(Print(apogee::store::InspectIndexFile(env, JoinPath(index_dir, f), slots, entries,
                                                 options)));
    }
  }
  // Warnings (records the broker skips at dispatch) do not fail verification: the broker
  // starts on such a store; they are listed above with their offsets.
  std::printf("%s\n", worst == 0 ? "store verified: no problems" : "store has PROBLEMS");
  return worst;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mqstore: inspect and verify an Apogee/RocketMQ store directory offline"};
  app.require_subcommand(1);
  InspectOptions options;
  bool no_crc = false;
  size_t max_lines = SIZE_MAX;
  int32_t slots = apogee::store::kDefaultMaxHashSlotNum;
  int32_t entries = apogee::store::kDefaultMaxIndexNum;
  std::string path;
  std::string commit_log;

  auto add_common = [&](CLI::App* sub) {
    sub->add_flag("--dump", options.dump, "print one line per record or entry");
    sub->add_option("--max-lines", max_lines, "stop dumping after this many lines");
  };
  CLI::App* verify = app.add_subcommand("verify", "check every file of a store directory");
  verify->add_option("root", path, "storePathRootDir")->required();
  verify->add_option("--slots", slots, "maxHashSlotNum of the index files");
  verify->add_option("--entries", entries, "maxIndexNum of the index files");
  add_common(verify);
  CLI::App* cl = app.add_subcommand("commitlog", "dump/verify CommitLog files");
  cl->add_option("path", path, "commitlog directory or one file")->required();
  cl->add_flag("--no-crc", no_crc, "skip body CRC checks");
  add_common(cl);
  CLI::App* cq = app.add_subcommand("consumequeue", "dump/verify a ConsumeQueue");
  cq->add_option("path", path, "consumequeue/<topic>/<queueId> directory or one file")
      ->required();
  cq->add_option("--commitlog", commit_log, "check entries against this CommitLog directory");
  add_common(cq);
  CLI::App* index = app.add_subcommand("index", "dump/verify an IndexFile");
  index->add_option("path", path, "index file")->required();
  index->add_option("--slots", slots, "maxHashSlotNum the file was made with");
  index->add_option("--entries", entries, "maxIndexNum the file was made with");
  add_common(index);
  CLI::App* checkpoint = app.add_subcommand("checkpoint", "print the checkpoint file");
  checkpoint->add_option("path", path, "checkpoint file")->required();

  CLI11_PARSE(app, argc, argv);
  options.verify_crc = !no_crc;
  options.max_dump_lines = max_lines;
  apogee::env::Env* env = apogee::env::Env::Default();
  if (*verify) return VerifyAll(env, path, slots, entries, options);
  if (*cl) return Print(apogee::store::InspectCommitLog(env, path, options));
  if (*cq) return Print(apogee::store::InspectConsumeQueue(env, path, commit_log, options));
  if (*index) return Print(apogee::store::InspectIndexFile(env, path, slots, entries, options));
  return Print(apogee::store::InspectCheckpoint(env, path));
}
