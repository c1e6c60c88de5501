#!/usr/bin/env bash
# Checks that every ```console block of the README shows what really happens.
#
#   check_readme.sh README.md SOURCE_DIR BUILD_DIR LEVELQL
#
# In a block, a line "$ command" is run with bash from SOURCE_DIR, a leading
# "build/" in it meaning BUILD_DIR; the lines up to the next "$ " are its
# output (stdout and stderr together), compared exactly. When that output
# holds REPL prompts ("levelql> ", "   ...> "), it is a session: the text
# typed after each "levelql> " prompt (and its "   ...> " continuation
# lines) is given to the command as one `-c` argument, as a person types
# it (errors placed within the statement, not within piped input), and the
# output must be the remaining lines. The lines before the first prompt are the
# banner of an interactive session, which a pipe does not get; its first
# line must be what `LEVELQL --version` prints.
set -euo pipefail

readme=$1
source_dir=$2
build_dir=$3
levelql=$4

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
checked=0

failed_command=0  # set when the command being checked failed

fail() {
  echo "FAIL: $1" >&2
  failed_command=1
}

# Runs one command with its transcript (in $work/transcript).
check_command() {
  local command=$1
  local run=${command/#build\//$build_dir/}
  local transcript=$work/transcript expected=$work/expected
  local input=$work/input actual=$work/actual
  : >"$expected"
  : >"$input"
  rm -f "$work/banner"
  failed_command=0
  local -a typed=()
  if grep -q -e '^levelql> ' "$transcript"; then
    local seen_prompt=0 line
    while IFS= read -r line; do
      case $line in
        'levelql> '*)
          seen_prompt=1
          typed+=("${line:9}")
          ;;
        '   ...> '*)
          typed[${#typed[@]} - 1]+=$'\n'"${line:9}"
          ;;
        *)
          if [ $seen_prompt = 1 ]; then
            printf '%s\n' "$line" >>"$expected"
          elif [ ! -s "$work/banner" ]; then
            printf '%s\n' "$line" >"$work/banner"
          fi
          ;;
      esac
    done <"$transcript"
    if [ -s "$work/banner" ] &&
      [ "$(cat "$work/banner")" != "$("$levelql" --version)" ]; then
      fail "\`$command\`: the banner should start with \"$("$levelql" --version)\""
    fi
  else
    cp "$transcript" "$expected"
  fi
  local arg
  for arg in "${typed[@]}"; do run+=" -c $(printf '%q' "$arg")"; done
  (cd "$source_dir" && bash -c "$run" <"$input" >"$actual" 2>&1) || true
  checked=$((checked + 1))
  if ! diff -u "$expected" "$actual" >"$work/diff"; then
    fail "\`$command\` printed something else (--- README, +++ actual):"
    cat "$work/diff" >&2
  fi
  failures=$((failures + failed_command))
}

in_block=0
command=
while IFS= read -r line || [ -n "$line" ]; do
  if [ $in_block = 0 ]; then
    [ "$line" = '```console' ] && in_block=1 && command=
    continue
  fi
  if [ "$line" = '```' ] || [ "${line:0:2}" = '$ ' ]; then
    [ -n "$command" ] && check_command "$command"
    if [ "$line" = '```' ]; then
      in_block=0
    else
      command=${line:2}
      : >"$work/transcript"
    fi
    continue
  fi
  [ -n "$command" ] && printf '%s\n' "$line" >>"$work/transcript"
done <"$readme"

if [ $checked = 0 ]; then
  echo "FAIL: no \`\`\`console commands found in $readme" >&2
  exit 1
fi
if [ $failures -gt 0 ]; then
  echo "$failures of $checked README commands differ" >&2
  exit 1
fi
echo "all $checked README commands print what the README shows"
