# Script mode (cmake -P), run after a test binary is linked: registers one
# CTest test per GoogleTest suite of the binary, where gtest_discover_tests
# registers one per test. For the sanitized build (tests/CMakeLists.txt,
# mosaic_test): a sanitized process starts in about 0.43 s here (ASan's
# shadow, UBSan's runtime, the binary's relocations), which one process per
# test paid 634 times; Claims' 79 tests took 57 s as 79 processes and 1.6 s
# as one.
#
# In: TEST_EXECUTABLE, WORKING_DIR, CTEST_FILE (written), COST (CTest's
# COST of one test; the suite's is its number of tests times COST + 1),
# LABELS (the target's, comma-separated, on every test registered),
# CONFIG: a file that sets SKIP and KEEP, regular expressions over
# "Suite.Test" (written at configure time, so that they pass no shell): a
# test matching SKIP and not KEEP is not run; one matching both runs alone,
# labelled `e2e`, with COST 1000 so that it starts first.
#
# The list comes from `--gtest_list_tests`: a line "Suite." opens a suite,
# an indented line names a test; anything after '#' (a type or value
# parameter) and gtest_main's banner are ignored; DISABLED_ tests are left
# out as GoogleTest leaves them out.

cmake_minimum_required(VERSION 3.25) # the policies of the project (script mode has none)
include("${CONFIG}")
execute_process(COMMAND "${TEST_EXECUTABLE}" --gtest_list_tests
  WORKING_DIRECTORY "${WORKING_DIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE listing ERROR_VARIABLE errors
  TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --gtest_list_tests failed (${rc}):\n${listing}\n${errors}")
endif()

string(REPLACE ";" "\\;" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
set(suites "")
set(suite "")
foreach(line IN LISTS lines)
  string(REGEX REPLACE " *#.*$" "" line "${line}")
  if(line MATCHES "^([A-Za-z0-9_/]+)\\.$")
    set(suite "${CMAKE_MATCH_1}")
    list(APPEND suites "${suite}")
    set(tests_${suite} "")
  elseif(suite AND line MATCHES "^  ([A-Za-z0-9_/]+)$")
    set(test "${CMAKE_MATCH_1}") # before the next MATCHES clears it
    if(NOT test MATCHES "^DISABLED_" AND NOT suite MATCHES "^DISABLED_")
      list(APPEND tests_${suite} "${test}")
    endif()
  endif()
endforeach()

string(REPLACE "," ";" labels "${LABELS}")
set(e2e_labels ${labels} e2e)
set(suite_labels "")
if(labels)
  set(suite_labels "\n  LABELS [=[${labels}]=]")
endif()

set(out "")
foreach(suite IN LISTS suites)
  set(left_out "")
  set(count 0)
  foreach(test IN LISTS tests_${suite})
    set(full "${suite}.${test}")
    if(SKIP AND full MATCHES "${SKIP}")
      list(APPEND left_out "${full}")
      if(KEEP AND full MATCHES "${KEEP}")
        string(APPEND out "add_test([=[${full}]=] \"${TEST_EXECUTABLE}\" [=[--gtest_filter=${full}]=])\n"
          "set_tests_properties([=[${full}]=] PROPERTIES WORKING_DIRECTORY \"${WORKING_DIR}\" LABELS [=[${e2e_labels}]=] COST 1000)\n")
      endif()
    else()
      math(EXPR count "${count} + 1")
    endif()
  endforeach()
  if(count EQUAL 0)
    continue()
  endif()
  set(filter "${suite}.*")
  if(left_out)
    list(JOIN left_out ":" negative)
    string(APPEND filter ":-${negative}")
  endif()
  math(EXPR cost "${count} * (${COST} + 1)")
  string(APPEND out "add_test([=[${suite}.*]=] \"${TEST_EXECUTABLE}\" [=[--gtest_filter=${filter}]=])\n"
    "set_tests_properties([=[${suite}.*]=] PROPERTIES WORKING_DIRECTORY \"${WORKING_DIR}\" COST ${cost}${suite_labels})\n")
endforeach()
file(WRITE "${CTEST_FILE}" "${out}")
