#!/usr/bin/env bash
# Drives the real `levelql` binary in a detached tmux session, the way a
# person would: a multi-line statement, history recall with Up, .mode box,
# .explain on, tab completion of a table name, .import, Ctrl-C during a long
# query and at an empty prompt, .quit. Checks the captured pane after each
# step. Uses a private tmux server (-L) that it always kills; takes a few
# seconds (every wait is bounded, 30 s at most overall).
#
#   tests/repl_tmux_test.sh path/to/levelql
set -u

BIN=${1:?usage: repl_tmux_test.sh path/to/levelql}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
command -v tmux >/dev/null || { echo "tmux not found: skipped"; exit 0; }

SOCK="levelql-test-$$"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/levelql-tmux.XXXXXX")
TMUX_CMD=(tmux -L "$SOCK" -f /dev/null)
cleanup() {
  "${TMUX_CMD[@]}" kill-server >/dev/null 2>&1
  rm -rf "$WORK"
}
trap cleanup EXIT
START=$SECONDS

fail() {
  echo "FAIL: $*"
  echo "----- pane -----"
  pane
  echo "----------------"
  exit 1
}

pane() { "${TMUX_CMD[@]}" capture-pane -p -J -S - -t lq 2>/dev/null; }

# wait_for TEXT [SECONDS]: until the pane holds TEXT (fixed string).
wait_for() {
  local deadline=$((SECONDS + ${2:-5}))
  while ((SECONDS <= deadline)); do
    pane | grep -qF -- "$1" && return 0
    sleep 0.1
  done
  fail "timed out waiting for: $1"
}

# wait_prompt: until the last line is an empty prompt, i.e. the editor is
# reading again (keys sent earlier would be echoed by the tty as typeahead).
wait_prompt() {
  local deadline=$((SECONDS + ${1:-5}))
  while ((SECONDS <= deadline)); do
    [[ "$(pane | sed "s/ *$//" | grep -v "^$" | tail -n 1)" == "levelql>" ]] && return 0
    sleep 0.1
  done
  fail "timed out waiting for an empty prompt"
}

# count TEXT: lines of the pane holding TEXT.
count() { pane | grep -cF -- "$1"; }

# type TEXT: sends TEXT literally. tmux treats an argument ending in ';' as
# a command separator, so callers end statements with "; ".
type() { "${TMUX_CMD[@]}" send-keys -t lq -l -- "$1"; }
key() { "${TMUX_CMD[@]}" send-keys -t lq "$@"; }

# First, without a terminal: SQL from a pipe, -c, and the exit statuses.
export HOME="$WORK" LEVELQL_HISTORY="$WORK/hist"
out=$(printf 'CREATE TABLE p (x INTEGER);\nINSERT INTO p VALUES (7);\nSELECT x FROM p;\n' |
  "$BIN" --mode csv 2>&1)
[[ $? == 0 && "$out" == $'x\n7' ]] || fail "pipe: got [$out]"
"$BIN" -c "SELECT x FROM nope;" 2>/dev/null
[[ $? == 1 ]] || fail "a failed statement should exit 1"
"$BIN" --no-such-flag 2>/dev/null
[[ $? == 2 ]] || fail "an unknown flag should exit 2"
"$BIN" -c 2>/dev/null
[[ $? == 2 ]] || fail "a missing argument should exit 2"
"$BIN" -c ".exit 5"
[[ $? == 5 ]] || fail ".exit 5 should exit 5"
[[ ! -e "$WORK/hist" ]] || fail "history written without a terminal"

# 20000 rows of 300 characters: enough for a query that runs for seconds.
awk 'BEGIN { for (i = 0; i < 20000; i++) { printf "%d,", i;
             for (j = 0; j < 300; j++) printf "a"; print "" } }' \
  >"$WORK/a.csv"

"${TMUX_CMD[@]}" new-session -d -s lq -x 200 -y 50 \
  "cd '$WORK' && env HOME='$WORK' LEVELQL_HISTORY='$WORK/hist' TERM=xterm \
   LANG=C.UTF-8 '$BIN'; echo EXITED:\$?; sleep 60" ||
  fail "cannot start tmux"
wait_for "levelql> "
wait_for 'Use ".open FILE" to reopen on a persistent database.'

# A multi-line statement: the continuation prompt, then the rows.
type "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); "
key Enter
type "INSERT INTO users VALUES (1, 'alice'), (2, '中国'); "
key Enter
type "SELECT id,"
key Enter
wait_for "   ...> "
type "  name FROM users"
key Enter
type "ORDER BY id; "
key Enter
wait_for "|  2 | 中国  |"
wait_prompt

# Up recalls the whole statement as one history entry.
key Up
wait_for "levelql> SELECT id,   name FROM users ORDER BY id;"
key Enter
for _ in $(seq 50); do (($(count "| alice |") >= 2)) && break; sleep 0.1; done
(($(count "| alice |") == 2)) || fail "the recalled statement did not run"

# Box mode, EXPLAIN, and a table name completed with Tab.
type ".mode box"
key Enter
type ".explain on"
key Enter
wait_prompt
type "SELECT name FROM us"
key Tab
wait_for "SELECT name FROM users "
type "WHERE id = 2; "
key Enter
wait_for "│ 中国 │"
pane | grep -B20 -F "│ 中国 │" | grep -qE "users.*(id|key)|Scan|Seek" ||
  fail ".explain on showed no plan"

# Ctrl-C stops a long query and returns to the prompt.
type ".explain off"
key Enter
type "CREATE TABLE s (id INTEGER, t TEXT); "
key Enter
type ".import a.csv s"
key Enter
wait_for "imported 20000 rows in"
X=t
for _ in $(seq 63); do X="$X||t"; done
type "SELECT count(*) FROM s WHERE upper(lower($X)||lower($X)||lower($X)) LIKE '%b%'; "
key Enter
sleep 1.5
pane | grep -qF "statement interrupted" && fail "interrupted too early"
key C-c
wait_for "Error: Interrupted" 5
type "SELECT count(*) AS n FROM users; "
key Enter
wait_for "│ 2 │"
wait_prompt

# Ctrl-C at an empty prompt only prints a hint.
key C-c
wait_for 'Use ".quit" or Ctrl-D to exit.'
[[ -n "${VERBOSE:-}" ]] && pane | cut -c1-120
type ".quit"
key Enter
# The interrupted query counts as a failed statement: exit status 1.
wait_for "EXITED:1"

grep -qF 'SELECT\040id,\040\040\040name\040FROM\040users\040ORDER\040BY\040id;' \
  "$WORK/hist" || fail "history file lacks the statement: $(cat "$WORK/hist")"
((SECONDS - START < 30)) || fail "took $((SECONDS - START)) s"
echo "PASS ($((SECONDS - START)) s)"
