# Precompiled headers: the standard library, fmt, nlohmann-json, GoogleTest
# and (for the front end) Clang's AST headers are most of what each of
# mosaic's translation units parses (about 5 of Generate.cpp's 9 seconds of
# front end, measured with -fsyntax-only), once per file and twice in CI
# (plain and sanitized). Each target gets one PCH of the headers its own
# links make available, built with that target's flags, so no flag or macro
# can differ between a PCH and the files that use it.
#
# Turn off with -DMOSAIC_PCH=OFF, e.g. to check that every file includes
# what it uses (a PCH makes a missing #include go unnoticed).
option(MOSAIC_PCH "Precompile the heavy headers mosaic's targets include" ON)

set(MOSAIC_PCH_STANDARD
  <algorithm> <cstdint> <filesystem> <functional> <map> <memory> <optional> <set>
  <sstream> <string> <string_view> <utility> <variant> <vector>)

# mosaic_precompile_later(target [header ...]): target gets a PCH when
# mosaic_precompile_all runs (once every target has declared its links);
# the headers given are added to those its links imply.
function(mosaic_precompile_later target)
  set_property(GLOBAL APPEND PROPERTY MOSAIC_PCH_TARGETS ${target})
  set_property(TARGET ${target} PROPERTY MOSAIC_PCH_EXTRA ${ARGN})
endfunction()

function(mosaic_precompile_all)
  if(NOT MOSAIC_PCH)
    return()
  endif()
  get_property(targets GLOBAL PROPERTY MOSAIC_PCH_TARGETS)
  foreach(target IN LISTS targets)
    # A PCH costs about one parse of its headers: a target of one file
    # would pay it without saving any.
    get_target_property(sources ${target} SOURCES)
    list(FILTER sources INCLUDE REGEX "\\.cpp$")
    list(LENGTH sources count)
    if(count LESS 2)
      continue()
    endif()
    get_target_property(links ${target} LINK_LIBRARIES)
    get_target_property(extra ${target} MOSAIC_PCH_EXTRA)
    set(headers ${MOSAIC_PCH_STANDARD})
    if("fmt::fmt" IN_LIST links)
      list(APPEND headers <fmt/format.h> <fmt/ostream.h>)
    endif()
    if("nlohmann_json::nlohmann_json" IN_LIST links)
      list(APPEND headers <nlohmann/json.hpp>)
    endif()
    if("mosaic_test_common" IN_LIST links)
      list(APPEND headers <gtest/gtest.h>)
    endif()
    if(extra)
      list(APPEND headers ${extra})
    endif()
    target_precompile_headers(${target} PRIVATE ${headers})
  endforeach()
endfunction()
