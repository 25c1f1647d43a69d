// How a project file that defines main is compiled into the harness's
// project archive and the written suite's project library alike: its main
// renamed (harness/Build.cpp: projectArchive; emit/CMakeFile.cpp). The
// suite's CMake file recognises such a file by this flag.
#pragma once

namespace mosaic {

/// Ours; any name no C or C++ program defines would do.
inline constexpr const char *kRenamedMainFlag = "-Dmain=__mosaic_project_main";

} // namespace mosaic
