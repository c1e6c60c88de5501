// The SELECT texts Database::Query ran lately, kept parsed, bound and with
// their plan template (plan_cache.h), so that running the same text again
// (with other parameter values) costs what a prepared statement's run does:
// no parsing, binding or planning.
//
// A text is kept parsed on its first run and planned by reuse from its
// second (a text seen once - literals written into the SQL - plans as
// before, without making a template). Least recently used texts go first;
// texts longer than kMaxText are never kept. A kept binding is used only
// for the catalog it was made for (BindQuery), a kept plan only for the
// same rules and LIMIT/OFFSET values (PlanPrepared), as for a prepared
// statement. Thread-safe.
#ifndef LEVELQL_ENGINE_STATEMENT_CACHE_H_
#define LEVELQL_ENGINE_STATEMENT_CACHE_H_

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "parser/ast.h"

namespace levelql {

struct BoundQuery;

class StatementCache {
 public:
  static constexpr size_t kMaxText = 4096;

  struct Entry {
    std::shared_ptr<const parser::Statement> stmt;
    std::shared_ptr<const BoundQuery> bound;  // null until a run binds it
    uint64_t runs = 0;                        // before this one
  };

  explicit StatementCache(size_t capacity) : capacity_(capacity) {}

  // The entry kept for `text`, made most recent; false when none is.
  bool Find(std::string_view text, Entry* out);
  // Keeps `entry` for `text` (replacing one kept), dropping the least
  // recently used past the capacity. Texts over kMaxText are not kept.
  void Store(std::string_view text, Entry entry);

 private:
  using Lru = std::list<std::pair<std::string, Entry>>;
  const size_t capacity_;
  std::mutex mu_;
  Lru lru_;  // most recent first
  std::unordered_map<std::string_view, Lru::iterator> index_;  // into lru_
};

}  // namespace levelql

#endif  // LEVELQL_ENGINE_STATEMENT_CACHE_H_
