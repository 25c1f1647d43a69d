#!/usr/bin/env bash
# fetch-subject.sh NAME [DEST]
#
# Fetches the Debian source package NAME with `apt-get source` (Debian's
# patches applied), configures it with its own build system exporting
# compile_commands.json, and builds it. The result lands in DEST/NAME/ (src/
# and build/); DEST defaults to build/subjects. Cached: once DEST/NAME/.ready
# exists, a second call does nothing. Needs the deb-src entries that
# scripts/setup.sh adds. Prints DEST/NAME on success.
set -euo pipefail

name=${1:?usage: fetch-subject.sh NAME [DEST]}
dest=${2:-build/subjects}
mkdir -p "$dest"
dir=$(cd "$dest" && pwd)/$name

if [ -f "$dir/.ready" ]; then
  echo "$dir"
  exit 0
fi

rm -rf "$dir"
mkdir -p "$dir/fetch"
(cd "$dir/fetch" && apt-get source -q "$name" >"$dir/fetch.log" 2>&1) || {
  echo "fetch-subject: 'apt-get source $name' failed (deb-src entries missing, or offline?):" >&2
  tail -n 20 "$dir/fetch.log" >&2
  exit 1
}
src=$(find "$dir/fetch" -mindepth 1 -maxdepth 1 -type d | head -n 1)
mv "$src" "$dir/src"
ls "$dir/fetch"/*.dsc | head -n 1 | xargs -n1 basename >"$dir/version"

# Each subject's own build, as Debian builds it (build type None), with the
# compile database exported. Flags beyond that are the subject's own.
cmake_args=(-G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
case "$name" in
  cjson) cmake_args+=(-DENABLE_CJSON_UTILS=ON -DENABLE_CJSON_TEST=ON) ;;
  tinyxml2) cmake_args+=(-Dtinyxml2_BUILD_TESTING=ON) ;;
  yaml-cpp) cmake_args+=(-DYAML_CPP_BUILD_TESTS=OFF) ;;
  json-c) cmake_args+=(-DDISABLE_WERROR=ON) ;;
esac
if [ ! -f "$dir/src/CMakeLists.txt" ]; then
  echo "fetch-subject: $name has no CMake build; not supported by this script yet" >&2
  exit 1
fi
cmake -S "$dir/src" -B "$dir/build" "${cmake_args[@]}" >"$dir/configure.log" 2>&1 || {
  echo "fetch-subject: configuring $name failed:" >&2
  tail -n 20 "$dir/configure.log" >&2
  exit 1
}
cmake --build "$dir/build" >"$dir/build.log" 2>&1 || {
  echo "fetch-subject: building $name failed:" >&2
  tail -n 20 "$dir/build.log" >&2
  exit 1
}
touch "$dir/.ready"
echo "$dir"
