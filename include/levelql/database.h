// levelql's public API: open a database, run SQL, read results.
//
//   auto db = levelql::Database::Open("app.db", {});          // or ":memory:"
//   if (!db.ok()) { ... db.status().ToString() ... }
//   (*db)->Execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");
//   auto stmt = (*db)->Prepare("SELECT name FROM t WHERE id = ?");
//   auto cur = (*stmt)->Query({levelql::Value::Int(1)});
//   while ((*cur)->Next()) { (*cur)->row()[0].text(); }
//   (*cur)->status();   // errors surface here, never silently
//
// Transactions: BEGIN ... COMMIT | ROLLBACK in SQL, or Database::Begin():
//
//   auto txn = (*db)->Begin();                                // a Transaction
//   (*txn)->Execute("UPDATE acct SET bal = bal - 5 WHERE id = 1");
//   (*txn)->Execute("UPDATE acct SET bal = bal + 5 WHERE id = 2");
//   (*txn)->Commit();          // both or neither; destroying it rolls back
//
// Thread safety: a Database may be shared by any number of threads; writers
// are serialized internally (one write transaction or statement at a time,
// the others wait up to Options::busy_timeout_ms) and readers never block
// (each statement reads one snapshot). A Statement, a Cursor or a
// Transaction must be used by one thread at a time. A Cursor, a Statement
// and a Transaction must not outlive the Database that made them.
#ifndef LEVELQL_DATABASE_H_
#define LEVELQL_DATABASE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "levelql/status.h"
#include "levelql/value.h"

namespace levelql {

struct Options {
  bool create_if_missing = true;
  bool read_only = false;
  bool sync_writes = false;  // fsync every committed statement
  size_t block_cache_bytes = 8 << 20;
  int bloom_bits_per_key = 10;  // 0 disables the bloom filter
  // Snappy-compress table blocks. Off by default: a point read that misses
  // the block cache then reads its block from the OS page cache without
  // decompressing it (measured: an OR of two indexes fetching 5,000 rows
  // of 200,000 took 17 ms instead of 30 ms), at ~30% more disk space.
  bool compression = false;
  // A statement running longer stops with Status::Interrupted (0: no
  // limit). It counts from Exec() or Query(): a cursor's time between
  // Next() calls counts too, so a cursor read slowly stops at its
  // deadline. PRAGMA statement_timeout_ms changes it for the connection.
  int64_t statement_timeout_ms = 0;
  // How long a writer (a statement, DDL, or a transaction's first write or
  // BEGIN IMMEDIATE) waits while another one holds the database before it
  // fails with Status::Busy. PRAGMA busy_timeout changes it.
  int64_t busy_timeout_ms = 5000;
  // The most a transaction holds uncommitted: the bytes of the keys and
  // values it writes (rows and index entries); a statement outside a
  // transaction is one. A statement that would pass it fails with
  // LimitExceeded and changes nothing; a transaction can still commit what
  // it holds, or roll back.
  size_t max_transaction_bytes = size_t{256} << 20;
  // CREATE TABLE without a WITH (salt_buckets = N) clause creates a table
  // salted with this many buckets (1 to 256; 0: unsalted), and its stored
  // definition says so, so the table stays salted whatever later opens use.
  // For deployments that salt every table, and for running a test suite
  // with every table salted.
  int default_salt_buckets = 0;
  // ANALYZE estimates the statistics of an index (or of a table's rows)
  // that takes at least this many bytes in the store's files from a sample
  // instead of reading every entry (at 1M rows it reads about 13% of them;
  // docs/DIALECT.md says how). 0: always read every entry. Salted tables,
  // and stores that cannot tell sizes (etcd), are read whole.
  int64_t analyze_sample_bytes = int64_t{8} << 20;
  // Database::Query (and Transaction::Query) keeps this many SELECT texts
  // parsed, bound and planned, least recently used first out: running a
  // text again, with other parameter values, costs what a prepared
  // statement's run does. 0: parse and plan every call.
  size_t statement_cache_entries = 64;
};

// Values bound to a statement's parameters. `?` and `?NNN` are positional and
// 1-based: positional[0] binds ?1 (the first `?`). `:name` binds by name;
// its slot's place in `positional` (a placeholder, to reach the slots after
// it) is used only when `named` lacks the name.
struct Params {
  std::vector<Value> positional;
  std::map<std::string, Value> named;  // key without the colon

  Params() = default;
  Params(std::initializer_list<Value> values) : positional(values) {}
};

// A forward-only stream of result rows.
class Cursor {
 public:
  virtual ~Cursor() = default;

  // Advances to the next row. Returns false at the end or on error; tell the
  // two apart with status(). Once it returns false it keeps doing so.
  virtual bool Next() = 0;
  // REQUIRES: the last Next() returned true. Valid until the next Next().
  virtual const Row& row() const = 0;
  virtual const std::vector<std::string>& column_names() const = 0;
  // Declared type of each result column; kNull when it has none (an
  // expression whose type depends on the row).
  virtual const std::vector<Type>& column_types() const = 0;
  virtual Status status() const = 0;
  // An opaque token that resumes this query after the current row (see
  // Statement::Resume); before the first row, where this cursor started.
  // Tokens are authenticated: an edited one is refused. A token names a
  // position, not a row count, so resuming costs what the first page costs
  // and rows written meanwhile are neither repeated nor skipped (a row
  // present throughout is returned exactly once). On etcd a resumed page
  // reads the revision the query's first page read (all pages are one
  // state), and fails with Busy once the cluster has compacted it. Empty
  // when the query cannot be resumed (results that are not a SELECT).
  virtual std::string ContinuationToken() const { return {}; }
  // A token for the page before this cursor's first row: resuming it
  // returns the `rows` rows that precede that row now, ending with the row
  // this cursor started after unless it was deleted since (it reads the
  // same plan backwards from there), then continues forward.
  // At the first page, a token for the first page. InvalidArgument when
  // rows < 1; NotSupported for results that are not a SELECT.
  virtual Result<std::string> PreviousPageToken(int64_t rows) {
    (void)rows;
    return Status::NotSupported("this result cannot be paged");
  }
  // Whether this cursor reads the query from its first row: it was not
  // resumed, or resumed from a token for the first page (which
  // PreviousPageToken gives once no earlier page is left).
  virtual bool AtFirstPage() const { return true; }
};

// One table or index of the schema, with the statement that created it.
struct SchemaEntry {
  std::string kind;  // "table", "index" or "view"
  std::string name;
  std::string table;  // the table an index belongs to (itself for tables
                      // and views)
  std::string sql;    // the CREATE statement
};

// The outcome of a statement that returns no rows.
struct ExecResult {
  int64_t rows_affected = 0;
};

// A parsed statement, reusable with different parameters.
class Statement {
 public:
  virtual ~Statement() = default;
  virtual Result<std::unique_ptr<Cursor>> Query(const Params& params = {}) = 0;
  virtual Result<ExecResult> Execute(const Params& params = {}) = 0;
  // Resumes the query after the row a ContinuationToken was taken at.
  virtual Result<std::unique_ptr<Cursor>> Resume(const std::string& token,
                                                 const Params& params = {}) = 0;
  // Number of parameter slots. `?NNN` is slot NNN; `?` and the first use
  // of each :name take the next number after the highest slot so far
  // (in `?2, :a, ?, :b`, :a is slot 3, ? slot 4, :b slot 5), as in SQLite.
  virtual int parameter_count() const = 0;
  // The name of each slot (without the colon), "" for positional ones.
  virtual std::vector<std::string> parameter_names() const = 0;
};

// BEGIN DEFERRED takes the transaction's snapshot at its first read and the
// writer slot at its first write; IMMEDIATE takes both at Begin() (so its
// writes cannot fail with Busy later).
enum class TransactionMode { kDeferred, kImmediate };

// A transaction with a session of its own (Database::Begin()). Its
// statements read one snapshot, taken at the first read (or at Begin() when
// IMMEDIATE), plus the transaction's own writes, which nothing outside it
// sees until Commit(). A statement that fails inside it changes nothing and
// leaves the transaction open. Statements prepared on it run inside it.
// DDL, ANALYZE and REINDEX are refused (NotSupported) inside a transaction.
//
// Why an object, besides SQL BEGIN: the SQL form belongs to the Database's
// one implicit session, shared by every thread that uses the Database (as a
// SQLite connection shared by threads); a Transaction is a session of its
// own, so threads can each run one without joining each other's. Two write
// transactions still take turns: the second waits for the writer slot (up
// to busy_timeout_ms) at its first write.
class Transaction {
 public:
  // Rolls back when still open.
  virtual ~Transaction() = default;

  // As Database's, inside this transaction. `COMMIT` or `ROLLBACK` in SQL
  // ends it like Commit() or Rollback(); `BEGIN` is refused.
  virtual Status Execute(std::string_view sql) = 0;
  virtual Result<ExecResult> Execute(std::string_view sql,
                                     const Params& params) = 0;
  virtual Result<std::unique_ptr<Statement>> Prepare(std::string_view sql) = 0;
  virtual Result<std::unique_ptr<Cursor>> Query(std::string_view sql,
                                                const Params& params = {}) = 0;

  // Applies every write of the transaction at once, in one atomic batch
  // (fsync'd with Options::sync_writes). When it fails the transaction
  // stays open: commit again or roll back.
  virtual Status Commit() = 0;
  // Drops every write of the transaction.
  virtual Status Rollback() = 0;
  // Until Commit() or Rollback() succeeds. Afterwards every call fails.
  virtual bool active() const = 0;
};

class Database {
 public:
  // Opens (or creates) the database at `path`; ":memory:" is a private
  // in-memory database that vanishes when closed. A new database is created
  // only in a new or empty directory (an IOError otherwise: a mistyped path
  // must not scatter files among others), and never by a read-only open
  // (NotFound when there is none). levelql is single-process
  // by design: while a database is open, opening it again - from another
  // process, or a second time in this one - fails with an IOError saying it
  // is in use (its lock file PATH/LOCK is held). Share one Database between
  // threads instead.
  static Result<std::unique_ptr<Database>> Open(const std::string& path,
                                                const Options& options = {});
  virtual ~Database() = default;

  // Runs a `;`-separated script. Stops at the first failing statement, which
  // changes nothing; earlier statements stay applied.
  virtual Status Execute(std::string_view sql) = 0;
  // Runs one statement with parameters.
  virtual Result<ExecResult> Execute(std::string_view sql,
                                     const Params& params) = 0;
  virtual Result<std::unique_ptr<Statement>> Prepare(std::string_view sql) = 0;
  // Prepare(sql) then Query(params); a SELECT text run lately is found
  // already prepared (Options::statement_cache_entries).
  virtual Result<std::unique_ptr<Cursor>> Query(std::string_view sql,
                                                const Params& params = {}) = 0;
  // The plan of a SELECT, UPDATE or DELETE, one node per line.
  virtual Result<std::string> Explain(std::string_view sql,
                                      const Params& params = {}) = 0;
  // Makes running statements stop soon with Status::Interrupted, and those
  // waiting for another writer at once. Safe to call from any thread, e.g.
  // a signal handler's helper thread.
  virtual void Interrupt() = 0;

  virtual std::vector<std::string> TableNames() = 0;
  // Every table followed by its indexes, tables in name order.
  virtual std::vector<SchemaEntry> Schema() = 0;

  // A transaction of its own (see Transaction). Busy when IMMEDIATE and
  // another writer holds the database past the busy timeout.
  virtual Result<std::unique_ptr<Transaction>> Begin(
      TransactionMode mode = TransactionMode::kDeferred) {
    (void)mode;
    return Status::NotSupported("transactions");
  }
  // Whether a SQL BEGIN on this Database is open (its implicit session).
  virtual bool InTransaction() { return false; }
};

}  // namespace levelql

#endif  // LEVELQL_DATABASE_H_
