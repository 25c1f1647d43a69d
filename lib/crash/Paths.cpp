// Paths compared by their trailing components (Paths.h).
#include "Paths.h"

#include <filesystem>

namespace mosaic::crash::paths {

std::vector<std::string> components(const std::string &path) {
  std::vector<std::string> out;
  for (const auto &c : std::filesystem::path(path).lexically_normal())
    if (const std::string s = c.string(); !s.empty() && s != "." && s != "/") out.push_back(s);
  return out;
}

size_t sharedSuffix(const std::vector<std::string> &a, const std::vector<std::string> &b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[a.size() - 1 - n] == b[b.size() - 1 - n]) ++n;
  return n;
}

} // namespace mosaic::crash::paths
