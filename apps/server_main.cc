#include "server_main.h"

#include <csignal>
#include <utility>

namespace apogee::apps {
namespace {

constexpr std::string_view kAclPlainFileProperty = "-Drocketmq.acl.plain.file=";

}  // namespace

Result<ServerFlags> ParseServerFlags(int argc, char** argv, bool broker_flags) {
  ServerFlags flags;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](std::string* out) -> Status {
      if (i + 1 >= argc) return Status::InvalidArgument("missing value for " + arg);
      *out = argv[++i];
      return Status::OK();
    };
    if (arg == "-c" || arg == "--configFile") {
      APOGEE_RETURN_IF_ERROR(value(&flags.config_file));
    } else if (arg == "-n" || arg == "--namesrvAddr") {
      APOGEE_RETURN_IF_ERROR(value(&flags.namesrv_addr));
      flags.has_namesrv_addr = true;
    } else if (arg == "-p" || arg == "--printConfigItem") {
      flags.print_config = true;
    } else if (arg == "-h" || arg == "--help") {
      flags.help = true;
    } else if (broker_flags && (arg == "-m" || arg == "--printImportantConfig")) {
      flags.print_important = true;
    } else if (broker_flags && arg == "--with-namesrv") {
      flags.with_namesrv = true;
    } else if (arg.starts_with(kAclPlainFileProperty)) {
      flags.acl_plain_file = arg.substr(kAclPlainFileProperty.size());
    } else {
      return Status::InvalidArgument("unknown option: " + arg);
    }
  }
  return flags;
}

std::optional<int> HandleCommandLine(std::string_view program, std::string_view usage, int argc,
                                     char** argv, bool broker_flags, ServerFlags* flags) {
  Result<ServerFlags> parsed = ParseServerFlags(argc, argv, broker_flags);
  if (!parsed.ok()) {
    std::fprintf(stderr, "%.*s: %s\n%.*s", static_cast<int>(program.size()), program.data(),
                 parsed.status().message().c_str(), static_cast<int>(usage.size()),
                 usage.data());
    return 1;
  }
  *flags = std::move(parsed).value();
  if (flags->help) {
    std::fwrite(usage.data(), 1, usage.size(), stdout);
    return 0;
  }
  return std::nullopt;
}

int Fail(std::string_view program, std::string_view message) {
  std::fprintf(stderr, "%.*s: %.*s\n", static_cast<int>(program.size()), program.data(),
               static_cast<int>(message.size()), message.data());
  return 1;
}

StopSignals::StopSignals(int extra_signal) {
  sigemptyset(&signals_);
  sigaddset(&signals_, SIGTERM);
  sigaddset(&signals_, SIGINT);
  if (extra_signal != 0) sigaddset(&signals_, extra_signal);
  pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
  signal(SIGPIPE, SIG_IGN);
}

int StopSignals::Wait() {
  int sig = 0;
  while (sigwait(&signals_, &sig) != 0) {
  }
  return sig;
}

const char* StopSignals::Name(int sig) {
  switch (sig) {
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGUSR1:
      return "SIGUSR1";
    default:
      return "a signal";
  }
}

}  // namespace apogee::apps
