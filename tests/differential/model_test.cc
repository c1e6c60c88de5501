// A model-based randomized test in the style of LevelDB's DBTest.Randomized:
// random writes go to a file-backed database and to an in-memory model (rows
// by primary key, index entries derived from them); the database is closed
// and reopened at random points; after every few steps the full contents,
// every index's entries in index order, point lookups through the indexes,
// and CHECK must agree with the model. Steps: LEVELQL_MODEL_STEPS (default
// 20000); seeds: test_env.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

#include "levelql/database.h"
#include "tests/differential/engines.h"
#include "tests/differential/generator.h"
#include "tests/differential/sql_ast.h"
#include "tests/differential/test_env.h"

namespace levelql::difftest {
namespace {

// SQL order of two non-NULL values of one column's type: numbers by value,
// text by bytes, lists by their rendering (never used as keys).
int Compare(const Value& a, const Value& b) {
  if (a.type() == Type::kInteger && b.type() == Type::kInteger) {
    return a.int_value() < b.int_value() ? -1 : a.int_value() > b.int_value();
  }
  if (a.is_numeric() && b.is_numeric()) {
    double x = a.AsDouble(), y = b.AsDouble();
    return x < y ? -1 : x > y;
  }
  const std::string sa = a.type() == Type::kList ? a.ToString() : a.text();
  const std::string sb = b.type() == Type::kList ? b.ToString() : b.text();
  return sa.compare(sb) < 0 ? -1 : sa.compare(sb) > 0;
}

int CompareNullsFirst(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) {
    return a.is_null() == b.is_null() ? 0 : (a.is_null() ? -1 : 1);
  }
  return Compare(a, b);
}

struct KeyLess {
  bool operator()(const std::vector<Value>& a,
                  const std::vector<Value>& b) const {
    for (size_t i = 0; i < a.size(); ++i) {
      int c = CompareNullsFirst(a[i], b[i]);
      if (c) return c < 0;
    }
    return false;
  }
};

std::string Render(const Value& v) { return RenderCell(Cell::FromValue(v)); }

std::string RenderRows(const std::vector<std::vector<Value>>& rows) {
  std::string out;
  for (const auto& r : rows) {
    out += "(";
    for (size_t i = 0; i < r.size(); ++i) out += (i ? ", " : "") + Render(r[i]);
    out += ")";
  }
  return out;
}

struct Col {
  std::string name;
  ColType type;
  bool list = false;
  bool not_null = false;
};

struct Index {
  std::string name;
  std::vector<int> cols;
  std::vector<bool> desc;
  bool unique = false;
  std::vector<int> include;
};

// One table and its model; the database lives in a temporary directory.
class ModelRound {
 public:
  ModelRound(uint64_t seed, const std::string& dir)
      : seed_(seed), rng_(seed), dir_(dir) {
    std::filesystem::remove_all(dir_);
    Reopen();
    MakeSchema();
  }
  ~ModelRound() {
    db_.reset();
    std::filesystem::remove_all(dir_);
  }

  // Runs `steps` random steps; returns false after the first failure.
  bool Run(int64_t steps, int64_t* done) {
    // Now and then a table larger than one CREATE INDEX backfill batch
    // (10000 entries), indexed afterwards.
    if (rng_.OneIn(10)) {
      BulkLoad(static_cast<int>(rng_.Range(10000, 13000)));
      CreateIndex();
      CreateIndex();
      Verify();
      steps = std::min<int64_t>(steps, 60);
    }
    for (int64_t i = 0; i < steps; ++i, ++*done) {
      int r = static_cast<int>(rng_.Uniform(1000));
      if (r < 450) {
        Insert();
      } else if (r < 650) {
        Update();
      } else if (r < 800) {
        Delete();
      } else if (r < 815) {
        Reopen();
      } else if (r < 825) {
        CreateIndex();
      } else if (r < 830 && !indexes_.empty()) {
        size_t k = rng_.Uniform(indexes_.size());
        Exec("DROP INDEX " + indexes_[k].name, true);
        indexes_.erase(indexes_.begin() + static_cast<long>(k));
      } else {
        Verify();
      }
      if (failed_) return false;
    }
    Reopen();
    Verify();
    return !failed_;
  }

 private:
  void Fail(const std::string& what) {
    if (failed_) return;
    failed_ = true;
    std::string recent;
    size_t from = log_.size() > 12 ? log_.size() - 12 : 0;
    for (size_t i = from; i < log_.size(); ++i) recent += "\n    " + log_[i];
    ADD_FAILURE() << "model test (LEVELQL_SEED=" << seed_ << ", step "
                  << log_.size() << "): " << what
                  << "\n  last statements:" << recent;
  }

  void Reopen() {
    db_.reset();
    log_.push_back("-- close and reopen");
    Options options;
    options.compression = rng_.OneIn(2);
    options.bloom_bits_per_key = rng_.OneIn(3) ? 0 : 10;
    options.block_cache_bytes = rng_.OneIn(2) ? 8 << 20 : 4096;
    auto db = Database::Open(dir_, options);
    if (!db.ok()) return Fail("reopen: " + db.status().ToString());
    db_ = std::move(db).value();
  }

  // Runs a write; `expect_ok` is the model's prediction. Returns the number
  // of rows changed (or -1 on failure).
  int64_t Exec(const std::string& sql, bool expect_ok) {
    log_.push_back(sql);
    auto r = db_->Execute(sql, Params{});
    if (r.ok() != expect_ok) {
      Fail(sql + (r.ok() ? ": succeeded, the model expected an error"
                         : ": " + r.status().ToString()));
      return -1;
    }
    return r.ok() ? r->rows_affected : -1;
  }

  std::vector<std::vector<Value>> Query(const std::string& sql) {
    log_.push_back(sql);
    std::vector<std::vector<Value>> out;
    auto cur = db_->Query(sql);
    if (!cur.ok()) {
      Fail(sql + ": " + cur.status().ToString());
      return out;
    }
    while ((*cur)->Next()) out.push_back((*cur)->row());
    if (!(*cur)->status().ok()) Fail(sql + ": " + (*cur)->status().ToString());
    return out;
  }

  void MakeSchema() {
    cols_.push_back({"k", ColType::kInt, false, true});
    pk_ = {0};
    if (rng_.OneIn(3)) {
      cols_.push_back({"k2", ColType::kText, false, true});
      pk_.push_back(1);
    }
    pk_desc_ = std::vector<bool>(pk_.size(), false);
    for (size_t i = 0; i < pk_desc_.size(); ++i) pk_desc_[i] = rng_.OneIn(3);
    static const ColType kTypes[] = {ColType::kInt, ColType::kReal,
                                     ColType::kText};
    for (int i = static_cast<int>(rng_.Range(1, 4)); i > 0; --i) {
      Col c{"c" + std::to_string(cols_.size()), kTypes[rng_.Uniform(3)]};
      c.not_null = rng_.OneIn(5);
      cols_.push_back(c);
    }
    if (rng_.OneIn(2)) cols_.push_back({"tags", ColType::kText, true, false});
    static const char* kNames[] = {"INTEGER", "REAL", "TEXT"};
    std::string sql = "CREATE TABLE t (";
    for (const Col& c : cols_) {
      sql += c.name + " " + kNames[static_cast<int>(c.type)] +
             (c.list ? "[]" : "") + (c.not_null ? " NOT NULL" : "") + ", ";
    }
    sql += "PRIMARY KEY (";
    for (size_t i = 0; i < pk_.size(); ++i) {
      sql +=
          (i ? ", " : "") + cols_[pk_[i]].name + (pk_desc_[i] ? " DESC" : "");
    }
    Exec(sql + "))", true);
    for (int i = static_cast<int>(rng_.Range(0, 3)); i > 0; --i) CreateIndex();
  }

  Value RandomValue(const Col& c) {
    if (!c.not_null && rng_.OneIn(6)) return Value::Null();
    if (c.list) {
      std::vector<Value> elems;
      for (int i = static_cast<int>(rng_.Range(0, 3)); i > 0; --i) {
        static const std::vector<std::string> tags = {"A", "B", "C", "a", "中"};
        elems.push_back(Value::Text(rng_.Pick(tags)));
      }
      return Value::List(std::move(elems));
    }
    switch (c.type) {
      case ColType::kInt:
        if (rng_.OneIn(20)) {
          static const std::vector<int64_t> edge = {
              INT64_MAX, INT64_MIN + 1, 1LL << 53, -(1LL << 53) - 1,
              255,       256,           -256,      65536};
          return Value::Int(rng_.Pick(edge));
        }
        return Value::Int(rng_.Range(-60, 60));
      case ColType::kReal:
        if (rng_.OneIn(10)) {
          static const std::vector<double> edge = {0.0,    -0.0,     1e308,
                                                   -1e308, 5e-324,   -5e-324,
                                                   1e-300, INFINITY, -INFINITY};
          double d = rng_.Pick(edge);
          return Value::Real(d == 0 ? 0.0 : d);  // -0.0 is stored as 0.0
        }
        return Value::Real(static_cast<double>(rng_.Range(-80, 80)) / 4);
      case ColType::kText: {
        static const std::vector<std::string> words = {
            "",    "a",    "ab", "abc", "b",    "B", "ab\x01",
            "a b", "中国", "中", "x'y", "\x7f", "é", "e\xcc\x81"};
        if (rng_.OneIn(30)) return Value::Text(std::string(300, 'z'));
        return Value::Text(rng_.Pick(words));
      }
    }
    return Value::Null();
  }

  std::vector<Value> Key(const std::vector<Value>& row) const {
    std::vector<Value> key;
    for (int c : pk_) key.push_back(row[c]);
    return key;
  }

  // Whether `rows` satisfies every constraint the model knows.
  bool Valid(const std::map<std::vector<Value>, std::vector<Value>, KeyLess>&
                 rows) const {
    for (const auto& [key, row] : rows) {
      for (size_t c = 0; c < cols_.size(); ++c) {
        if (cols_[c].not_null && row[c].is_null()) return false;
      }
    }
    for (const Index& ix : indexes_) {
      if (!ix.unique) continue;
      std::set<std::vector<Value>, KeyLess> seen;
      for (const auto& [key, row] : rows) {
        std::vector<Value> entry;
        bool has_null = false;
        for (int c : ix.cols) {
          entry.push_back(row[c]);
          has_null |= row[c].is_null();
        }
        if (!has_null && !seen.insert(entry).second) return false;
      }
    }
    return true;
  }

  // `n` rows with fresh keys, 500 per INSERT.
  void BulkLoad(int n) {
    for (int done = 0; done < n && !failed_;) {
      auto next = rows_;
      std::string sql = "INSERT INTO t VALUES ";
      int batch = std::min(500, n - done);
      for (int r = 0; r < batch; ++r, ++done) {
        std::vector<Value> row;
        for (const Col& c : cols_) row.push_back(RandomValue(c));
        row[0] = Value::Int(1000 + done);
        next.emplace(Key(row), row);
        sql += r ? ", (" : "(";
        for (size_t c = 0; c < row.size(); ++c) {
          sql += (c ? ", " : "") + RenderLiteral(row[c]);
        }
        sql += ")";
      }
      bool ok = Valid(next);
      if (Exec(sql, ok) >= 0 && ok) rows_ = std::move(next);
    }
  }

  void Insert() {
    auto next = rows_;
    std::vector<std::vector<Value>> batch;
    bool ok = true;
    for (int i = static_cast<int>(rng_.Range(1, 5)); i > 0; --i) {
      std::vector<Value> row;
      for (const Col& c : cols_) row.push_back(RandomValue(c));
      row[0] = rng_.OneIn(8) ? RandomValue(cols_[0])
                             : Value::Int(rng_.Range(-200, 200));
      ok &= next.emplace(Key(row), row).second;
      batch.push_back(std::move(row));
    }
    ok = ok && Valid(next);
    std::string sql = "INSERT INTO t VALUES ";
    for (size_t r = 0; r < batch.size(); ++r) {
      sql += r ? ", (" : "(";
      for (size_t c = 0; c < batch[r].size(); ++c) {
        sql += (c ? ", " : "") + RenderLiteral(batch[r][c]);
      }
      sql += ")";
    }
    int64_t n = Exec(sql, ok);
    if (ok) {
      if (n != static_cast<int64_t>(batch.size())) {
        Fail(sql + ": " + std::to_string(n) + " rows inserted");
      }
      rows_ = std::move(next);
    }
  }

  // A WHERE clause the model can evaluate, as (sql, predicate).
  std::pair<std::string, std::function<bool(const std::vector<Value>&)>>
  RandomWhere() {
    int r = static_cast<int>(rng_.Uniform(10));
    if (r < 4 && !rows_.empty()) {
      auto it = rows_.begin();
      std::advance(it, rng_.Uniform(rows_.size()));
      std::vector<Value> key = it->first;
      std::string sql = " WHERE ";
      for (size_t i = 0; i < pk_.size(); ++i) {
        sql += (i ? " AND " : "") + cols_[pk_[i]].name + " = " +
               RenderLiteral(key[i]);
      }
      return {sql, [this, key](const std::vector<Value>& row) {
                return !KeyLess()(Key(row), key) && !KeyLess()(key, Key(row));
              }};
    }
    if (r < 8) {
      int64_t lo = rng_.Range(-200, 200), hi = lo + rng_.Range(0, 60);
      return {" WHERE k BETWEEN " + std::to_string(lo) + " AND " +
                  std::to_string(hi),
              [lo, hi](const std::vector<Value>& row) {
                return row[0].int_value() >= lo && row[0].int_value() <= hi;
              }};
    }
    if (r < 9) {
      int c = static_cast<int>(rng_.Uniform(cols_.size()));
      return {" WHERE " + cols_[c].name + " IS NULL",
              [c](const std::vector<Value>& row) { return row[c].is_null(); }};
    }
    return {"", [](const std::vector<Value>&) { return true; }};
  }

  void Update() {
    auto [where_sql, pred] = RandomWhere();
    int c = static_cast<int>(rng_.Uniform(cols_.size()));
    Value v = RandomValue(cols_[c]);
    decltype(rows_) next;
    bool ok = true;
    int64_t matched = 0;
    for (const auto& [key, row] : rows_) {
      std::vector<Value> updated = row;
      if (pred(row)) {
        updated[c] = v;
        ++matched;
      }
      ok &= next.emplace(Key(updated), updated).second;
    }
    ok = ok && Valid(next);
    std::string sql =
        "UPDATE t SET " + cols_[c].name + " = " + RenderLiteral(v) + where_sql;
    int64_t n = Exec(sql, ok);
    if (ok) {
      if (n != matched) {
        Fail(sql + ": " + std::to_string(n) + " rows updated, model " +
             std::to_string(matched));
      }
      rows_ = std::move(next);
    }
  }

  void Delete() {
    auto [where_sql, pred] = RandomWhere();
    if (where_sql.empty() && !rng_.OneIn(5)) return;
    int64_t matched = 0;
    for (auto it = rows_.begin(); it != rows_.end();) {
      if (pred(it->second)) {
        it = rows_.erase(it);
        ++matched;
      } else {
        ++it;
      }
    }
    std::string sql = "DELETE FROM t" + where_sql;
    int64_t n = Exec(sql, true);
    if (n != matched && !failed_) {
      Fail(sql + ": " + std::to_string(n) + " rows deleted, model " +
           std::to_string(matched));
    }
  }

  void CreateIndex() {
    Index ix;
    ix.name = "i" + std::to_string(next_index_++);
    std::vector<int> cand;
    for (size_t c = 0; c < cols_.size(); ++c)
      cand.push_back(static_cast<int>(c));
    rng_.Shuffle(&cand);
    int n = static_cast<int>(rng_.Range(1, std::min<size_t>(3, cand.size())));
    bool has_list = false;
    for (int i = 0; i < n; ++i) {
      if (cols_[cand[i]].list && !ix.cols.empty()) continue;
      ix.cols.push_back(cand[i]);
      ix.desc.push_back(rng_.OneIn(3));
      has_list |= cols_[cand[i]].list;
      if (has_list) break;  // a list column indexes alone
    }
    ix.unique = !has_list && rng_.OneIn(4);
    if (!has_list && rng_.OneIn(3)) {
      for (int c : cand) {
        if (std::find(ix.cols.begin(), ix.cols.end(), c) == ix.cols.end() &&
            !cols_[c].list) {
          ix.include.push_back(c);
          break;
        }
      }
    }
    std::string sql =
        std::string(ix.unique ? "CREATE UNIQUE INDEX " : "CREATE INDEX ") +
        ix.name + " ON t (";
    for (size_t i = 0; i < ix.cols.size(); ++i) {
      sql += (i ? ", " : "") + cols_[ix.cols[i]].name +
             (ix.desc[i] ? " DESC" : "");
    }
    sql += ")";
    if (!ix.include.empty())
      sql += " INCLUDE (" + cols_[ix.include[0]].name + ")";
    indexes_.push_back(ix);
    bool ok = Valid(rows_);
    if (!ok) indexes_.pop_back();
    Exec(sql, ok);
  }

  std::string PkOrder() const {
    std::string out;
    for (int c : pk_) out += (out.empty() ? "" : ", ") + cols_[c].name;
    return out;
  }

  void Verify() {
    // Full contents in key order.
    std::vector<std::vector<Value>> want;
    for (const auto& [key, row] : rows_) want.push_back(row);
    auto got = Query("SELECT * FROM t ORDER BY " + PkOrder());
    if (RenderRows(got) != RenderRows(want)) {
      return Fail("contents differ:\n  model " + RenderRows(want) +
                  "\n  db    " + RenderRows(got));
    }
    for (const Index& ix : indexes_) {
      if (failed_) return;
      if (cols_[ix.cols[0]].list) {
        VerifyListIndex(ix);
        continue;
      }
      // Every entry, in index order (read from the index itself when the
      // planner can), against the model's rows sorted the same way.
      std::string select, order;
      for (size_t i = 0; i < ix.cols.size(); ++i) {
        select += (i ? ", " : "") + cols_[ix.cols[i]].name;
        order += (i ? ", " : "") + cols_[ix.cols[i]].name +
                 (ix.desc[i] ? " DESC" : "");
      }
      for (int c : pk_) {
        select += ", " + cols_[c].name;
        order += ", " + cols_[c].name;
      }
      std::vector<std::vector<Value>> entries;
      for (const auto& [key, row] : rows_) {
        std::vector<Value> e;
        for (int c : ix.cols) e.push_back(row[c]);
        for (int c : pk_) e.push_back(row[c]);
        entries.push_back(std::move(e));
      }
      std::stable_sort(entries.begin(), entries.end(),
                       [&](const auto& a, const auto& b) {
                         for (size_t i = 0; i < a.size(); ++i) {
                           int c = CompareNullsFirst(a[i], b[i]);
                           if (i < ix.desc.size() && ix.desc[i]) c = -c;
                           if (c) return c < 0;
                         }
                         return false;
                       });
      auto rows = Query("SELECT " + select + " FROM t ORDER BY " + order);
      if (RenderRows(rows) != RenderRows(entries)) {
        return Fail("index " + ix.name + " order differs:\n  model " +
                    RenderRows(entries) + "\n  db    " + RenderRows(rows));
      }
      // A point lookup through the index.
      if (!rows_.empty()) {
        auto it = rows_.begin();
        std::advance(it, rng_.Uniform(rows_.size()));
        const Value& v = it->second[ix.cols[0]];
        std::string cond = v.is_null() ? " IS NULL" : " = " + RenderLiteral(v);
        std::vector<std::vector<Value>> expect;
        for (const auto& [key, row] : rows_) {
          if (v.is_null() ? row[ix.cols[0]].is_null()
                          : CompareNullsFirst(row[ix.cols[0]], v) == 0) {
            expect.push_back(row);
          }
        }
        auto found = Query("SELECT * FROM t WHERE " + cols_[ix.cols[0]].name +
                           cond + " ORDER BY " + PkOrder());
        if (RenderRows(found) != RenderRows(expect)) {
          return Fail("lookup through " + ix.name + " differs:\n  model " +
                      RenderRows(expect) + "\n  db    " + RenderRows(found));
        }
      }
    }
    log_.push_back("CHECK");
    if (Status s = db_->Execute("CHECK"); !s.ok())
      Fail("CHECK: " + s.ToString());
  }

  // A multi-valued column: `tags = x` returns each row holding x once.
  void VerifyListIndex(const Index& ix) {
    static const std::vector<std::string> tags = {"A", "B",  "C",
                                                  "a", "中", "Z"};
    const std::string& x = rng_.Pick(tags);
    std::vector<std::vector<Value>> expect;
    for (const auto& [key, row] : rows_) {
      const Value& v = row[ix.cols[0]];
      if (v.type() != Type::kList) continue;
      for (const Value& e : v.list()) {
        if (e.type() == Type::kText && e.text() == x) {
          expect.push_back(row);
          break;
        }
      }
    }
    auto got =
        Query("SELECT * FROM t WHERE tags = '" + x + "' ORDER BY " + PkOrder());
    if (RenderRows(got) != RenderRows(expect)) {
      Fail("list index " + ix.name + " lookup of '" + x +
           "' differs:\n  model " + RenderRows(expect) + "\n  db    " +
           RenderRows(got));
    }
  }

  uint64_t seed_;
  Rng rng_;
  std::string dir_;
  std::unique_ptr<Database> db_;
  std::vector<Col> cols_;
  std::vector<int> pk_;
  std::vector<bool> pk_desc_;
  std::vector<Index> indexes_;
  int next_index_ = 0;
  std::map<std::vector<Value>, std::vector<Value>, KeyLess> rows_;
  std::vector<std::string> log_;
  bool failed_ = false;
};

TEST(ModelTest, RandomizedAgainstModelWithReopens) {
  const int64_t budget = EnvInt("LEVELQL_MODEL_STEPS", 20000);
  const int64_t max_failures = EnvInt("LEVELQL_MAX_FAILURES", 5);
  const uint64_t base = BaseSeed("model");
  auto start = std::chrono::steady_clock::now();
  std::string dir = (std::filesystem::temp_directory_path() /
                     ("levelql-model-" + std::to_string(::getpid())))
                        .string();
  int64_t done = 0, failures = 0, rounds = 0;
  for (uint64_t r = 0; done < budget && failures < max_failures;
       ++r, ++rounds) {
    ModelRound round(base + r, dir);
    int64_t steps = 300 + static_cast<int64_t>((base + r) % 1700);
    if (!round.Run(std::min(steps, budget - done), &done)) ++failures;
  }
  std::printf("[model] %lld steps in %lld rounds, %lld failures, %.1f s\n",
              static_cast<long long>(done), static_cast<long long>(rounds),
              static_cast<long long>(failures), SecondsSince(start));
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace levelql::difftest
