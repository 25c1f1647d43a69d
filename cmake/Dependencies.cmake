# Third-party packages, all from Debian 12 (see scripts/setup.sh).

# find_package(LLVM 19) fails: the version file wants major.minor.
find_package(LLVM 19.1 REQUIRED CONFIG HINTS /usr/lib/llvm-19/lib/cmake/llvm)
# A plain find_package(Clang) finds the machine's older Clang 14 first.
find_package(Clang REQUIRED CONFIG HINTS ${LLVM_INSTALL_PREFIX}/lib/cmake/clang NO_DEFAULT_PATH)
message(STATUS "mosaic: LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_INSTALL_PREFIX}")

# The resource directory of clang-19 (builtin headers such as stddef.h).
# A LibTooling parse that does not name it falls back on a Debian-specific search.
set(MOSAIC_CLANG_RESOURCE_DIR "${LLVM_LIBRARY_DIR}/clang/${LLVM_VERSION_MAJOR}")
if(NOT EXISTS "${MOSAIC_CLANG_RESOURCE_DIR}/include/stddef.h")
  message(FATAL_ERROR "clang resource directory not found at ${MOSAIC_CLANG_RESOURCE_DIR}")
endif()
find_program(MOSAIC_CLANG clang-19 HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
find_program(MOSAIC_CLANGXX clang++-19 HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
# Verification measures a written suite's coverage with these (clang's
# source-based coverage), independently of mosaic's own instrumentation.
find_program(MOSAIC_LLVM_PROFDATA NAMES llvm-profdata-19 llvm-profdata HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
find_program(MOSAIC_LLVM_COV NAMES llvm-cov-19 llvm-cov HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
find_program(MOSAIC_LLVM_SYMBOLIZER NAMES llvm-symbolizer-19 llvm-symbolizer HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)

find_package(PkgConfig REQUIRED)
# Neither libz3-dev nor libgit2-dev ships a CMake config.
pkg_check_modules(Z3 REQUIRED IMPORTED_TARGET z3)
pkg_check_modules(LIBGIT2 REQUIRED IMPORTED_TARGET libgit2)
# mosaic's own allocator (tools/CMakeLists.txt); the sanitized build keeps
# ASan's.
if(NOT MOSAIC_SANITIZE)
  pkg_check_modules(JEMALLOC REQUIRED IMPORTED_TARGET jemalloc)
endif()

find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 2.1 REQUIRED)
find_package(fmt 9 REQUIRED)
find_package(GTest REQUIRED)
find_package(Threads REQUIRED)
