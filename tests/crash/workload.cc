#include "tests/crash/workload.h"

#include <algorithm>
#include <random>

namespace levelql::reliability {
namespace {

const char* const kSetupSql[kSetupOps] = {
    "CREATE TABLE t1 (id INTEGER PRIMARY KEY, op INTEGER NOT NULL, "
    "a INTEGER, b TEXT, c REAL, u INTEGER, tags TEXT[])",
    "CREATE INDEX t1_a ON t1 (a)",
    "CREATE INDEX t1_b_a ON t1 (b, a DESC)",
    "CREATE INDEX t1_op ON t1 (op) INCLUDE (a)",
    "CREATE INDEX t1_tags ON t1 (tags)",
    "CREATE UNIQUE INDEX t1_u ON t1 (u)",
    "CREATE TABLE t2 (g INTEGER, s TEXT, k INTEGER, op INTEGER NOT NULL, "
    "v INTEGER, w TEXT, PRIMARY KEY (g, s DESC, k))",
    "CREATE INDEX t2_v ON t2 (v)",
    "CREATE INDEX t2_w_v ON t2 (w COLLATE nocase, v DESC)",
    "CREATE INDEX t2_op ON t2 (op)",
    "CREATE INDEX t2_s ON t2 (s COLLATE search)",
    "CREATE INDEX t1_c ON t1 (c DESC)",
};

struct Optional {
  const char* name;
  const char* create;
};
const Optional kOptional[] = {
    {"x1", "CREATE INDEX IF NOT EXISTS x1 ON t1 (c, b)"},
    {"x2", "CREATE INDEX IF NOT EXISTS x2 ON t1 (a, c DESC) INCLUDE (b)"},
    {"x3", "CREATE INDEX IF NOT EXISTS x3 ON t2 (v DESC, w)"},
    {"x4", "CREATE UNIQUE INDEX IF NOT EXISTS x4 ON t1 (u, a)"},
    {"x5", "CREATE UNIQUE INDEX IF NOT EXISTS x5 ON t1 (b, c)"},
    {"x6", "CREATE INDEX IF NOT EXISTS x6 ON t1 (tags, a)"},
};

const char* const kB[] = {"alpha",      "beta", "Straße", "STRASSE",
                          "中国好声音", "",     "o'neil", "a\tb"};
const char* const kS[] = {"a", "b", "B", "ab", "abé", "zz", "", "Ö"};
const char* const kW[] = {"x", "X", "straße", "STRASSE", "y", "é"};
const char* const kTagNames[] = {"A", "B", "C", "中"};

using Rng = std::mt19937_64;

int64_t Uniform(Rng& rng, int64_t lo, int64_t hi) {  // inclusive
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}
bool Chance(Rng& rng, int percent) { return Uniform(rng, 0, 99) < percent; }

template <size_t N>
std::string Pick(Rng& rng, const char* const (&arr)[N]) {
  return arr[Uniform(rng, 0, N - 1)];
}

Value RandA(Rng& rng) {
  return Chance(rng, 10) ? Value() : Value::Int(Uniform(rng, 0, 99));
}
Value RandB(Rng& rng) {
  return Chance(rng, 10) ? Value() : Value::Text(Pick(rng, kB));
}
Value RandC(Rng& rng) {
  if (Chance(rng, 10)) return Value();
  return Value::Real(static_cast<double>(Uniform(rng, -40, 40)) * 0.25 + 0.0);
}
Value RandU(Rng& rng) {
  return Chance(rng, 60) ? Value() : Value::Int(Uniform(rng, 0, 2999));
}
Value RandTags(Rng& rng) {
  switch (Uniform(rng, 0, 6)) {
    case 0:
      return Value();
    case 1:
      return Value::List({});
    case 2:
      return Value::List({Value::Text("A"), Value::Text("A")});
    default: {
      std::vector<Value> v;
      int n = static_cast<int>(Uniform(rng, 1, 3));
      for (int i = 0; i < n; ++i)
        v.push_back(Value::Text(Pick(rng, kTagNames)));
      return Value::List(std::move(v));
    }
  }
}
Value RandV(Rng& rng) {
  return Chance(rng, 10) ? Value() : Value::Int(Uniform(rng, 0, 50));
}

std::string RowsSql(const std::vector<Row>& rows) {
  std::string out;
  for (size_t i = 0; i < rows.size(); ++i) {
    out += i ? ", (" : "(";
    for (size_t j = 0; j < rows[i].size(); ++j) {
      if (j) out += ", ";
      out += rows[i][j].ToSqlLiteral();
    }
    out += ")";
  }
  return out;
}

std::string Lit(const std::string& s) { return Value::Text(s).ToSqlLiteral(); }

std::string Pred1Sql(const Op& op) {
  switch (op.pred) {
    case 0:
      return "id BETWEEN " + std::to_string(op.x) + " AND " +
             std::to_string(op.y);
    case 1:
      return "a BETWEEN " + std::to_string(op.x) + " AND " +
             std::to_string(op.y);
    case 2:
      return "b = " + Lit(op.s);
    case 3:
      return "tags = " + Lit(op.s);
    case 4: {
      std::string out = "id IN (";
      for (size_t i = 0; i < op.list.size(); ++i) {
        if (i) out += ", ";
        out += std::to_string(op.list[i]);
      }
      return out + ")";
    }
    default:
      return "u IS NULL AND id BETWEEN " + std::to_string(op.x) + " AND " +
             std::to_string(op.y);
  }
}

bool Pred1(const Op& op, const Row& r) {
  const int64_t id = r[0].int_value();
  switch (op.pred) {
    case 0:
      return id >= op.x && id <= op.y;
    case 1:
      return !r[2].is_null() && r[2].int_value() >= op.x &&
             r[2].int_value() <= op.y;
    case 2:
      return !r[3].is_null() && r[3].text() == op.s;
    case 3:
      if (r[6].is_null()) return false;
      for (const Value& e : r[6].list()) {
        if (e.text() == op.s) return true;
      }
      return false;
    case 4:
      return std::find(op.list.begin(), op.list.end(), id) != op.list.end();
    default:
      return r[5].is_null() && id >= op.x && id <= op.y;
  }
}

std::string Pred2Sql(const Op& op) {
  switch (op.pred) {
    case 0:
      return "g = " + std::to_string(op.x);
    case 1:
      return "g = " + std::to_string(op.x) + " AND s = " + Lit(op.s);
    case 2:
      return "v BETWEEN " + std::to_string(op.x) + " AND " +
             std::to_string(op.y);
    default:
      return "g = " + std::to_string(op.x) + " AND k BETWEEN " +
             std::to_string(op.y) + " AND " + std::to_string(op.z);
  }
}

bool Pred2(const Op& op, const Row& r) {
  const int64_t g = r[0].int_value();
  switch (op.pred) {
    case 0:
      return g == op.x;
    case 1:
      return g == op.x && r[1].text() == op.s;
    case 2:
      return !r[4].is_null() && r[4].int_value() >= op.x &&
             r[4].int_value() <= op.y;
    default:
      return g == op.x && r[2].int_value() >= op.y && r[2].int_value() <= op.z;
  }
}

std::string T2Key(const Row& r) {
  return r[0].ToSqlLiteral() + "|" + r[1].ToSqlLiteral() + "|" +
         r[2].ToSqlLiteral();
}

std::string RowText(const char* table, const Row& r) {
  std::string out = table;
  for (const Value& v : r) out += "|" + v.ToSqlLiteral();
  return out;
}

// One statement of operation `index` (its rows carry `index` in `op`):
// DDL only when `allow_ddl` (not inside a transaction).
void FillStatement(Rng& rng, int64_t index, bool allow_ddl, Op* out) {
  Op& op = *out;
  op.index = index;
  const std::string id_op = std::to_string(index);
  int64_t roll = Uniform(rng, 0, allow_ddl ? 99 : 89);
  if (roll < 22) {
    op.kind = Op::Kind::kInsert1;
    int64_t n = Uniform(rng, 1, 6), base = Uniform(rng, 0, 1499);
    if (Chance(rng, 3)) {
      n = Uniform(rng, 50, 200);
      base = Uniform(rng, 2000, 2400);
    }
    bool dup_inside = Chance(rng, 3);
    for (int64_t j = 0; j < n; ++j) {
      int64_t id = base + j;
      if (dup_inside && j == n - 1) id = base;
      op.rows.push_back({Value::Int(id), Value::Int(index), RandA(rng),
                         RandB(rng), RandC(rng), RandU(rng), RandTags(rng)});
    }
    op.sql =
        "INSERT INTO t1 (id, op, a, b, c, u, tags) VALUES " + RowsSql(op.rows);
  } else if (roll < 40) {
    op.kind = Op::Kind::kUpdate1;
    op.pred = static_cast<int>(Uniform(rng, 0, 5));
    op.x = Uniform(rng, 0, 2600);
    op.y = op.x + Uniform(rng, 0, 60);
    if (op.pred == 1) {
      op.x = Uniform(rng, 0, 99);
      op.y = op.x + Uniform(rng, 0, 5);
    }
    op.s = op.pred == 3 ? Pick(rng, kTagNames) : Pick(rng, kB);
    for (int64_t n = Uniform(rng, 1, 20); n > 0; --n)
      op.list.push_back(Uniform(rng, 0, 2600));
    op.assign = static_cast<int>(Uniform(rng, 0, 4));
    std::string set = "op = " + id_op + ", ";
    switch (op.assign) {
      case 0:
        set += "a = a + 1";
        break;
      case 1:
        op.v1 = RandA(rng);
        op.v2 = RandB(rng);
        set += "a = " + op.v1.ToSqlLiteral() + ", b = " + op.v2.ToSqlLiteral();
        break;
      case 2:
        op.v1 = RandC(rng);
        set += "c = " + op.v1.ToSqlLiteral();
        break;
      case 3:
        op.v1 = RandU(rng);
        set += "u = " + op.v1.ToSqlLiteral();
        break;
      default:
        op.v1 = RandTags(rng);
        set += "tags = " + op.v1.ToSqlLiteral();
        break;
    }
    op.sql = "UPDATE t1 SET " + set + " WHERE " + Pred1Sql(op);
  } else if (roll < 52) {
    op.kind = Op::Kind::kDelete1;
    const int preds[] = {0, 0, 1, 2, 4};
    op.pred = preds[Uniform(rng, 0, 4)];
    op.x = Uniform(rng, 0, 2600);
    op.y = op.x + Uniform(rng, 0, 80);
    if (op.pred == 1) {
      op.x = Uniform(rng, 0, 99);
      op.y = op.x + Uniform(rng, 0, 2);
    }
    op.s = Pick(rng, kB);
    for (int64_t n = Uniform(rng, 1, 20); n > 0; --n)
      op.list.push_back(Uniform(rng, 0, 2600));
    op.sql = "DELETE FROM t1 WHERE " + Pred1Sql(op);
  } else if (roll < 70) {
    op.kind = Op::Kind::kInsert2;
    for (int64_t n = Uniform(rng, 1, 5); n > 0; --n) {
      Value w = Chance(rng, 10) ? Value() : Value::Text(Pick(rng, kW));
      op.rows.push_back(
          {Value::Int(Uniform(rng, 0, 7)), Value::Text(Pick(rng, kS)),
           Value::Int(Uniform(rng, 0, 39)), Value::Int(index), RandV(rng), w});
    }
    op.sql = "INSERT INTO t2 (g, s, k, op, v, w) VALUES " + RowsSql(op.rows);
  } else if (roll < 82) {
    op.kind = Op::Kind::kUpdate2;
    op.pred = static_cast<int>(Uniform(rng, 0, 3));
    op.x = op.pred == 2 ? Uniform(rng, 0, 50) : Uniform(rng, 0, 7);
    op.y = op.pred == 2 ? op.x + Uniform(rng, 0, 3) : Uniform(rng, 0, 39);
    op.z = op.y + Uniform(rng, 0, 10);
    op.s = Pick(rng, kS);
    op.assign = static_cast<int>(Uniform(rng, 0, 1));
    std::string set = "op = " + id_op + ", ";
    if (op.assign == 0) {
      set += "v = v + 1";
    } else {
      op.v1 = RandV(rng);
      op.v2 = Chance(rng, 10) ? Value() : Value::Text(Pick(rng, kW));
      set += "v = " + op.v1.ToSqlLiteral() + ", w = " + op.v2.ToSqlLiteral();
    }
    op.sql = "UPDATE t2 SET " + set + " WHERE " + Pred2Sql(op);
  } else if (roll < 90) {
    op.kind = Op::Kind::kDelete2;
    op.pred = static_cast<int>(Uniform(rng, 0, 3));
    op.x = op.pred == 2 ? Uniform(rng, 0, 50) : Uniform(rng, 0, 7);
    op.y = op.pred == 2 ? op.x + Uniform(rng, 0, 2) : Uniform(rng, 0, 39);
    op.z = op.y + Uniform(rng, 0, 5);
    op.s = Pick(rng, kS);
    op.sql = "DELETE FROM t2 WHERE " + Pred2Sql(op);
  } else {
    const Optional& opt = kOptional[Uniform(rng, 0, 5)];
    op.name = opt.name;
    if (Chance(rng, 50)) {
      op.kind = Op::Kind::kCreateIndex;
      op.sql = opt.create;
    } else {
      op.kind = Op::Kind::kDropIndex;
      op.sql = std::string("DROP INDEX IF EXISTS ") + opt.name;
    }
  }
}

// A large transaction: rows of t1 in a window of 1,000 ids above the other
// operations' (so t1 stays bounded), cleared first, then filled by
// several INSERTs of 100-250 rows (overlapping ones fail on the primary
// key and change nothing) and one UPDATE of the window. c and u are NULL,
// so the UNIQUE indexes over them never refuse a row.
void FillLargeTxn(Rng& rng, int64_t index, Op* op) {
  const int64_t base = Uniform(rng, 3000, 7000);
  Op clear;
  clear.index = index;
  clear.kind = Op::Kind::kDelete1;
  clear.pred = 0;
  clear.x = base;
  clear.y = base + 999;
  clear.sql = "DELETE FROM t1 WHERE " + Pred1Sql(clear);
  op->subs.push_back(clear);
  for (int64_t n = Uniform(rng, 4, 12); n > 0; --n) {
    Op ins;
    ins.index = index;
    ins.kind = Op::Kind::kInsert1;
    const int64_t start = base + Uniform(rng, 0, 800);
    const int64_t len = Uniform(rng, 100, 250);
    for (int64_t id = start; id < start + len && id <= base + 999; ++id) {
      ins.rows.push_back({Value::Int(id), Value::Int(index), RandA(rng),
                          RandB(rng), Value(), Value(), RandTags(rng)});
    }
    ins.sql =
        "INSERT INTO t1 (id, op, a, b, c, u, tags) VALUES " + RowsSql(ins.rows);
    op->subs.push_back(std::move(ins));
  }
  Op up;
  up.index = index;
  up.kind = Op::Kind::kUpdate1;
  up.pred = 0;
  up.x = base;
  up.y = base + 999;
  up.assign = 0;
  up.sql = "UPDATE t1 SET op = " + std::to_string(index) +
           ", a = a + 1 WHERE " + Pred1Sql(up);
  op->subs.push_back(std::move(up));
}

}  // namespace

Op MakeOp(uint64_t seed, int64_t index, bool large_txns) {
  Op op;
  op.index = index;
  Rng rng(seed * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(index) * 7919 +
          1);
  op.sync = Chance(rng, 10);
  if (index < kSetupOps) {
    op.kind = Op::Kind::kSetup;
    op.sql = kSetupSql[index];
    return op;
  }
  if (!Chance(rng, large_txns ? 60 : 6)) {
    FillStatement(rng, index, /*allow_ddl=*/true, &op);
    return op;
  }
  op.kind = Op::Kind::kTxn;
  op.rollback = Chance(rng, 25);
  op.via_sql = Chance(rng, 50);
  op.immediate = Chance(rng, 50);
  if (large_txns) {
    FillLargeTxn(rng, index, &op);
  } else {
    for (int64_t n = Uniform(rng, 2, 6); n > 0; --n) {
      Op sub;
      FillStatement(rng, index, /*allow_ddl=*/false, &sub);
      op.subs.push_back(std::move(sub));
    }
  }
  op.sql = op.immediate ? "BEGIN IMMEDIATE" : "BEGIN";
  for (const Op& sub : op.subs) op.sql += "; " + sub.sql.substr(0, 60);
  op.sql += op.rollback ? "; ROLLBACK" : "; COMMIT";
  return op;
}

bool Model::UniqueOk(const std::map<int64_t, Row>& t1) const {
  struct Unique {
    const char* name;
    std::vector<int> columns;
  };
  const Unique uniques[] = {{"t1_u", {5}}, {"x4", {5, 2}}, {"x5", {3, 4}}};
  for (const Unique& u : uniques) {
    if (!indexes_.count(u.name)) continue;
    std::set<std::string> seen;
    for (const auto& [id, row] : t1) {
      std::string key;
      bool has_null = false;
      for (int c : u.columns) {
        has_null |= row[c].is_null();
        key += row[c].ToSqlLiteral() + "|";
      }
      if (has_null) continue;
      if (!seen.insert(key).second) return false;
    }
  }
  return true;
}

bool Model::Apply(const Op& op) { return ApplyOutcome(op) != "constraint"; }

std::string Model::ApplyOutcome(const Op& op) {
  ++applied_;
  if (op.kind != Op::Kind::kTxn) return Change(op) ? "ok" : "constraint";
  // Each statement alone: a failing one changes nothing, the rest stay.
  auto t1 = t1_;
  auto t2 = t2_;
  std::string outcome = "txn:";
  for (const Op& sub : op.subs) outcome += Change(sub) ? 'o' : 'c';
  if (op.rollback) {
    t1_ = std::move(t1);
    t2_ = std::move(t2);
  }
  return outcome + (op.rollback ? ":rollback" : ":commit");
}

bool Model::Change(const Op& op) {
  switch (op.kind) {
    case Op::Kind::kTxn:
      return false;  // not a statement (ApplyOutcome)
    case Op::Kind::kSetup: {
      // "CREATE TABLE t1 (" / "CREATE [UNIQUE] INDEX name ON".
      std::string sql = op.sql;
      if (sql.rfind("CREATE TABLE ", 0) == 0) {
        tables_.insert(sql.substr(13, 2));
      } else {
        size_t at = sql.find("INDEX ") + 6;
        indexes_.insert(sql.substr(at, sql.find(' ', at) - at));
      }
      return true;
    }
    case Op::Kind::kInsert1: {
      auto next = t1_;
      for (const Row& r : op.rows) {
        if (!next.emplace(r[0].int_value(), r).second) return false;
      }
      if (!UniqueOk(next)) return false;
      t1_ = std::move(next);
      return true;
    }
    case Op::Kind::kUpdate1: {
      auto next = t1_;
      for (auto& [id, r] : next) {
        if (!Pred1(op, r)) continue;
        r[1] = Value::Int(op.index);
        switch (op.assign) {
          case 0:
            if (!r[2].is_null()) r[2] = Value::Int(r[2].int_value() + 1);
            break;
          case 1:
            r[2] = op.v1;
            r[3] = op.v2;
            break;
          case 2:
            r[4] = op.v1;
            break;
          case 3:
            r[5] = op.v1;
            break;
          default:
            r[6] = op.v1;
            break;
        }
      }
      if (!UniqueOk(next)) return false;
      t1_ = std::move(next);
      return true;
    }
    case Op::Kind::kDelete1:
      std::erase_if(t1_, [&](const auto& kv) { return Pred1(op, kv.second); });
      return true;
    case Op::Kind::kInsert2: {
      auto next = t2_;
      for (const Row& r : op.rows) {
        if (!next.emplace(T2Key(r), r).second) return false;
      }
      t2_ = std::move(next);
      return true;
    }
    case Op::Kind::kUpdate2:
      for (auto& [key, r] : t2_) {
        if (!Pred2(op, r)) continue;
        r[3] = Value::Int(op.index);
        if (op.assign == 0) {
          if (!r[4].is_null()) r[4] = Value::Int(r[4].int_value() + 1);
        } else {
          r[4] = op.v1;
          r[5] = op.v2;
        }
      }
      return true;
    case Op::Kind::kDelete2:
      std::erase_if(t2_, [&](const auto& kv) { return Pred2(op, kv.second); });
      return true;
    case Op::Kind::kCreateIndex: {
      if (indexes_.count(op.name)) return true;
      indexes_.insert(op.name);
      if (!UniqueOk(t1_)) {
        indexes_.erase(op.name);
        return false;
      }
      return true;
    }
    case Op::Kind::kDropIndex:
      indexes_.erase(op.name);
      return true;
  }
  return true;
}

std::string Model::Dump() const {
  std::vector<std::string> lines;
  for (const std::string& t : tables_) lines.push_back("table " + t);
  for (const std::string& i : indexes_) lines.push_back("index " + i);
  for (const auto& [id, r] : t1_) lines.push_back(RowText("t1", r));
  for (const auto& [key, r] : t2_) lines.push_back(RowText("t2", r));
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

std::string DumpDatabase(Database& db, std::string* error) {
  std::vector<std::string> lines;
  std::set<std::string> tables;
  for (const SchemaEntry& e : db.Schema()) {
    lines.push_back(e.kind + " " + e.name);
    if (e.kind == "table") tables.insert(e.name);
  }
  const std::pair<const char*, const char*> queries[] = {
      {"t1", "SELECT id, op, a, b, c, u, tags FROM t1"},
      {"t2", "SELECT g, s, k, op, v, w FROM t2"},
  };
  for (const auto& [table, sql] : queries) {
    if (!tables.count(table)) continue;
    auto cur = db.Query(sql);
    if (!cur.ok()) {
      *error = cur.status().ToString();
      return {};
    }
    while ((*cur)->Next()) lines.push_back(RowText(table, (*cur)->row()));
    if (!(*cur)->status().ok()) {
      *error = (*cur)->status().ToString();
      return {};
    }
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

namespace {

// "ok", "constraint" or "error: <status>" for one statement.
std::string Classify(const Result<ExecResult>& r) {
  if (r.ok()) return "ok";
  if (r.status().code() == Status::Code::kConstraintError) return "constraint";
  return "error: " + r.status().ToString();
}

std::string RunTxn(Database& db, const Op& op,
                   const std::function<void()>& before_commit) {
  std::unique_ptr<Transaction> txn;
  auto run = [&](const std::string& sql) {
    return txn ? txn->Execute(sql, Params()) : db.Execute(sql, Params());
  };
  if (op.via_sql) {
    std::string begin =
        Classify(run(op.immediate ? "BEGIN IMMEDIATE" : "BEGIN"));
    if (begin != "ok") return begin;
  } else {
    auto t = db.Begin(op.immediate ? TransactionMode::kImmediate
                                   : TransactionMode::kDeferred);
    if (!t.ok()) return "error: " + t.status().ToString();
    txn = std::move(t).value();
  }
  std::string outcome = "txn:";
  for (const Op& sub : op.subs) {
    std::string one = Classify(run(sub.sql));
    if (one.rfind("error", 0) == 0) return one;  // left open: a failure
    outcome += one == "ok" ? 'o' : 'c';
  }
  if (op.rollback) {
    std::string end = txn ? (txn->Rollback().ok() ? "ok" : "error: rollback")
                          : Classify(run("ROLLBACK"));
    if (end != "ok") return end;
    return outcome + ":rollback";
  }
  if (before_commit) before_commit();
  if (txn) {
    Status s = txn->Commit();
    if (!s.ok()) return "error: " + s.ToString();
  } else if (std::string end = Classify(run("COMMIT")); end != "ok") {
    return end;
  }
  return outcome + ":commit";
}

}  // namespace

std::string RunOp(Database& db, const Op& op,
                  const std::function<void()>& before_commit) {
  if (op.kind == Op::Kind::kTxn) return RunTxn(db, op, before_commit);
  return Classify(db.Execute(op.sql, Params()));
}

bool IsExpectedOutcome(const std::string& outcome) {
  return outcome == "ok" || outcome == "constraint" ||
         outcome.rfind("txn:", 0) == 0;
}

}  // namespace levelql::reliability
