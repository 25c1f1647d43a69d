# mosaic_component(NAME SOURCES ... [DEPS component ...] [LIBS external ...])
#
# Declares one component of mosaic as a static library `mosaic_<NAME>`:
# sources in lib/<NAME>/, public headers in include/mosaic/<NAME>/.
# DEPS are other mosaic components, LIBS third-party targets; both are linked
# PRIVATE, so a component sees only what it declares. The declared edges are
# also written to component-graph.txt, which tests/architecture checks every
# #include against: the rule lives in the build, not only in a document.

add_library(mosaic_warnings INTERFACE)
target_compile_options(mosaic_warnings INTERFACE -Wall -Wextra)
# Leaving fields out of a designated initializer is how C++20 code says
# "the default"; clang 19 puts this warning in -Wextra.
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  target_compile_options(mosaic_warnings INTERFACE -Wno-missing-designated-field-initializers)
endif()
if(MOSAIC_WERROR)
  target_compile_options(mosaic_warnings INTERFACE -Werror)
endif()
# mosaic_flags: what mosaic's own host code, tools and tests build with:
# the warnings, and the sanitizers of MOSAIC_SANITIZE. The pass plugin takes
# only the warnings: it is loaded into clang, which has no sanitizer runtime.
add_library(mosaic_flags INTERFACE)
target_link_libraries(mosaic_flags INTERFACE mosaic_warnings)
# Sanitized code is built at -O0 with line tables only, after the build
# type's flags so that these win: a report needs file:line, not variables,
# and CI's sanitized pass now runs the unit tests and six end-to-end tests,
# so build time matters more than run time. Measured on a fresh clone here
# (2 cores): the sanitized build took 965 s at -O1 and 348 s at -O0, its
# tests 180 s and 249 s. (At -O1, ASan's advice, FrontEnd.cpp took 83 s
# against 138 s at RelWithDebInfo's -O2 -g.)
# The default build (RelWithDebInfo) keeps line tables only: a stack trace of
# mosaic itself needs file:line, and full debug info made the release build a
# quarter slower (FrontEnd.cpp: 34.6 s with -g, 25.6 s with line tables) and
# its objects four times larger, in a CI run of 30 minutes. For a debugger:
# -DCMAKE_BUILD_TYPE=Debug.
target_compile_options(mosaic_flags INTERFACE $<$<CONFIG:RelWithDebInfo>:-gline-tables-only>)
if(MOSAIC_SANITIZE)
  target_compile_options(mosaic_flags INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
    -O0 -gline-tables-only)
  target_link_options(mosaic_flags INTERFACE -fsanitize=address,undefined)
endif()

# Unity builds: each target's files compiled a batch at a time (CMake's
# default batch, 8 files), so that the templates they share (fmt, nlohmann-
# json, GoogleTest) are instantiated once a batch, not once a file. Four of
# the driver's files took 18 s as one batch against 30 s apart (measured
# here, with the PCH). The Makefile turns it on (a fresh build, as in CI);
# off, an edit recompiles its own file only. Files in one batch share one
# translation unit: the names in their anonymous namespaces must differ.
option(MOSAIC_UNITY "Compile each target's files in batches (CMake unity builds)" OFF)
function(mosaic_unity target)
  if(MOSAIC_UNITY)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON)
  endif()
endfunction()

set_property(GLOBAL PROPERTY MOSAIC_COMPONENTS "")

function(mosaic_component name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS;LIBS;PUBLIC_LIBS" ${ARGN})
  set(target mosaic_${name})
  set_property(GLOBAL APPEND PROPERTY MOSAIC_COMPONENTS ${name})
  set_property(GLOBAL PROPERTY MOSAIC_DEPS_${name} "${ARG_DEPS}")
  set_property(GLOBAL PROPERTY MOSAIC_LIBS_${name} "${ARG_LIBS};${ARG_PUBLIC_LIBS}")
  if(NOT ARG_SOURCES)
    # Header-only (the ABI): an interface library.
    add_library(${target} INTERFACE)
    target_include_directories(${target} INTERFACE ${PROJECT_SOURCE_DIR}/include)
    return()
  endif()
  add_library(${target} STATIC ${ARG_SOURCES})
  mosaic_precompile_later(${target})
  mosaic_unity(${target})
  target_include_directories(${target} PUBLIC ${PROJECT_SOURCE_DIR}/include)
  target_link_libraries(${target} PRIVATE mosaic_flags ${ARG_LIBS})
  if(ARG_PUBLIC_LIBS)
    target_link_libraries(${target} PUBLIC ${ARG_PUBLIC_LIBS})
  endif()
  foreach(dep IN LISTS ARG_DEPS)
    target_link_libraries(${target} PRIVATE mosaic_${dep})
  endforeach()
endfunction()

# One line per component: "<name>: <dep> <dep> ... | <third-party> ...".
function(mosaic_write_component_graph path)
  get_property(components GLOBAL PROPERTY MOSAIC_COMPONENTS)
  set(text "")
  foreach(c IN LISTS components)
    get_property(deps GLOBAL PROPERTY MOSAIC_DEPS_${c})
    get_property(libs GLOBAL PROPERTY MOSAIC_LIBS_${c})
    list(JOIN deps " " deps)
    list(JOIN libs " " libs)
    string(APPEND text "${c}: ${deps} | ${libs}\n")
  endforeach()
  file(WRITE ${path} "${text}")
endfunction()
