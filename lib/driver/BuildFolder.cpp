// Configuring a second build folder beside a configured one (BuildFolder.h).
#include "BuildFolder.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace mosaic::driver {

namespace fs = std::filesystem;

bool seedBuildFolder(const std::string &configured, const std::string &folder) {
  std::ifstream in(fs::path(configured) / "CMakeCache.txt");
  if (!in) return false;
  std::string cache{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  // The cache names its own folder (CMAKE_CACHEFILE_DIR, which CMake checks,
  // PROJECT_BINARY_DIR, the package redirects folder) and no other build folder.
  const std::string from = fs::path(configured).lexically_normal().string();
  const std::string to = fs::path(folder).lexically_normal().string();
  for (size_t at = cache.find(from); at != std::string::npos; at = cache.find(from, at + to.size()))
    cache.replace(at, from.size(), to);
  std::error_code ec;
  fs::create_directories(fs::path(folder) / "CMakeFiles", ec);
  if (ec) return false;
  // CMakeFiles/3.25.1 and the like: what CMake found out about the compilers.
  for (const auto &entry : fs::directory_iterator(fs::path(configured) / "CMakeFiles", ec)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || name.empty() || !std::isdigit(static_cast<unsigned char>(name[0]))) continue;
    fs::copy(entry.path(), fs::path(folder) / "CMakeFiles" / name, fs::copy_options::recursive, ec);
    if (ec) return false;
  }
  std::ofstream(fs::path(folder) / "CMakeCache.txt") << cache;
  return true;
}

Expected<ProcessResult> configureBeside(const std::string &source, const std::string &configured,
                                        const std::string &folder, const std::vector<std::string> &cmakeArgs,
                                        const ProcessOptions &options) {
  std::vector<std::string> argv{"cmake", "-S", source, "-B", folder, "-G", "Ninja"};
  argv.insert(argv.end(), cmakeArgs.begin(), cmakeArgs.end());
  std::error_code ec;
  if (!fs::exists(fs::path(folder) / "CMakeCache.txt", ec) && seedBuildFolder(configured, folder)) {
    auto seeded = runProcess(argv, options);
    if (seeded && seeded->exitCode == 0) return seeded;
    fs::remove_all(folder, ec);
  }
  return runProcess(argv, options);
}

} // namespace mosaic::driver
