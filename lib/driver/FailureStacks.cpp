// Naming a failure's stack in the project (FailureStacks.h).
#include "FailureStacks.h"

#include <filesystem>

namespace mosaic::driver {

namespace fs = std::filesystem;

FailureStacks::FailureStacks(std::string symbolizer, std::string harness, std::string sanitized,
                             std::vector<std::string> harnessDirs, std::string root)
    : harness_(harness), sanitized_(sanitized), plain_(symbolizer, harness), harnessDirs_(std::move(harnessDirs)),
      root_(std::move(root)) {
  if (!sanitized_.empty()) sanitizedSymbolizer_.emplace(symbolizer, sanitized_);
}

std::string FailureStacks::projectRoot(const std::string &unit, const std::string &compileDatabase) {
  const fs::path a = fs::path(unit).parent_path(), b = fs::path(compileDatabase).parent_path();
  fs::path common;
  for (auto i = a.begin(), j = b.begin(); i != a.end() && j != b.end() && *i == *j; ++i, ++j) common /= *i;
  return common.string();
}

bool FailureStacks::mosaics(const exec::Frame &f) const {
  if (f.function.rfind("__mosaic", 0) == 0 || f.function.rfind("mosaic_rt_", 0) == 0) return true;
  for (const std::string &dir : harnessDirs_)
    if (!dir.empty() && f.file.rfind(dir + "/", 0) == 0) return true;
  return false;
}

bool FailureStacks::inProject(const exec::Frame &f) const {
  if (f.file.empty() || mosaics(f)) return false;
  for (const char *system : {"/usr/", "/lib/", "/lib64/"})
    if (f.file.rfind(system, 0) == 0) return false;
  return true;
}

bool FailureStacks::mosaicsOwn(std::string_view report) {
  if (!sanitizedSymbolizer_) return false;
  auto frames = sanitizedSymbolizer_->symbolize(exec::reportStack(report, sanitized_));
  if (!frames) return false;
  for (const exec::Frame &f : *frames) {
    // The sanitizer's interceptors and runtime (strnlen, memcpy, __asan_*):
    // Debian's build of it names no file, or one of compiler-rt's.
    if (f.file.empty() || f.file.find("compiler-rt/") != std::string::npos) continue;
    return mosaics(f);
  }
  return false;
}

std::vector<exec::Frame> FailureStacks::operator()(const exec::RunResult &result, std::string_view output,
                                                   bool sanitized) {
  exec::Symbolizer *symbolizer = sanitized ? (sanitizedSymbolizer_ ? &*sanitizedSymbolizer_ : nullptr) : &plain_;
  if (!symbolizer) return {};
  std::vector<std::uint64_t> stack = result.stack;
  if (result.outcome == exec::Outcome::Sanitizer || stack.empty())
    stack = exec::reportStack(output, sanitized ? sanitized_ : harness_);
  auto frames = symbolizer->symbolize(stack);
  if (!frames) return {};
  std::vector<exec::Frame> kept;
  for (exec::Frame &f : *frames) {
    if (!inProject(f)) continue;
    if (root_.size() > 1 && f.file.rfind(root_ + "/", 0) == 0) f.file = f.file.substr(root_.size() + 1);
    kept.push_back(std::move(f));
  }
  return kept;
}

} // namespace mosaic::driver
