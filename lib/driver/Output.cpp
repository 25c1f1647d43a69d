// Checking where mosaic writes (Output.h).
#include "Output.h"

#include "mosaic/support/Text.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace mosaic::driver {

namespace fs = std::filesystem;

namespace {

// Whether mosaic writes a file called `name` for a unit of stem `stem`.
bool ownsName(const std::string &name, const std::string &stem) {
  if (name == "CMakeLists.txt") return true;
  if (!name.starts_with(stem + "_")) return false;
  const std::string rest = name.substr(stem.size() + 1);
  return (rest.starts_with("test") || rest.starts_with("failing_test")) ? name.ends_with(".cpp")
                                                                         : rest == "wrapper.c" || rest == "wrapper.cpp";
}

} // namespace

Expected<bool> prepareOutputFolder(const std::string &dir, const std::string &unit) {
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    return Error::usage("-o '" + dir + "' is not a folder");
  fs::create_directories(dir, ec);
  if (ec) return Error::usage("cannot make the output folder -o '" + dir + "': " + ec.message());
  if (access(dir.c_str(), W_OK) != 0)
    return Error::usage("cannot write into the output folder -o '" + dir + "': " + std::strerror(errno));
  const std::string stem = fs::path(unit).stem().string();
  for (const auto &e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (!e.is_regular_file(ec) || !ownsName(name, stem)) continue;
    if (!generatedByMosaic(readFile(e.path().string())))
      return Error::usage("-o '" + dir + "' holds " + name +
                          ", which mosaic did not write and would overwrite: give a folder of mosaic's own");
  }
  return true;
}

Expected<bool> checkWritableFile(const std::string &path, const std::string &flag) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return Error::usage(flag + " '" + path + "' is a folder");
  const bool existed = fs::exists(path, ec);
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return Error::usage("cannot write " + flag + " '" + path + "': " + std::strerror(errno));
  close(fd);
  if (!existed) fs::remove(path, ec);
  return true;
}

} // namespace mosaic::driver
