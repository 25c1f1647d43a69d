// Paths compared by their trailing components (ProjectFrames.cpp places a
// trace's frames by them, Fitness.cpp matches a run's frames by them): a
// trace names a file as another machine or the compile command did.
#pragma once

#include <string>
#include <vector>

namespace mosaic::crash::paths {

/// A path's components, "." dropped and ".." applied where it can be
/// ("csu/../csu/libc-start.c" -> csu, libc-start.c).
std::vector<std::string> components(const std::string &path);

/// How many trailing components two paths share.
size_t sharedSuffix(const std::vector<std::string> &a, const std::vector<std::string> &b);

} // namespace mosaic::crash::paths
