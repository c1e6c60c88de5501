#include "tests/differential/shrink.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>

#include "tests/differential/known_differences.h"
#include "tools/slt/slt_runner.h"

namespace levelql::difftest {

StepCheck CompareOutcomes(Outcome expected, Outcome got, bool query,
                          bool ordered, bool count_changes) {
  StepCheck c;
  if (!expected.ok || !got.ok) {
    if (expected.ok != got.ok) {
      c.agree = false;
      c.diff = expected.ok ? "levelql failed: " + got.error
                           : "SQLite failed (" + expected.error +
                                 ") but levelql succeeded";
    }
  } else if (query) {
    c.diff = CompareRows(expected.rows, got.rows, ordered);
    c.agree = c.diff.empty();
  } else if (count_changes && expected.changes != got.changes) {
    c.agree = false;
    c.diff = "SQLite changed " + std::to_string(expected.changes) +
             " rows, levelql " + std::to_string(got.changes);
  }
  c.expected = std::move(expected);
  c.got = std::move(got);
  if (!c.agree) c.known = IsKnownDifference(c.expected, c.got);
  return c;
}

EnginePair::EnginePair(const std::string& disable_rules, bool file_backed)
    : sqlite_(std::make_unique<SqliteEngine>()) {
  if (file_backed) dir_ = std::make_unique<testing::TempDir>("diff");
  levelql_ =
      LevelqlEngine::Open(file_backed ? dir_->path() + "/db" : ":memory:");
  if (!disable_rules.empty()) {
    levelql_->Run("PRAGMA disable_rules = '" + disable_rules + "'", false);
  }
}

EnginePair::~EnginePair() {
  levelql_.reset();  // closed before its directory goes
}

StepCheck EnginePair::Apply(const Step& step,
                            const std::vector<TableDef>& tables) {
  bool query = step.kind == Step::Kind::kQuery;
  Outcome e = sqlite_->Run(RenderStep(step, tables, Dialect::kSqlite), query);
  Outcome g = levelql_->Run(RenderStep(step, tables, Dialect::kLevelql), query);
  bool write = step.kind == Step::Kind::kInsert ||
               step.kind == Step::Kind::kInsertSelect ||
               step.kind == Step::Kind::kUpdate ||
               step.kind == Step::Kind::kDelete;
  return CompareOutcomes(std::move(e), std::move(g), query,
                         query && step.query.ordered, write);
}

bool CaseFails(const Case& c, std::string* diff) {
  if (c.steps.empty()) return false;
  EnginePair pair(c.disable_rules, c.file_backed);
  for (size_t i = 0; i < c.steps.size(); ++i) {
    StepCheck check = pair.Apply(c.steps[i], c.tables);
    bool last = i + 1 == c.steps.size();
    if (!last && !check.agree) return false;
    if (last) {
      if (diff) *diff = check.diff;
      return !check.agree && !check.known;
    }
  }
  return false;
}

namespace {

// Every expression that one simplification of `e` gives: a node replaced by
// one of its children, an IN list shortened.
void ExprCandidates(const Expr& e, std::vector<Expr>* out) {
  bool predicate_node =
      (e.kind == Expr::Kind::kBinary && (e.op == "AND" || e.op == "OR")) ||
      (e.kind == Expr::Kind::kUnary && e.op == "NOT");
  bool scalar_node =
      e.kind == Expr::Kind::kFunc || e.kind == Expr::Kind::kCast ||
      e.kind == Expr::Kind::kCase || e.kind == Expr::Kind::kUnary ||
      (e.kind == Expr::Kind::kBinary &&
       (e.op == "+" || e.op == "-" || e.op == "*" || e.op == "/" ||
        e.op == "%" || e.op == "||"));
  if (predicate_node) {
    for (const Expr& k : e.kids) out->push_back(k);
  } else if (scalar_node) {
    for (const Expr& k : e.kids) {
      if (k.kind != Expr::Kind::kLiteral) out->push_back(k);
    }
  }
  if (e.kind == Expr::Kind::kIn && e.kids.size() > 2) {
    for (size_t i = 1; i < e.kids.size(); ++i) {
      Expr shorter = e;
      shorter.kids.erase(shorter.kids.begin() + static_cast<long>(i));
      out->push_back(std::move(shorter));
    }
  }
  if (e.negated) {
    Expr plain = e;
    plain.negated = false;
    out->push_back(std::move(plain));
  }
  for (size_t i = 0; i < e.kids.size(); ++i) {
    std::vector<Expr> sub;
    ExprCandidates(e.kids[i], &sub);
    for (Expr& s : sub) {
      Expr copy = e;
      copy.kids[i] = std::move(s);
      out->push_back(std::move(copy));
    }
  }
}

bool HasOrdinal(const Query& q) {
  for (const OrderTerm& o : q.order) {
    if (o.ordinal) return true;
  }
  return false;
}

// Simpler versions of one step (the last step, or a write).
std::vector<Step> StepCandidates(const Step& s) {
  std::vector<Step> out;
  auto with_where = [&](std::optional<Expr> w) {
    Step copy = s;
    if (s.kind == Step::Kind::kQuery || s.kind == Step::Kind::kInsertSelect) {
      copy.query.where = std::move(w);
    } else {
      copy.where = std::move(w);
    }
    out.push_back(std::move(copy));
  };
  const std::optional<Expr>& where =
      s.kind == Step::Kind::kQuery || s.kind == Step::Kind::kInsertSelect
          ? s.query.where
          : s.where;
  if (where) {
    with_where(std::nullopt);
    std::vector<Expr> sub;
    ExprCandidates(*where, &sub);
    std::stable_sort(sub.begin(), sub.end(), [](const Expr& a, const Expr& b) {
      return ExprSize(a) < ExprSize(b);
    });
    for (Expr& e : sub) with_where(std::move(e));
  }
  if (s.kind == Step::Kind::kUpdate && s.sets.size() > 1) {
    for (const auto& set : s.sets) {
      Step copy = s;
      copy.sets = {set};
      out.push_back(std::move(copy));
    }
  }
  if (s.kind != Step::Kind::kQuery) return out;
  const Query& q = s.query;
  auto push = [&](const std::function<void(Query&)>& edit) {
    Step copy = s;
    edit(copy.query);
    out.push_back(std::move(copy));
  };
  if (!q.star && q.items.size() > 1 && !HasOrdinal(q)) {
    for (size_t i = 0; i < q.items.size(); ++i) {
      push([&](Query& c) { c.items = {q.items[i]}; });
    }
  }
  if (q.distinct && !q.ordered) push([](Query& c) { c.distinct = false; });
  if (q.offset >= 0) push([](Query& c) { c.offset = -1; });
  if (q.offset > 0) {
    push([](Query& c) { c.offset /= 2; });
    push([](Query& c) { --c.offset; });
  }
  if (q.limit > 1) {
    push([](Query& c) { c.limit = 1; });
    push([](Query& c) { c.limit /= 2; });
  }
  if (q.limit >= 0) {
    push([](Query& c) {
      c.limit = -1;
      c.offset = -1;
    });
  }
  if (!q.order.empty() && q.limit < 0) {
    push([](Query& c) {
      c.order.clear();
      c.ordered = false;
    });
  }
  // Not under DISTINCT: lower(c) -> c would let an engine keep either of
  // 'a' and 'A'.
  if (!q.aggregate && !q.star && !q.distinct && !HasOrdinal(q)) {
    for (size_t i = 0; i < q.items.size(); ++i) {
      std::vector<Expr> sub;
      ExprCandidates(q.items[i], &sub);
      for (Expr& e : sub) {
        push([&](Query& c) { c.items[i] = e; });
      }
    }
  }
  return out;
}

class Shrinker {
 public:
  Shrinker(Case c, const ShrinkOracle& oracle, int budget)
      : best_(std::move(c)), oracle_(oracle), budget_(budget) {}

  Case Run() {
    bool progress = true;
    for (int round = 0; progress && round < 4 && budget_ > 0; ++round) {
      progress = false;
      progress |= DropSteps();
      progress |= Canonicalize();
      progress |= DropRows();
      progress |= SimplifySteps();
    }
    return best_;
  }

 private:
  bool Try(const Case& c) {
    if (budget_ <= 0) return false;
    --budget_;
    if (!oracle_.fails(c)) return false;
    best_ = c;
    return true;
  }

  // Delta debugging over the steps before the last.
  bool DropSteps() {
    bool any = false;
    for (size_t chunk = std::max<size_t>(1, (best_.steps.size() - 1) / 2);
         chunk >= 1; chunk /= 2) {
      for (size_t start = 0; start + 1 < best_.steps.size();) {
        Case c = best_;
        size_t end = std::min(start + chunk, c.steps.size() - 1);
        c.steps.erase(c.steps.begin() + static_cast<long>(start),
                      c.steps.begin() + static_cast<long>(end));
        if (Try(c)) {
          any = true;
        } else {
          start += chunk;
        }
      }
      if (chunk == 1) break;
    }
    return any;
  }

  // Replaces the writes with one INSERT of the rows SQLite holds before the
  // last step, once next to each CREATE TABLE and once before the last step.
  bool Canonicalize() {
    size_t writes = 0;
    for (const Step& s : best_.steps) {
      writes +=
          s.kind == Step::Kind::kUpdate || s.kind == Step::Kind::kDelete ||
          s.kind == Step::Kind::kInsert || s.kind == Step::Kind::kInsertSelect;
    }
    if (writes <= 1) return false;
    std::vector<std::vector<std::vector<Value>>> contents =
        oracle_.rows_before_last(best_);
    std::vector<Step> inserts;
    for (size_t t = 0; t < best_.tables.size(); ++t) {
      Step ins;
      ins.kind = Step::Kind::kInsert;
      ins.table = static_cast<int>(t);
      if (t < contents.size()) ins.rows = contents[t];
      inserts.push_back(std::move(ins));
    }
    for (bool early : {true, false}) {
      Case c;
      c.tables = best_.tables;
      c.disable_rules = best_.disable_rules;
      c.file_backed = best_.file_backed;
      for (size_t i = 0; i + 1 < best_.steps.size(); ++i) {
        const Step& s = best_.steps[i];
        bool ddl = s.kind == Step::Kind::kCreateTable ||
                   s.kind == Step::Kind::kCreateIndex ||
                   s.kind == Step::Kind::kDropIndex ||
                   s.kind == Step::Kind::kDropTable ||
                   s.kind == Step::Kind::kAnalyze;
        if (!ddl) continue;
        c.steps.push_back(s);
        if (early && s.kind == Step::Kind::kCreateTable &&
            !inserts[s.table].rows.empty()) {
          c.steps.push_back(inserts[s.table]);
        }
      }
      if (!early) {
        for (const Step& ins : inserts) {
          if (!ins.rows.empty()) c.steps.push_back(ins);
        }
      }
      c.steps.push_back(best_.steps.back());
      if (Try(c)) return true;
    }
    return false;
  }

  bool DropRows() {
    bool any = false;
    for (size_t i = 0; i + 1 < best_.steps.size(); ++i) {
      if (best_.steps[i].kind != Step::Kind::kInsert) continue;
      for (size_t chunk = std::max<size_t>(1, best_.steps[i].rows.size() / 2);
           chunk >= 1; chunk /= 2) {
        for (size_t start = 0; start < best_.steps[i].rows.size();) {
          Case c = best_;
          auto& rows = c.steps[i].rows;
          if (rows.size() <= 1) break;
          size_t end = std::min(start + chunk, rows.size());
          if (end - start == rows.size()) break;
          rows.erase(rows.begin() + static_cast<long>(start),
                     rows.begin() + static_cast<long>(end));
          if (Try(c)) {
            any = true;
          } else {
            start += chunk;
          }
        }
        if (chunk == 1) break;
      }
    }
    return any;
  }

  bool SimplifySteps() {
    bool any = false;
    for (size_t i = 0; i < best_.steps.size(); ++i) {
      Step::Kind k = best_.steps[i].kind;
      if (k != Step::Kind::kQuery && k != Step::Kind::kUpdate &&
          k != Step::Kind::kDelete && k != Step::Kind::kInsertSelect) {
        continue;
      }
      for (bool progress = true; progress && budget_ > 0;) {
        progress = false;
        for (Step& candidate : StepCandidates(best_.steps[i])) {
          Case c = best_;
          c.steps[i] = std::move(candidate);
          if (Try(c)) {
            progress = any = true;
            break;
          }
        }
      }
    }
    return any;
  }

  Case best_;
  const ShrinkOracle& oracle_;
  int budget_;
};

char TypeLetter(const std::vector<ResultRow>& rows, size_t col) {
  char letter = 'I';
  for (const ResultRow& r : rows) {
    if (r[col].kind == Cell::Kind::kText || r[col].kind == Cell::Kind::kBlob) {
      return 'T';
    }
    if (r[col].kind == Cell::Kind::kReal) letter = 'R';
  }
  return letter;
}

}  // namespace

std::string QueryRecord(const std::string& sql, const Outcome& o,
                        bool ordered) {
  if (!o.ok) return "statement error\n" + sql + "\n\n";
  std::string types;
  for (int c = 0; c < o.columns; ++c) {
    types += TypeLetter(o.rows, static_cast<size_t>(c));
  }
  std::vector<std::vector<std::string>> rows;
  for (const ResultRow& r : o.rows) {
    std::vector<std::string> row;
    for (size_t c = 0; c < r.size(); ++c) {
      row.push_back(slt::RenderValue(r[c].ToValue(), types[c]));
    }
    rows.push_back(std::move(row));
  }
  if (!ordered) std::sort(rows.begin(), rows.end());
  std::string out = "query " + types + (ordered ? " nosort\n" : " rowsort\n");
  out += sql + "\n----\n";
  for (const auto& row : rows) {
    for (const std::string& v : row) out += v + "\n";
  }
  return out + "\n";
}

Case Shrink(const Case& c, const ShrinkOracle& oracle, int budget) {
  return Shrinker(c, oracle, budget).Run();
}

Case Shrink(const Case& c, int budget) {
  ShrinkOracle oracle;
  oracle.fails = [](const Case& x) { return CaseFails(x); };
  oracle.rows_before_last = [](const Case& x) {
    SqliteEngine sqlite;
    return RowsBeforeLast(x, sqlite, Dialect::kSqlite);
  };
  return Shrink(c, oracle, budget);
}

std::vector<std::vector<std::vector<Value>>> RowsBeforeLast(const Case& c,
                                                            Engine& engine,
                                                            Dialect d) {
  for (size_t i = 0; i + 1 < c.steps.size(); ++i) {
    const Step& s = c.steps[i];
    engine.Run(RenderStep(s, c.tables, d), s.kind == Step::Kind::kQuery);
  }
  std::vector<std::vector<std::vector<Value>>> out;
  for (const TableDef& def : c.tables) {
    std::string cols;
    for (const Column& col : def.cols) {
      cols += (cols.empty() ? "" : ", ") + col.name;
    }
    Outcome o = engine.Run("SELECT " + cols + " FROM " + def.name, true);
    std::vector<std::vector<Value>> rows;
    for (const ResultRow& r : o.rows) {
      std::vector<Value> row;
      for (const Cell& cell : r) row.push_back(cell.ToValue());
      rows.push_back(std::move(row));
    }
    out.push_back(std::move(rows));
  }
  return out;
}

std::string ToSlt(const Case& c, const std::string& header) {
  return ToSltWithTail(c, header, nullptr);
}

std::string ToSltWithTail(const Case& c, const std::string& header,
                          const std::string* tail) {
  std::string out = header;
  if (!out.empty() && out.back() != '\n') out += '\n';
  out += "\n";
  if (!c.disable_rules.empty() && tail == nullptr) {
    out += "statement ok\nPRAGMA disable_rules = '" + c.disable_rules + "'\n\n";
  }
  // Differential cases take SQLite's outcomes, oracle cases levelql's own
  // (with every planner rule off: the reference plans).
  std::unique_ptr<Engine> engine;
  Dialect dialect = Dialect::kSqlite;
  if (tail == nullptr) {
    engine = std::make_unique<SqliteEngine>();
  } else {
    auto lq = LevelqlEngine::Open(":memory:");
    lq->Run("PRAGMA disable_rules = 'all'", false);
    engine = std::move(lq);
    dialect = Dialect::kLevelql;
  }
  for (size_t i = 0; i < c.steps.size(); ++i) {
    const Step& s = c.steps[i];
    bool last = i + 1 == c.steps.size();
    if (last && tail != nullptr) {
      out += *tail;
      break;
    }
    std::string ours = RenderStep(s, c.tables, Dialect::kLevelql);
    bool query = s.kind == Step::Kind::kQuery;
    Outcome o = engine->Run(RenderStep(s, c.tables, dialect), query);
    if (query) {
      out += QueryRecord(ours, o, s.query.ordered);
      continue;
    }
    out += std::string(o.ok ? "statement ok\n" : "statement error\n") + ours +
           "\n\n";
    if (last) {
      // A write that went wrong: pin the rows it should leave.
      const TableDef& t = c.tables[s.table];
      std::string sql = "SELECT * FROM " + t.name;
      out += QueryRecord(sql, engine->Run(sql, true), false);
    }
  }
  return out;
}

std::string WriteRegression(const Case& c, const std::string& dir,
                            const std::string& header) {
  return WriteRegressionText(ToSlt(c, header), header.size(), dir);
}

std::string WriteRegressionText(const std::string& body, size_t header_size,
                                const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  size_t h = std::hash<std::string>()(body.substr(header_size));
  char name[32];
  std::snprintf(name, sizeof(name), "diff-%08zx.test", h & 0xffffffffu);
  std::string path = (std::filesystem::path(dir) / name).string();
  std::ofstream f(path);
  f << body;
  return f.good() ? path : "";
}

}  // namespace levelql::difftest
