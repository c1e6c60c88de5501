# Copies the README's C++ example out of README.md, so that the README and
# the program ctest compiles cannot drift apart:
#   the first ```cpp block           -> OUT_DIR/readme_example.cc
#   the first ```text block after it -> OUT_DIR/readme_example.txt (what the
#                                       program must print)
#
#   cmake -DREADME=<README.md> -DOUT_DIR=<dir> -P extract_example.cmake
cmake_minimum_required(VERSION 3.16)

file(READ "${README}" readme)

# Sets `out` to the body of the first fenced block opened by "```<lang>"
# at or after `from`, and `end` to the offset just past that block.
function(fenced_block lang from out end)
  string(SUBSTRING "${readme}" ${from} -1 rest)
  string(FIND "${rest}" "\n```${lang}\n" open)
  if(open EQUAL -1)
    message(FATAL_ERROR "${README}: no ```${lang} block found")
  endif()
  string(LENGTH "\n```${lang}\n" fence)
  math(EXPR body_start "${open} + ${fence}")
  string(SUBSTRING "${rest}" ${body_start} -1 rest)
  string(FIND "${rest}" "\n```\n" close)
  if(close EQUAL -1)
    message(FATAL_ERROR "${README}: unterminated ```${lang} block")
  endif()
  math(EXPR close_with_newline "${close} + 1")
  string(SUBSTRING "${rest}" 0 ${close_with_newline} body)
  math(EXPR block_end "${from} + ${body_start} + ${close} + 4")
  set(${out} "${body}" PARENT_SCOPE)
  set(${end} ${block_end} PARENT_SCOPE)
endfunction()

fenced_block(cpp 0 code after_code)
fenced_block(text ${after_code} output after_output)
file(WRITE "${OUT_DIR}/readme_example.cc" "${code}")
file(WRITE "${OUT_DIR}/readme_example.txt" "${output}")
