# CraceCheck.cmake - check CMake targets for data races with crace.
#
#   set(CMAKE_EXPORT_COMPILE_COMMANDS ON)       # before the targets
#   include(path/to/CraceCheck.cmake)
#   crace_check(myprog)                         # adds the target crace-myprog
#   crace_check(myprog ARGS --engine=lockset --suppressions=${CMAKE_SOURCE_DIR}/races.supp)
#
# `cmake --build build --target crace-myprog` runs crace on the program of
# that executable target (crace -p BUILD --program=myprog) and writes
# crace-myprog.sarif and crace-myprog.html in the build directory. The build
# of the target fails on a confirmed race (exit 1) and on crace's own errors;
# a possible race (2) or unknown (6) fails it too unless CRACE_FAIL_ON_RACE_ONLY
# is ON. CRACE is the crace binary (default: crace on PATH).
include_guard(GLOBAL)
set(CRACE "crace" CACHE FILEPATH "The crace binary")
option(CRACE_FAIL_ON_RACE_ONLY "crace_check fails only on confirmed races" ON)

function(crace_check target)
  cmake_parse_arguments(PARSE_ARGV 1 CC "" "" "ARGS")
  if(NOT CMAKE_EXPORT_COMPILE_COMMANDS)
    message(FATAL_ERROR "crace_check(${target}): set CMAKE_EXPORT_COMPILE_COMMANDS ON before the targets")
  endif()
  set(out ${CMAKE_BINARY_DIR}/crace-${target})
  set(ok 0)
  if(CRACE_FAIL_ON_RACE_ONLY)
    set(ok 0|2|6)
  endif()
  # A ';' would split the custom command's argument: lists travel as '|'.
  string(REPLACE ";" "|" args "${CC_ARGS}")
  add_custom_target(crace-${target}
    COMMAND ${CMAKE_COMMAND}
      -DCRACE=${CRACE} -DBUILD=${CMAKE_BINARY_DIR} -DPROGRAM=${target}
      -DOUT=${out} "-DARGS=${args}" "-DOK=${ok}"
      -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/CraceRun.cmake
    COMMENT "crace: checking ${target} for data races"
    VERBATIM)
endfunction()
