#!/usr/bin/env bash
# make run: the levelql REPL on demo.db in the working directory, loading
# the story tables of examples/demo.sql the first time.
set -euo pipefail
build=${1:-build}
db=${LEVELQL_DEMO_DB:-demo.db}
here=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "$db" ]; then
  echo "Creating $db with the story tables (examples/demo.sql)..."
  "$build/tools/levelql" "$db" -f "$here/examples/demo.sql"
fi
cat <<'MSG'
levelql demo database. Three queries to try:
  SELECT actionid, name, stamp FROM actions WHERE userid = 1 ORDER BY stamp DESC LIMIT 3 OFFSET 2;
  SELECT id, name FROM files WHERE owner = 1 AND created BETWEEN 20120901 AND 20121001 AND name LIKE '中国好声音%';
  EXPLAIN SELECT id FROM entities WHERE country = 'France' AND category = 'A';
Type .help for commands, .quit to leave.
MSG
exec "$build/tools/levelql" "$db"
