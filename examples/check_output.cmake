# Runs a command and compares its standard output with a file, exactly.
#
#   cmake -DEXPECTED=<file> [-DSTDIN=<file>] [-DMERGE_STDERR=ON]
#         [-DWORKING_DIRECTORY=<dir>] -P check_output.cmake -- <command> <args>...
#
# Fails when the command exits non-zero or its output differs from EXPECTED;
# the message shows a unified diff (from `diff`, when installed) and the
# actual output is kept next to the build as <EXPECTED name>.actual in the
# current directory. With LEVELQL_REWRITE_EXPECTED=1 in the environment it
# writes the actual output to EXPECTED instead: review that diff before
# committing it.
cmake_minimum_required(VERSION 3.16)

set(command)
set(in_command FALSE)
foreach(i RANGE ${CMAKE_ARGC})
  if(in_command AND DEFINED CMAKE_ARGV${i})
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(in_command TRUE)
  endif()
endforeach()
if(NOT command OR NOT EXPECTED)
  message(FATAL_ERROR "usage: cmake -DEXPECTED=<file> -P check_output.cmake "
                      "-- <command> <args>...")
endif()

set(run_args)
if(STDIN)
  list(APPEND run_args INPUT_FILE "${STDIN}")
endif()
if(WORKING_DIRECTORY)
  list(APPEND run_args WORKING_DIRECTORY "${WORKING_DIRECTORY}")
endif()
if(MERGE_STDERR)
  execute_process(COMMAND ${command} ${run_args}
                  OUTPUT_VARIABLE actual ERROR_VARIABLE actual
                  RESULT_VARIABLE rc)
else()
  execute_process(COMMAND ${command} ${run_args}
                  OUTPUT_VARIABLE actual ERROR_VARIABLE errors
                  RESULT_VARIABLE rc)
endif()
if(NOT rc EQUAL 0)
  list(JOIN command " " shown)
  message(FATAL_ERROR "`${shown}` failed (${rc}):\n${errors}\n"
                      "output so far:\n${actual}")
endif()

if("$ENV{LEVELQL_REWRITE_EXPECTED}" STREQUAL "1")
  file(WRITE "${EXPECTED}" "${actual}")
  message(STATUS "rewrote ${EXPECTED}")
  return()
endif()

file(READ "${EXPECTED}" expected)
if(NOT actual STREQUAL expected)
  get_filename_component(name "${EXPECTED}" NAME)
  set(actual_file "${CMAKE_CURRENT_BINARY_DIR}/${name}.actual")
  file(WRITE "${actual_file}" "${actual}")
  find_program(DIFF diff)
  if(DIFF)
    # Straight to the test log: message() would double every newline.
    execute_process(COMMAND ${DIFF} -u "${EXPECTED}" "${actual_file}")
  else()
    message("expected:\n${expected}\nactual:\n${actual}")
  endif()
  message(FATAL_ERROR "output differs from ${EXPECTED} (diff above; "
                      "actual output in ${actual_file}; rerun with "
                      "LEVELQL_REWRITE_EXPECTED=1 to accept it)")
endif()
