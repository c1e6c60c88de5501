// The continuation oracle with writes between pages (oracles.h).
#include <algorithm>
#include <map>

#include "tests/differential/oracles.h"
#include "tests/support/env.h"

namespace levelql::difftest {
namespace {

// How often each row (by its rendering) occurs in `rows`.
std::map<std::string, size_t> Counts(const std::vector<ResultRow>& rows) {
  std::map<std::string, size_t> n;
  for (const ResultRow& row : rows) ++n[RenderRow(row)];
  return n;
}

size_t CountOf(const std::map<std::string, size_t>& counts,
               const std::string& key) {
  auto it = counts.find(key);
  return it == counts.end() ? 0 : it->second;
}

// The renderings of `rows` that `keep` holds, in order.
std::vector<std::string> Kept(const std::vector<ResultRow>& rows,
                              const std::map<std::string, size_t>& keep) {
  std::vector<std::string> out;
  for (const ResultRow& row : rows) {
    std::string key = RenderRow(row);
    if (keep.count(key)) out.push_back(std::move(key));
  }
  return out;
}

ResultRow RowOf(const Cursor& cur) {
  ResultRow row;
  for (const Value& v : cur.row()) row.push_back(Cell::FromValue(v));
  return row;
}

// The previous page of `cur`, which starts after `last` (a row of the
// answer `now`, where it occurs once): the `page` rows of `now` at and
// before it, or the first page when fewer precede it. Empty when it is.
std::string CheckPreviousPage(Statement& stmt, Cursor& cur,
                              const std::string& last,
                              const std::vector<ResultRow>& now, size_t page) {
  size_t at = now.size();
  for (size_t i = 0; i < now.size(); ++i) {
    if (RenderRow(now[i]) == last) at = i;
  }
  const size_t end = std::min(now.size(), std::max(at + 1, page));
  const size_t begin = end >= page ? end - page : 0;
  auto back = cur.PreviousPageToken(static_cast<int64_t>(page));
  if (!back.ok()) return "PreviousPageToken: " + back.status().ToString();
  auto again = stmt.Resume(*back);
  if (!again.ok()) return "Resume(previous page): " + again.status().ToString();
  std::vector<ResultRow> got;
  while (got.size() < page && (*again)->Next()) got.push_back(RowOf(**again));
  if (!(*again)->status().ok()) {
    return "the previous page failed: " + (*again)->status().ToString();
  }
  std::vector<ResultRow> want(now.begin() + begin, now.begin() + end);
  std::string diff = CompareRows(want, got, true);
  return diff.empty() ? diff
                      : "the previous page of the cursor after " + last +
                            " (the answer now has " +
                            std::to_string(now.size()) + " rows): " + diff;
}

}  // namespace

std::optional<Query> EveryColumnQuery(Query q,
                                      const std::vector<TableDef>& tables) {
  if (q.aggregate || !q.group_by.empty() || q.having) return std::nullopt;
  if (q.table >= static_cast<int>(tables.size()) ||
      q.join_table >= static_cast<int>(tables.size())) {
    return std::nullopt;
  }
  q.distinct = false;
  q.limit = q.offset = -1;
  if (!q.star) {
    const size_t n = QueryTable(q, tables).cols.size();
    for (size_t i = 0; i < n; ++i) {
      q.items.push_back(Expr::Col(static_cast<int>(i)));
    }
  }
  return q;
}

OracleResult ContinuationWithWrites(LevelqlEngine& engine,
                                    const std::vector<TableDef>& tables,
                                    const Query& generated,
                                    const std::vector<std::string>& writes) {
  OracleResult r;
  std::optional<Query> q = EveryColumnQuery(generated, tables);
  if (!q) return r;
  const std::string sql =
      RenderQuery(*q, QueryTable(*q, tables), Dialect::kLevelql);
  // answers[k]: the unpaged answer after the first k writes.
  std::vector<Outcome> answers{engine.Run(sql, true)};
  if (!answers[0].ok) return r;  // the query itself fails: nothing to page
  const size_t n = answers[0].rows.size();
  const size_t page = n <= 60 ? 1 + n % 3 : 1 + (n * 7919) % 50;
  const size_t stride = std::max<size_t>(1, n / page / (writes.size() + 1));
  // The tail of a regression file: comments, as the seed replays the writes.
  std::string trace = "# " + sql + "\n# read in pages of " +
                      std::to_string(page) + " rows, with writes between them:";
  auto fail = [&](const std::string& what) {
    r.diff = what;
    r.tail = trace + "\n\n";
    return r;
  };

  const bool pinned = !testing::EnvText("LEVELQL_TEST_ON_ETCD").empty();
  auto stmt = engine.db().Prepare(sql);
  if (!stmt.ok()) return fail("Prepare: " + stmt.status().ToString());
  auto cur = (*stmt)->Query();
  if (!cur.ok()) return fail("Query: " + cur.status().ToString());
  std::vector<ResultRow> paged;
  size_t next_write = 0;
  std::map<std::string, size_t> now_counts;  // of answers.back()
  size_t counted = 0;                        // answers.size() it was made at
  for (size_t p = 0;; ++p) {
    bool ended = false;
    for (size_t i = 0; i < page && !ended; ++i) {
      if ((*cur)->Next()) {
        paged.push_back(RowOf(**cur));
      } else {
        ended = true;
      }
    }
    if (!(*cur)->status().ok()) {
      // Overflow met in the rows of some state is no paging failure.
      for (const Outcome& a : answers) {
        if (!a.ok) return r;
      }
      return fail("page " + std::to_string(p + 1) +
                  " failed: " + (*cur)->status().ToString());
    }
    std::string token = (*cur)->ContinuationToken();
    if (ended || token.empty()) break;
    if (paged.size() > 20 * (n + writes.size() * 150) + 100) {
      return fail("the paged read does not end");
    }
    if (next_write < writes.size() && p % stride == 0) {
      const std::string& w = writes[next_write++];
      Outcome done = engine.Run(w, false);
      std::string line = "after row " + std::to_string(paged.size()) + ": " +
                         w + (done.ok ? "" : " (failed: " + done.error + ")");
      std::replace(line.begin(), line.end(), '\n', ' ');
      std::replace(line.begin(), line.end(), '\r', ' ');
      trace += "\n# " + line;
      answers.push_back(engine.Run(sql, true));
    }
    auto next = (*stmt)->Resume(token);
    if (!next.ok()) {
      const Status& s = next.status();
      if (s.code() == Status::Code::kInvalidArgument &&
          (s.message().find(kPlanChangedMessage) != std::string::npos ||
           s.message().find(kMadeRowsChangedMessage) != std::string::npos)) {
        r.refused = true;
        return r;
      }
      return fail("Resume after " + std::to_string(paged.size()) +
                  " rows: " + s.ToString());
    }
    cur = std::move(next);
    // The page before the new cursor, as the rows are now, when its
    // starting row is still there once (some pages: the backward read
    // costs a page).
    // On etcd every page of a query, a previous one too, reads the state
    // its first page read (docs/SCALE_OUT.md); on LevelDB, the latest.
    const Outcome& now = pinned ? answers.front() : answers.back();
    if (pinned ? counted == 0 : answers.size() != counted) {
      now_counts = Counts(now.rows);
      counted = answers.size();
    }
    const std::string last = RenderRow(paged.back());
    if (answers.size() > 1 && now.ok && (p < 8 || p % 7 == 0) &&
        CountOf(now_counts, last) == 1) {
      std::string wrong =
          CheckPreviousPage(**stmt, **cur, last, now.rows, page);
      if (!wrong.empty()) return fail(wrong);
    }
  }
  for (const Outcome& a : answers) {
    if (!a.ok) return r;  // some state overflows: no answer to compare
  }

  // A row is stable when every state holds it as often: it must come that
  // many times. No row may come more often than it ever arrived (held at
  // the start, or added by a write).
  std::vector<std::map<std::string, size_t>> counts;
  for (const Outcome& a : answers) counts.push_back(Counts(a.rows));
  const std::map<std::string, size_t> got = Counts(paged);
  std::map<std::string, size_t> stable;
  std::map<std::string, size_t> arrived = counts[0];
  for (size_t k = 1; k < counts.size(); ++k) {
    for (const auto& [key, c] : counts[k]) {
      size_t before = CountOf(counts[k - 1], key);
      if (c > before) arrived[key] += c - before;
    }
  }
  for (const auto& [key, c] : arrived) {
    bool same = true;
    for (const auto& m : counts) same = same && CountOf(m, key) == c;
    if (same) stable[key] = c;
  }
  for (const auto& [key, c] : stable) {
    if (CountOf(got, key) != c) {
      return fail("row " + key + " is in every state " + std::to_string(c) +
                  " time(s) but came " + std::to_string(CountOf(got, key)) +
                  " time(s)");
    }
  }
  for (const auto& [key, c] : got) {
    if (c > CountOf(arrived, key)) {
      return fail("row " + key + " came " + std::to_string(c) +
                  " time(s) but was present " +
                  std::to_string(CountOf(arrived, key)) + " time(s)");
    }
  }
  // The stable rows come in the order the unpaged answer gives them.
  if (Kept(paged, stable) != Kept(answers[0].rows, stable)) {
    return fail(
        "the rows present throughout came in another order than "
        "the unpaged answer's");
  }
  return r;
}

}  // namespace levelql::difftest
