#include "engine/catalog/stats.h"

#include "engine/catalog/catalog.h"
#include "indexes/row_format.h"

namespace levelql {
namespace {

// Counts entries and distinct prefixes of the first `columns` components
// of the keys under `prefix`.
Status CountKeys(KvStore* store, const KvSnapshot* snapshot,
                 const std::string& prefix,
                 const std::vector<KeyColumn>& columns, IndexStats* out) {
  out->entries = 0;
  out->distinct.assign(columns.size(), 0);
  std::vector<std::string> last(columns.size());
  auto it = store->NewIterator(snapshot);
  for (it->Seek(prefix);
       it->Valid() && it->key().substr(0, prefix.size()) == prefix;
       it->Next()) {
    ++out->entries;
    std::string_view rest = it->key().substr(prefix.size());
    const char* start = rest.data();
    for (size_t i = 0; i < columns.size(); ++i) {
      Value v;
      LQ_RETURN_IF_ERROR(keys::DecodeValue(&rest, columns[i].direction, &v));
      std::string_view head(start, rest.data() - start);
      if (out->entries == 1 || head != last[i]) {
        ++out->distinct[i];
        last[i].assign(head);
        // A new prefix of length i is new for every longer length too.
        for (size_t j = i + 1; j < columns.size(); ++j) last[j].clear();
      }
    }
  }
  return it->status();
}

}  // namespace

Result<TableStats> ComputeStats(KvStore* store, const KvSnapshot* snapshot,
                                const TableSchema& table) {
  TableStats stats;
  IndexStats pk;
  LQ_RETURN_IF_ERROR(CountKeys(store, snapshot, rows::IdPrefix(table.id),
                               table.primary_key, &pk));
  stats.rows = pk.entries;
  stats.indexes[""] = pk;
  for (const auto& index : table.indexes) {
    IndexStats s;
    LQ_RETURN_IF_ERROR(CountKeys(store, snapshot, rows::IdPrefix(index->id),
                                 index->columns, &s));
    stats.indexes[index->name] = s;
  }
  return stats;
}

std::string StatsKey(const std::string& table) {
  return std::string(kStatsPrefix) + table;
}

std::string EncodeStats(const TableStats& stats) {
  std::string out;
  auto put = [&](const Value& v) {
    keys::EncodeValue(v, keys::Direction::kAsc, &out);
  };
  put(Value::Int(stats.rows));
  for (const auto& [name, s] : stats.indexes) {
    put(Value::Text(name));
    put(Value::Int(s.entries));
    put(Value::Int(static_cast<int64_t>(s.distinct.size())));
    for (int64_t d : s.distinct) put(Value::Int(d));
  }
  return out;
}

Result<TableStats> DecodeStats(std::string_view in) {
  TableStats stats;
  auto get_int = [&](int64_t* v) -> Status {
    Value x;
    LQ_RETURN_IF_ERROR(keys::DecodeValue(&in, keys::Direction::kAsc, &x));
    if (x.type() != Type::kInteger) return Status::Corruption("bad stats");
    *v = x.int_value();
    return Status::OK();
  };
  LQ_RETURN_IF_ERROR(get_int(&stats.rows));
  while (!in.empty()) {
    Value name;
    LQ_RETURN_IF_ERROR(keys::DecodeValue(&in, keys::Direction::kAsc, &name));
    IndexStats s;
    int64_t n = 0;
    LQ_RETURN_IF_ERROR(get_int(&s.entries));
    LQ_RETURN_IF_ERROR(get_int(&n));
    if (n < 0 || n > 64) return Status::Corruption("bad stats");
    s.distinct.resize(static_cast<size_t>(n));
    for (int64_t& d : s.distinct) LQ_RETURN_IF_ERROR(get_int(&d));
    stats.indexes[name.text()] = std::move(s);
  }
  return stats;
}

}  // namespace levelql
