#include "bench/engines.h"

#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/write_batch.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <thread>
#include <vector>

#include "bench/bench_util.h"
#include "bench/leveldb_setup.h"

namespace levelql::bench {

const char* const kCreateTable =
    "CREATE TABLE actions (id INTEGER PRIMARY KEY, userid INTEGER NOT NULL, "
    "stamp INTEGER NOT NULL, name TEXT NOT NULL COLLATE nocase, "
    "category TEXT NOT NULL, country TEXT NOT NULL, score REAL)";

const char* const kCreateIndexes[4] = {
    "CREATE INDEX by_user ON actions (userid, stamp DESC)",
    "CREATE INDEX by_category ON actions (category)",
    "CREATE INDEX by_country ON actions (country)",
    "CREATE INDEX by_name ON actions (name COLLATE nocase)",
};

namespace {

void AppendDouble(double d, std::string* out) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "r%.17g", d);
  *out += buf;
}

Value ToValue(const Param& p) {
  if (auto* i = std::get_if<int64_t>(&p)) return Value::Int(*i);
  if (auto* d = std::get_if<double>(&p)) return Value::Real(*d);
  return Value::Text(std::get<std::string>(p));
}

Params ToParams(const ParamList& list) {
  Params p;
  for (const Param& v : list) p.positional.push_back(ToValue(v));
  return p;
}

void Check(const Status& s, const std::string& what) {
  if (!s.ok()) Die("levelql: " + what + ": " + s.ToString());
}

class LevelqlQuery : public Query {
 public:
  LevelqlQuery(std::unique_ptr<Statement> stmt, std::string sql)
      : stmt_(std::move(stmt)), sql_(std::move(sql)) {}

  int64_t Run(const ParamList& params, RowConsumer* rows,
              uint64_t* sink) override {
    auto cursor = stmt_->Query(ToParams(params));
    Check(cursor.status(), sql_);
    int64_t n = 0;
    while ((*cursor)->Next()) {
      const Row& row = (*cursor)->row();
      ++n;
      if (rows) {
        std::string r;
        for (size_t i = 0; i < row.size(); ++i) {
          if (i) r += '\x1f';
          AppendValue(row[i], &r);
        }
        rows->Add(std::move(r));
      } else {
        for (const Value& v : row) {
          if (v.is_int_like()) {
            *sink += static_cast<uint64_t>(v.int_value());
          } else if (v.type() == Type::kText) {
            *sink += v.text().size();
          } else if (v.type() == Type::kReal) {
            *sink += static_cast<uint64_t>(v.real_value());
          }
        }
      }
    }
    Check((*cursor)->status(), sql_);
    return n;
  }

 private:
  std::unique_ptr<Statement> stmt_;
  std::string sql_;
};

void CheckSqlite(sqlite3* db, int rc, const std::string& what) {
  if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
    Die("SQLite: " + what + ": " + sqlite3_errmsg(db));
  }
}

void BindAll(sqlite3* db, sqlite3_stmt* stmt, const ParamList& params) {
  for (size_t i = 0; i < params.size(); ++i) {
    int idx = static_cast<int>(i) + 1;
    int rc;
    if (auto* v = std::get_if<int64_t>(&params[i])) {
      rc = sqlite3_bind_int64(stmt, idx, *v);
    } else if (auto* d = std::get_if<double>(&params[i])) {
      rc = sqlite3_bind_double(stmt, idx, *d);
    } else {
      const std::string& s = std::get<std::string>(params[i]);
      rc = sqlite3_bind_text(stmt, idx, s.data(), static_cast<int>(s.size()),
                             SQLITE_TRANSIENT);
    }
    CheckSqlite(db, rc, "bind");
  }
}

class SqliteQuery : public Query {
 public:
  SqliteQuery(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  ~SqliteQuery() override { sqlite3_finalize(stmt_); }

  int64_t Run(const ParamList& params, RowConsumer* rows,
              uint64_t* sink) override {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
    BindAll(db_, stmt_, params);
    int64_t n = 0;
    int cols = sqlite3_column_count(stmt_);
    int rc;
    while ((rc = sqlite3_step(stmt_)) == SQLITE_ROW) {
      ++n;
      std::string r;
      for (int i = 0; i < cols; ++i) {
        if (rows && i) r += '\x1f';
        switch (sqlite3_column_type(stmt_, i)) {
          case SQLITE_INTEGER: {
            int64_t v = sqlite3_column_int64(stmt_, i);
            if (rows) {
              r += 'i' + std::to_string(v);
            } else {
              *sink += static_cast<uint64_t>(v);
            }
            break;
          }
          case SQLITE_FLOAT: {
            double d = sqlite3_column_double(stmt_, i);
            if (rows) {
              AppendDouble(d, &r);
            } else {
              *sink += static_cast<uint64_t>(d);
            }
            break;
          }
          case SQLITE_NULL:
            if (rows) r += 'n';
            break;
          default: {
            const unsigned char* t = sqlite3_column_text(stmt_, i);
            int len = sqlite3_column_bytes(stmt_, i);
            if (rows) {
              r += 't';
              r.append(reinterpret_cast<const char*>(t), len);
            } else {
              *sink += static_cast<uint64_t>(len);
            }
          }
        }
      }
      if (rows) rows->Add(std::move(r));
    }
    CheckSqlite(db_, rc, sqlite3_sql(stmt_));
    return n;
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_;
};

std::string BigEndian(uint64_t v) {
  std::string s(8, '\0');
  for (int i = 7; i >= 0; --i) {
    s[i] = static_cast<char>(v & 0xff);
    v >>= 8;
  }
  return s;
}

uint64_t ReadBigEndian(const char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

uint64_t OrderedInt(int64_t v) {
  return static_cast<uint64_t>(v) ^ (1ULL << 63);
}

std::string RowKey(int64_t id) {
  return Concat("r", BigEndian(OrderedInt(id)));
}

void PutText(const std::string& s, std::string* out) {
  out->push_back(static_cast<char>(s.size()));
  *out += s;
}

std::string RowValue(const Action& a) {
  std::string v =
      BigEndian(OrderedInt(a.userid)) + BigEndian(OrderedInt(a.stamp));
  uint64_t bits;
  std::memcpy(&bits, &a.score, sizeof bits);
  v += BigEndian(bits);
  PutText(a.name, &v);
  PutText(a.category, &v);
  PutText(a.country, &v);
  return v;
}

// The name stored in a row value (see RowValue).
std::string_view RowName(std::string_view v) {
  size_t len = static_cast<unsigned char>(v.data()[24]);
  return std::string_view(v.data() + 25, len);
}

std::string Lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  }
  return s;
}

// Equality range of an index entry prefix: keys are prefix + 8-byte id.
class IdRange {
 public:
  IdRange(leveldb::DB* db, std::string prefix)
      : it_(db->NewIterator(Reading())), prefix_(std::move(prefix)) {
    it_->Seek(prefix_);
    Settle();
  }
  bool Valid() const { return valid_; }
  uint64_t id() const { return id_; }
  void Next() {
    it_->Next();
    Settle();
  }
  void SeekTo(uint64_t id) {
    it_->Seek(prefix_ + BigEndian(id));
    Settle();
  }

 private:
  void Settle() {
    valid_ =
        it_->Valid() && it_->key().size() == prefix_.size() + 8 &&
        std::memcmp(it_->key().data(), prefix_.data(), prefix_.size()) == 0;
    if (valid_) id_ = ReadBigEndian(it_->key().data() + prefix_.size());
  }
  std::unique_ptr<leveldb::Iterator> it_;
  std::string prefix_;
  bool valid_ = false;
  uint64_t id_ = 0;
};

// Fetches rows by id with Get (bloom filters skip the files without the
// key). Measured at 1M rows: as fast as one iterator's Seek per row, and
// faster than stepping with Next towards ids 40 rows apart.
class RowFetcher {
 public:
  explicit RowFetcher(leveldb::DB* db) : db_(db) {}
  void Emit(uint64_t ordered_id, RowConsumer* rows, uint64_t* sink) {
    leveldb::Status s =
        db_->Get(Reading(), Concat("r", BigEndian(ordered_id)), &value_);
    if (!s.ok()) Die("raw LevelDB: missing row for an index entry");
    std::string_view name = RowName(value_);
    int64_t id = static_cast<int64_t>(ordered_id ^ (1ULL << 63));
    if (rows) {
      rows->Add(Concat(Concat("i", std::to_string(id)), Concat("\x1ft", name)));
    } else {
      *sink += static_cast<uint64_t>(id) + name.size();
    }
  }

 private:
  leveldb::DB* db_;
  std::string value_;
};

// True when LevelDB would schedule a size compaction now. Reads the file
// sizes per level from the "leveldb.sstables" property (lines "--- level
// N ---" and " number:bytes[...]") and applies VersionSet::Finalize's rule
// (LevelDB 1.23): level 0 at 4 files (kL0_CompactionTrigger), level L >= 1
// above 10 MiB * 10^(L-1); the last level (6) is never compacted.
bool CompactionDue(leveldb::DB* db, std::string* levels) {
  std::string text;
  if (!db->GetProperty("leveldb.sstables", &text)) {
    Die("LevelDB: no leveldb.sstables property");
  }
  constexpr int kLevels = 7;
  int files[kLevels] = {0};
  double bytes[kLevels] = {0};
  int level = -1;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("--- level ", 0) == 0) {
      level = std::atoi(line.c_str() + 10);
    } else if (!line.empty() && line[0] == ' ' && level >= 0 &&
               level < kLevels) {
      size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      ++files[level];
      bytes[level] += std::atof(line.c_str() + colon + 1);
    }
  }
  levels->clear();
  for (int l = 0; l < kLevels; ++l) {
    if (l) *levels += ' ';
    *levels += std::to_string(files[l]);
  }
  if (files[0] >= 4) return true;
  double budget = 10.0 * 1048576;
  for (int l = 1; l < kLevels - 1; ++l, budget *= 10) {
    if (bytes[l] > budget) return true;
  }
  return false;
}

}  // namespace

void DrainCompactions(const std::string& path, size_t cache_bytes,
                      double timeout_seconds) {
  LevelDbSetup setup(cache_bytes);
  setup.options.create_if_missing = false;
  leveldb::DB* raw = nullptr;
  leveldb::Status s = leveldb::DB::Open(setup.options, path, &raw);
  if (!s.ok()) Die("LevelDB: draining " + path + ": " + s.ToString());
  std::unique_ptr<leveldb::DB> db(raw);
  const double deadline = Now() + timeout_seconds;
  std::string levels;
  while (CompactionDue(db.get(), &levels)) {
    if (Now() > deadline) {
      Die("LevelDB: compactions of " + path + " still due after " +
          FormatSeconds(timeout_seconds) + " (files per level: " + levels +
          ")");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

void AppendValue(const Value& v, std::string* out) {
  switch (v.type()) {
    case Type::kNull:
      *out += 'n';
      break;
    case Type::kReal:
      AppendDouble(v.real_value(), out);
      break;
    case Type::kText:
    case Type::kBlob:
      *out += 't';
      *out += v.text();
      break;
    case Type::kList:
      *out += 'l';
      *out += v.ToString();
      break;
    default:
      *out += 'i';
      *out += std::to_string(v.int_value());
  }
}

// ---- levelql ----

void LevelqlEngine::Open(size_t cache_bytes) {
  Options options;
  options.block_cache_bytes = cache_bytes;
  auto db = Database::Open(path_, options);
  Check(db.status(), "open " + path_);
  db_ = std::move(*db);
}

void LevelqlEngine::Close() {
  inserts_.clear();
  db_.reset();
}

void LevelqlEngine::Exec(const std::string& sql) {
  Check(db_->Execute(sql), sql);
}

Status LevelqlEngine::TryExec(const std::string& sql) {
  return db_->Execute(sql);
}

std::unique_ptr<Query> LevelqlEngine::Prepare(const std::string& sql) {
  auto stmt = db_->Prepare(sql);
  Check(stmt.status(), sql);
  return std::make_unique<LevelqlQuery>(std::move(*stmt), sql);
}

std::string LevelqlEngine::Explain(const std::string& sql,
                                   const ParamList& params, bool analyze) {
  std::string text = (analyze ? "EXPLAIN ANALYZE " : "EXPLAIN ") + sql;
  auto plan = db_->Explain(text, ToParams(params));
  Check(plan.status(), text);
  return *plan;
}

void LevelqlEngine::InsertBatch(std::span<const Action> rows) {
  auto& stmt = inserts_[rows.size()];
  if (!stmt) {
    std::string sql =
        "INSERT INTO actions (id, userid, stamp, name, category, country, "
        "score) VALUES ";
    for (size_t i = 0; i < rows.size(); ++i) {
      sql += i ? ",(?,?,?,?,?,?,?)" : "(?,?,?,?,?,?,?)";
    }
    auto prepared = db_->Prepare(sql);
    Check(prepared.status(), "prepare INSERT");
    stmt = std::move(*prepared);
  }
  Params p;
  p.positional.reserve(rows.size() * 7);
  for (const Action& a : rows) {
    p.positional.push_back(Value::Int(a.id));
    p.positional.push_back(Value::Int(a.userid));
    p.positional.push_back(Value::Int(a.stamp));
    p.positional.push_back(Value::Text(a.name));
    p.positional.push_back(Value::Text(a.category));
    p.positional.push_back(Value::Text(a.country));
    p.positional.push_back(Value::Real(a.score));
  }
  auto r = stmt->Execute(p);
  Check(r.status(), "INSERT batch");
  if (r->rows_affected != static_cast<int64_t>(rows.size())) {
    Die("levelql: INSERT batch affected " + std::to_string(r->rows_affected) +
        " rows, expected " + std::to_string(rows.size()));
  }
}

// ---- SQLite ----

SqliteEngine::~SqliteEngine() { Close(); }

void SqliteEngine::Close() {
  if (insert_) sqlite3_finalize(insert_);
  insert_ = nullptr;
  if (db_ && sqlite3_close(db_) != SQLITE_OK) {
    Die(std::string("SQLite: close: ") + sqlite3_errmsg(db_));
  }
  db_ = nullptr;
}

void SqliteEngine::Open(size_t cache_bytes) {
  if (sqlite3_open(path_.c_str(), &db_) != SQLITE_OK) {
    Die("SQLite: cannot open " + path_);
  }
  Exec("PRAGMA journal_mode = WAL");
  Exec("PRAGMA synchronous = OFF");
  Exec("PRAGMA cache_size = -" + std::to_string(cache_bytes / 1024));
}

void SqliteEngine::Exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "?";
    sqlite3_free(err);
    Die("SQLite: " + sql + ": " + msg);
  }
}

std::unique_ptr<Query> SqliteEngine::Prepare(const std::string& sql) {
  sqlite3_stmt* stmt = nullptr;
  CheckSqlite(db_, sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr),
              sql);
  return std::make_unique<SqliteQuery>(db_, stmt);
}

std::string SqliteEngine::Explain(const std::string& sql,
                                  const ParamList& params, bool) {
  std::string text = "EXPLAIN QUERY PLAN " + sql;
  sqlite3_stmt* stmt = nullptr;
  CheckSqlite(db_, sqlite3_prepare_v2(db_, text.c_str(), -1, &stmt, nullptr),
              text);
  BindAll(db_, stmt, params);
  std::map<int, int> depth;
  std::string out;
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    int id = sqlite3_column_int(stmt, 0);
    int parent = sqlite3_column_int(stmt, 1);
    int d = depth.count(parent) ? depth[parent] + 1 : 0;
    depth[id] = d;
    out.append(static_cast<size_t>(d) * 2, ' ');
    out += reinterpret_cast<const char*>(sqlite3_column_text(stmt, 3));
    out += '\n';
  }
  sqlite3_finalize(stmt);
  return out;
}

void SqliteEngine::InsertBatch(std::span<const Action> rows) {
  if (!insert_) {
    const char* sql =
        "INSERT INTO actions (id, userid, stamp, name, category, country, "
        "score) VALUES (?,?,?,?,?,?,?)";
    CheckSqlite(db_, sqlite3_prepare_v2(db_, sql, -1, &insert_, nullptr), sql);
  }
  Exec("BEGIN");
  for (const Action& a : rows) {
    sqlite3_reset(insert_);
    sqlite3_bind_int64(insert_, 1, a.id);
    sqlite3_bind_int64(insert_, 2, a.userid);
    sqlite3_bind_int64(insert_, 3, a.stamp);
    sqlite3_bind_text(insert_, 4, a.name.data(),
                      static_cast<int>(a.name.size()), SQLITE_STATIC);
    sqlite3_bind_text(insert_, 5, a.category.data(),
                      static_cast<int>(a.category.size()), SQLITE_STATIC);
    sqlite3_bind_text(insert_, 6, a.country.data(),
                      static_cast<int>(a.country.size()), SQLITE_STATIC);
    sqlite3_bind_double(insert_, 7, a.score);
    CheckSqlite(db_, sqlite3_step(insert_), "INSERT");
  }
  sqlite3_reset(insert_);
  Exec("COMMIT");
}

// ---- raw LevelDB ----

RawStore::RawStore(std::string path) : path_(std::move(path)) {}

RawStore::~RawStore() {
  kept_.reset();
  db_.reset();  // before the cache and filter it uses
}

void RawStore::Open(size_t cache_bytes) {
  LevelDbSetup setup(cache_bytes);
  leveldb::DB* db = nullptr;
  leveldb::Status s = leveldb::DB::Open(setup.options, path_, &db);
  if (!s.ok()) Die("raw LevelDB: " + s.ToString());
  db_.reset(db);
  cache_ = std::move(setup.cache);
  filter_ = std::move(setup.filter);
}

void RawStore::Close() {
  kept_.reset();
  db_.reset();  // before the cache and filter it uses
  cache_.reset();
  filter_.reset();
}

void RawStore::InsertBatch(std::span<const Action> rows) {
  kept_.reset();
  leveldb::WriteBatch b;
  for (const Action& a : rows) {
    std::string id = BigEndian(OrderedInt(a.id));
    b.Put(RowKey(a.id), RowValue(a));
    b.Put(Concat("u", BigEndian(OrderedInt(a.userid))) +
              BigEndian(~OrderedInt(a.stamp)) + id,
          "");
    b.Put(Concat("c", a.category) + std::string(1, '\0') + id, "");
    b.Put(Concat("n", a.country) + std::string(1, '\0') + id, "");
    b.Put(Concat("m", Lower(a.name)) + std::string(1, '\0') + id, "");
  }
  leveldb::Status s = db_->Write(leveldb::WriteOptions(), &b);
  if (!s.ok()) Die("raw LevelDB: " + s.ToString());
}

void RawStore::BuildStampIndex() {
  kept_.reset();
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(Reading()));
  leveldb::WriteBatch b;
  int pending = 0;
  for (it->Seek("r"); it->Valid() && it->key()[0] == 'r'; it->Next()) {
    uint64_t stamp = ReadBigEndian(it->value().data() + 8);
    b.Put(
        Concat(Concat("s", BigEndian(~stamp)), it->key().ToString().substr(1)),
        "");
    if (++pending == 10000) {
      leveldb::Status s = db_->Write(leveldb::WriteOptions(), &b);
      if (!s.ok()) Die("raw LevelDB: " + s.ToString());
      b.Clear();
      pending = 0;
    }
  }
  leveldb::Status s = db_->Write(leveldb::WriteOptions(), &b);
  if (!s.ok()) Die("raw LevelDB: " + s.ToString());
}

int64_t RawStore::And(const std::string& c, const std::string& n, Merge how,
                      RowConsumer* rows, uint64_t* sink) {
  IdRange a(db_.get(), Concat(Concat("c", c), std::string(1, '\0')));
  IdRange b(db_.get(), Concat(Concat("n", n), std::string(1, '\0')));
  RowFetcher fetch(db_.get());
  int64_t count = 0;
  while (a.Valid() && b.Valid()) {
    if (a.id() == b.id()) {
      fetch.Emit(a.id(), rows, sink);
      ++count;
      a.Next();
      b.Next();
    } else if (a.id() < b.id()) {
      how == Merge::kLinear ? a.Next() : a.SeekTo(b.id());
    } else {
      how == Merge::kLinear ? b.Next() : b.SeekTo(a.id());
    }
  }
  return count;
}

namespace {

// Merges the ids of the rows with category = c and of those with
// country = n, each once, in order; calls `each` with every id.
template <typename Each>
int64_t MergeOr(leveldb::DB* db, const std::string& c, const std::string& n,
                Each each) {
  IdRange a(db, Concat(Concat("c", c), std::string(1, '\0')));
  IdRange b(db, Concat(Concat("n", n), std::string(1, '\0')));
  int64_t count = 0;
  while (a.Valid() || b.Valid()) {
    uint64_t id;
    if (!b.Valid() || (a.Valid() && a.id() < b.id())) {
      id = a.id();
      a.Next();
    } else if (!a.Valid() || b.id() < a.id()) {
      id = b.id();
      b.Next();
    } else {
      id = a.id();
      a.Next();
      b.Next();
    }
    each(id);
    ++count;
  }
  return count;
}

}  // namespace

int64_t RawStore::Or(const std::string& c, const std::string& n,
                     RowConsumer* rows, uint64_t* sink) {
  RowFetcher fetch(db_.get());
  return MergeOr(db_.get(), c, n,
                 [&](uint64_t id) { fetch.Emit(id, rows, sink); });
}

int64_t RawStore::CountStamps(int64_t lo, int64_t hi) {
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(Reading()));
  // Newest first: the range starts at hi.
  std::string end =
      Concat(Concat("s", BigEndian(~OrderedInt(lo))), std::string(8, '\xff'));
  leveldb::Slice end_slice(end);
  int64_t count = 0;
  for (it->Seek(Concat("s", BigEndian(~OrderedInt(hi))));
       it->Valid() && it->key().compare(end_slice) <= 0; it->Next()) {
    ++count;
  }
  return count;
}

int64_t RawStore::GetRow(int64_t id, RowConsumer* rows, uint64_t* sink) {
  std::string v;
  leveldb::Status s = db_->Get(Reading(), RowKey(id), &v);
  if (s.IsNotFound()) return 0;
  if (!s.ok()) Die("raw LevelDB: " + s.ToString());
  int64_t userid = static_cast<int64_t>(ReadBigEndian(v.data()) ^ (1ULL << 63));
  int64_t stamp =
      static_cast<int64_t>(ReadBigEndian(v.data() + 8) ^ (1ULL << 63));
  uint64_t bits = ReadBigEndian(v.data() + 16);
  double score;
  std::memcpy(&score, &bits, sizeof score);
  std::string_view text[3];  // name, category, country
  size_t pos = 24;
  for (std::string_view& t : text) {
    size_t len = static_cast<unsigned char>(v[pos]);
    t = std::string_view(v.data() + pos + 1, len);
    pos += 1 + len;
  }
  if (!rows) {
    *sink += static_cast<uint64_t>(id + userid + stamp) + text[0].size() +
             text[1].size() + text[2].size() + static_cast<uint64_t>(score);
    return 1;
  }
  std::string r;
  for (int64_t i : {id, userid, stamp}) {
    r += 'i';
    r += std::to_string(i);
    r += '\x1f';
  }
  for (std::string_view t : text) {
    r += 't';
    r += t;
    r += '\x1f';
  }
  AppendDouble(score, &r);
  rows->Add(std::move(r));
  return 1;
}

leveldb::Iterator* RawStore::Kept() {
  if (!kept_) kept_.reset(db_->NewIterator(Reading()));
  return kept_.get();
}

namespace {

// The stamp of a 'u' entry: "u" + userid + ~stamp + id, 8 bytes each.
int64_t UserEntryStamp(const leveldb::Slice& key) {
  return static_cast<int64_t>(~ReadBigEndian(key.data() + 9) ^ (1ULL << 63));
}

// Reads row `ordered_id` into *value (a missing row is corruption).
void GetRowValue(leveldb::DB* db, const leveldb::Slice& ordered_id,
                 std::string* value) {
  leveldb::Status s =
      db->Get(Reading(), Concat("r", ordered_id.ToString()), value);
  if (!s.ok()) Die("raw LevelDB: missing row for an index entry");
}

}  // namespace

int64_t RawStore::UserPage(int64_t userid, int64_t offset, int64_t limit,
                           bool fetch, RowConsumer* rows, uint64_t* sink) {
  leveldb::Iterator* it = Kept();
  const std::string prefix = Concat("u", BigEndian(OrderedInt(userid)));
  std::string value;
  int64_t n = 0;
  it->Seek(prefix);
  for (int64_t i = 0;
       i < offset + limit && it->Valid() && it->key().starts_with(prefix);
       ++i, it->Next()) {
    if (i < offset) continue;
    ++n;
    if (!fetch) {
      *sink += static_cast<uint64_t>(it->key().size());
      continue;
    }
    GetRowValue(db_.get(), leveldb::Slice(it->key().data() + 17, 8), &value);
    if (rows) {
      rows->Add(Concat("t", RowName(value)));
    } else {
      *sink += RowName(value).size();
    }
  }
  return n;
}

int64_t RawStore::StampPage(int64_t offset, int64_t limit, RowConsumer* rows,
                            uint64_t* sink) {
  leveldb::Iterator* it = Kept();
  std::string value;
  int64_t n = 0;
  it->Seek("s");
  for (int64_t i = 0;
       i < offset + limit && it->Valid() && it->key().starts_with("s");
       ++i, it->Next()) {
    if (i < offset) continue;
    ++n;
    GetRowValue(db_.get(), leveldb::Slice(it->key().data() + 9, 8), &value);
    const int64_t id = static_cast<int64_t>(
        ReadBigEndian(it->key().data() + 9) ^ (1ULL << 63));
    const int64_t stamp =
        static_cast<int64_t>(ReadBigEndian(value.data() + 8) ^ (1ULL << 63));
    if (rows) {
      rows->Add(Concat(Concat("i", std::to_string(id)),
                       Concat(Concat("\x1ft", RowName(value)),
                              Concat("\x1fi", std::to_string(stamp)))));
    } else {
      *sink += static_cast<uint64_t>(id + stamp) + RowName(value).size();
    }
  }
  return n;
}

int64_t RawStore::CountOr(const std::string& c, const std::string& n) {
  return MergeOr(db_.get(), c, n, [](uint64_t) {});
}

void RawStore::CountCategories(RowConsumer* rows, uint64_t* sink) {
  leveldb::Iterator* it = Kept();
  std::string category;  // of the run being counted
  int64_t count = 0;
  auto emit = [&] {
    if (count == 0) return;
    if (rows) {
      rows->Add(Concat(Concat("t", category),
                       Concat("\x1fi", std::to_string(count))));
    } else {
      *sink += category.size() + static_cast<uint64_t>(count);
    }
  };
  // Entries are "c" + category + NUL + 8-byte id.
  for (it->Seek("c"); it->Valid() && it->key().starts_with("c"); it->Next()) {
    const leveldb::Slice key = it->key();
    const std::string_view text(key.data() + 1, key.size() - 10);
    if (count > 0 && text == category) {
      ++count;
      continue;
    }
    emit();
    category.assign(text);
    count = 1;
  }
  emit();
}

bool RawStore::HasUsers() {
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(Reading()));
  it->Seek("p");
  return it->Valid() && it->key().starts_with("p");
}

void RawStore::AddUsers() {
  kept_.reset();
  std::unique_ptr<leveldb::Iterator> it(db_->NewIterator(Reading()));
  leveldb::WriteBatch b;
  // Every distinct userid of the 'u' entries, one seek past each.
  for (it->Seek("u"); it->Valid() && it->key().starts_with("u");) {
    const uint64_t ordered = ReadBigEndian(it->key().data() + 1);
    const int64_t userid = static_cast<int64_t>(ordered ^ (1ULL << 63));
    b.Put(Concat("p", BigEndian(ordered)), "user " + std::to_string(userid));
    it->Seek(Concat("u", BigEndian(ordered + 1)));
  }
  leveldb::Status s = db_->Write(leveldb::WriteOptions(), &b);
  if (!s.ok()) Die("raw LevelDB: " + s.ToString());
}

int64_t RawStore::UserJoinPage(int64_t userid, int64_t limit, RowConsumer* rows,
                               uint64_t* sink) {
  const std::string ordered = BigEndian(OrderedInt(userid));
  std::string name;
  leveldb::Status s = db_->Get(Reading(), Concat("p", ordered), &name);
  if (s.IsNotFound()) return 0;
  if (!s.ok()) Die("raw LevelDB: " + s.ToString());
  leveldb::Iterator* it = Kept();
  const std::string prefix = Concat("u", ordered);
  int64_t n = 0;
  for (it->Seek(prefix);
       n < limit && it->Valid() && it->key().starts_with(prefix);
       ++n, it->Next()) {
    const int64_t stamp = UserEntryStamp(it->key());
    if (rows) {
      rows->Add(
          Concat(Concat("t", name), Concat("\x1fi", std::to_string(stamp))));
    } else {
      *sink += name.size() + static_cast<uint64_t>(stamp);
    }
  }
  return n;
}

void RawStore::CountUsersLike(const std::string& prefix, RowConsumer* rows,
                              uint64_t* sink) {
  const std::string lower = Lower(prefix);
  std::vector<std::string> matched;  // the users' ordered ids
  leveldb::Iterator* it = Kept();
  for (it->Seek("p"); it->Valid() && it->key().starts_with("p"); it->Next()) {
    const leveldb::Slice name = it->value();
    bool match = name.size() >= lower.size();
    for (size_t i = 0; match && i < lower.size(); ++i) {
      char c = name[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
      match = c == lower[i];
    }
    if (match) matched.emplace_back(it->key().data() + 1, 8);
  }
  int64_t count = 0;
  int64_t max = 0;
  for (const std::string& user : matched) {
    const std::string key_prefix = Concat("u", user);
    for (it->Seek(key_prefix); it->Valid() && it->key().starts_with(key_prefix);
         it->Next()) {
      const int64_t stamp = UserEntryStamp(it->key());
      max = count == 0 ? stamp : std::max(max, stamp);
      ++count;
    }
  }
  if (rows) {
    rows->Add(Concat(
        Concat("i", std::to_string(count)),
        count ? Concat("\x1fi", std::to_string(max)) : std::string("\x1fn")));
  } else {
    *sink += static_cast<uint64_t>(count + max);
  }
}

}  // namespace levelql::bench
