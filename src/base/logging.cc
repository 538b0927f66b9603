#include "base/logging.h"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

namespace apogee {
namespace {

struct LogState {
  std::mutex mu;
  std::vector<spdlog::sink_ptr> sinks;
  // Until InitLogging: warnings only. The servers call InitLogging (info); a program that
  // only uses the client library stays quiet unless it asks (SetClientLogLevel, -v).
  spdlog::level::level_enum level = spdlog::level::warn;
};

LogState& State() {
  static LogState* state = [] {
    auto* s = new LogState();
    s->sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    if (const char* env = std::getenv("APOGEE_LOG_LEVEL")) s->level = spdlog::level::from_str(env);
    return s;
  }();
  return *state;
}

constexpr const char* kPattern = "%Y-%m-%d %H:%M:%S.%e %^%-5l%$ [%n] %v";

}  // namespace

void InitLogging(const LogOptions& options) {
  LogState& state = State();
  std::lock_guard lock(state.mu);
  state.level = spdlog::level::from_str(options.level);
  if (const char* env = std::getenv("APOGEE_LOG_LEVEL")) state.level = spdlog::level::from_str(env);
  state.sinks.clear();
  state.sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
  if (options.to_file && !options.process_name.empty()) {
    std::filesystem::path dir;
    if (const char* env = std::getenv("APOGEE_LOG_DIR")) {
      dir = env;
    } else if (const char* home = std::getenv("HOME")) {
      dir = std::filesystem::path(home) / "logs" / "apogee";
    }
    std::error_code ec;
    if (!dir.empty() && (std::filesystem::create_directories(dir, ec), !ec)) {
      try {
        state.sinks.push_back(std::make_shared<spdlog::sinks::basic_file_sink_mt>(
            (dir / (options.process_name + ".log")).string()));
      } catch (const spdlog::spdlog_ex&) {
        // A log directory we cannot write is not a reason to refuse to start.
      }
    }
  }
  spdlog::apply_all([&](const std::shared_ptr<spdlog::logger>& logger) {
    logger->sinks() = state.sinks;
    logger->set_level(state.level);
    logger->set_pattern(kPattern);
  });
}

std::shared_ptr<spdlog::logger> GetLogger(std::string_view component) {
  LogState& state = State();
  std::lock_guard lock(state.mu);
  std::string name(component);
  if (auto existing = spdlog::get(name)) return existing;
  auto logger = std::make_shared<spdlog::logger>(name, state.sinks.begin(), state.sinks.end());
  logger->set_level(state.level);
  logger->set_pattern(kPattern);
  logger->flush_on(spdlog::level::warn);
  spdlog::register_logger(logger);
  return logger;
}

}  // namespace apogee
