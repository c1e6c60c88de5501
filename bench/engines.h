// The three stores levelql-bench compares, behind one small interface:
//
// - LevelqlEngine: levelql through its public API (include/levelql).
// - SqliteEngine: SQLite as an app developer would set it up: a file
//   database in WAL mode, synchronous=OFF, a page cache (cache_size) as
//   large as levelql's block cache (--cache-mb, 8 MiB by default), prepared
//   statements, one transaction per batch of inserts, ANALYZE after
//   loading.
// - RawStore: the same rows as LevelDB keys laid out by hand (a row per id
//   plus one key per index entry), with the same LevelDB options levelql
//   uses. It answers the W3/W4/W7/W9 work directly: the floor under any
//   engine.
//
// Each store opens and closes on demand: W1 times every load through its
// close, and DrainCompactions (below) charges LevelDB's deferred work.
//
// Every failure is fatal (Die): a benchmark that silently measures an error
// is worse than none. Not thread-safe; one thread drives everything.
#ifndef LEVELQL_BENCH_ENGINES_H_
#define LEVELQL_BENCH_ENGINES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "bench/dataset.h"
#include "levelql/database.h"

struct sqlite3;
struct sqlite3_stmt;
namespace leveldb {
class DB;
class Cache;
class FilterPolicy;
class Iterator;
}  // namespace leveldb

namespace levelql::bench {

using Param = std::variant<int64_t, double, std::string>;
using ParamList = std::vector<Param>;

// Result rows in a rendering every store shares: each value tagged by type
// ("i42", "r2.5", "tabc", "n" for NULL), values joined by '\x1f'.
using ResultRows = std::vector<std::string>;

// Receives rendered result rows, one at a time.
class RowConsumer {
 public:
  virtual ~RowConsumer() = default;
  virtual void Add(std::string row) = 0;
};

// Keeps every row.
class RowCollector : public RowConsumer {
 public:
  void Add(std::string row) override { rows.push_back(std::move(row)); }
  ResultRows rows;
};

// A prepared query, run many times with different parameters.
class Query {
 public:
  virtual ~Query() = default;
  // Runs the query to the end and returns the number of rows. With `rows`,
  // hands it each row's rendering; otherwise only folds every value into
  // *sink, so timed runs read each value without formatting it.
  virtual int64_t Run(const ParamList& params, RowConsumer* rows,
                      uint64_t* sink) = 0;
};

class SqlEngine {
 public:
  virtual ~SqlEngine() = default;
  virtual const char* name() const = 0;
  virtual void Exec(const std::string& sql) = 0;
  virtual std::unique_ptr<Query> Prepare(const std::string& sql) = 0;
  // The plan, one node per line (levelql EXPLAIN; SQLite EXPLAIN QUERY
  // PLAN). With `analyze`, levelql's EXPLAIN ANALYZE (SQLite ignores it).
  virtual std::string Explain(const std::string& sql, const ParamList& params,
                              bool analyze) = 0;
  // Inserts `rows` as one atomic unit: one multi-row INSERT statement in
  // levelql, one transaction of single-row INSERTs in SQLite.
  virtual void InsertBatch(std::span<const Action> rows) = 0;
};

// The schema and indexes shared by both SQL engines.
extern const char* const kCreateTable;
extern const char* const kCreateIndexes[4];

class LevelqlEngine : public SqlEngine {
 public:
  explicit LevelqlEngine(std::string path) : path_(std::move(path)) {}
  // cache_bytes: LevelDB's block cache (levelql's default is 8 MiB).
  void Open(size_t cache_bytes);
  // Closes the database: LevelDB waits for the compaction under way (not
  // for the ones still due) and releases its lock, so a child process or
  // DrainCompactions can open the directory.
  void Close();
  const std::string& path() const { return path_; }
  const char* name() const override { return "levelql"; }
  void Exec(const std::string& sql) override;
  // Exec that hands back the error instead of dying (for statements the
  // engine may not support yet, such as ANALYZE).
  Status TryExec(const std::string& sql);
  std::unique_ptr<Query> Prepare(const std::string& sql) override;
  std::string Explain(const std::string& sql, const ParamList& params,
                      bool analyze) override;
  void InsertBatch(std::span<const Action> rows) override;
  Database* db() { return db_.get(); }

 private:
  std::string path_;
  std::map<size_t, std::unique_ptr<Statement>> inserts_;  // by batch size
  std::unique_ptr<Database> db_;  // after inserts_: outlives statements
};

class SqliteEngine : public SqlEngine {
 public:
  explicit SqliteEngine(std::string path) : path_(std::move(path)) {}
  ~SqliteEngine() override;
  // cache_bytes: the page cache (PRAGMA cache_size = -KiB).
  void Open(size_t cache_bytes);
  // Closes the connection; the last connection checkpoints the WAL into
  // the database file. REQUIRES: every Query from Prepare is destroyed.
  void Close();
  const char* name() const override { return "SQLite"; }
  void Exec(const std::string& sql) override;
  std::unique_ptr<Query> Prepare(const std::string& sql) override;
  std::string Explain(const std::string& sql, const ParamList& params,
                      bool analyze) override;
  void InsertBatch(std::span<const Action> rows) override;

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* insert_ = nullptr;
};

// Hand-laid LevelDB keys (big-endian ids; index entries end with the id so
// that an equality range is sorted by id, as in levelql):
//   'r' id                      -> userid, stamp, score, name, category,
//                                  country (fixed ints, length-prefixed text)
//   'u' userid ~stamp id        'c' category 0x00 id    'n' country 0x00 id
//   'm' lower(name) 0x00 id     's' ~stamp id  (index entries: empty values)
class RawStore {
 public:
  explicit RawStore(std::string path);
  ~RawStore();
  void Open(size_t cache_bytes);
  void Close();  // as LevelqlEngine::Close
  const std::string& path() const { return path_; }
  void InsertBatch(std::span<const Action> rows);
  // Writes the 's' entries for every row (the counterpart of CREATE INDEX
  // by_stamp), in batches of 10,000.
  void BuildStampIndex();

  enum class Merge { kLinear, kLeapfrog };
  // id, name of the rows with category = c AND country = n.
  int64_t And(const std::string& c, const std::string& n, Merge how,
              RowConsumer* rows, uint64_t* sink);
  // id, name of the rows with category = c OR country = n.
  int64_t Or(const std::string& c, const std::string& n, RowConsumer* rows,
             uint64_t* sink);
  // Number of 's' entries with lo <= stamp <= hi.
  int64_t CountStamps(int64_t lo, int64_t hi);
  // The row with this id (one Get), all seven columns in table order, as
  // SELECT * renders it; 0 or 1.
  int64_t GetRow(int64_t id, RowConsumer* rows, uint64_t* sink);

  // Floors: the least LevelDB work each query needs, on one iterator kept
  // between queries (as levelql's iterator pool keeps its own); any write
  // ends it. Each emits its rows as the query renders them.
  //
  // W2: the names of a user's entries offset..offset+limit-1, newest
  // first, one Get each. With fetch false the entries are only stepped and
  // nothing is emitted: a lower bound for a covering read (W2b), as these
  // entries hold no name.
  int64_t UserPage(int64_t userid, int64_t offset, int64_t limit, bool fetch,
                   RowConsumer* rows, uint64_t* sink);
  // W6: id, name, stamp of the by_stamp entries offset..offset+limit-1.
  int64_t StampPage(int64_t offset, int64_t limit, RowConsumer* rows,
                    uint64_t* sink);
  // W4c: how many rows have category = c OR country = n (ids merged, no
  // row read).
  int64_t CountOr(const std::string& c, const std::string& n);
  // W10: category and count of each run of equal categories, in order.
  void CountCategories(RowConsumer* rows, uint64_t* sink);
  // The users table of W11 ('p' + userid -> "user N", for every userid of
  // the actions); HasUsers: whether it was made.
  bool HasUsers();
  void AddUsers();
  // W11: the user's name and the stamps of their newest `limit` actions.
  int64_t UserJoinPage(int64_t userid, int64_t limit, RowConsumer* rows,
                       uint64_t* sink);
  // W11s: COUNT(*) and MAX(stamp) of the actions of the users whose name
  // starts with `prefix` (ASCII, any case, as LIKE 'prefix%').
  void CountUsersLike(const std::string& prefix, RowConsumer* rows,
                      uint64_t* sink);

 private:
  std::string path_;
  std::unique_ptr<leveldb::Cache> cache_;
  std::unique_ptr<const leveldb::FilterPolicy> filter_;
  std::unique_ptr<leveldb::DB> db_;
  std::unique_ptr<leveldb::Iterator> kept_;  // see Kept()

  // The iterator the floors share, made on first use after a write.
  leveldb::Iterator* Kept();
};

// Renders one value the way ResultRows does.
void AppendValue(const Value& v, std::string* out);

// Opens the closed LevelDB database at `path` (levelql's or RawStore's)
// with levelql's LevelDB options and waits until LevelDB has no compaction
// left to schedule: fewer than 4 level-0 files and every level within its
// size budget (the rule of LevelDB 1.23's VersionSet::Finalize), then
// closes it. Opening replays the write-ahead log into a level-0 table, so
// this charges the memtable flush too. Dies after `timeout_seconds`.
void DrainCompactions(const std::string& path, size_t cache_bytes,
                      double timeout_seconds = 1800);

}  // namespace levelql::bench

#endif  // LEVELQL_BENCH_ENGINES_H_
