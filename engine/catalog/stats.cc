#include "engine/catalog/stats.h"

#include "engine/catalog/catalog.h"
#include "indexes/row_format.h"

namespace levelql {
namespace {

// Counts entries and distinct prefixes of the first `columns` components
// of the keys under `prefix`. Keys come sorted, so a prefix is new exactly
// when its bytes differ from the previous key's: components are only
// skipped over (SkipComponent), never decoded.
Status CountKeys(KvStore* store, const KvSnapshot* snapshot,
                 const std::string& prefix,
                 const std::vector<KeyColumn>& columns, IndexStats* out) {
  out->entries = 0;
  out->distinct.assign(columns.size(), 0);
  std::string last;  // the previous key
  std::vector<size_t> last_ends, ends(columns.size());
  auto it = store->NewIterator(snapshot);
  for (it->Seek(prefix);
       it->Valid() && it->key().substr(0, prefix.size()) == prefix;
       it->Next()) {
    const std::string_view key = it->key();
    std::string_view rest = key.substr(prefix.size());
    for (size_t i = 0; i < columns.size(); ++i) {
      LQ_RETURN_IF_ERROR(keys::SkipComponent(&rest, columns[i].direction));
      ends[i] = key.size() - rest.size();
    }
    // The shortest prefix that differs from the previous key's; it and
    // every longer one are new.
    size_t first_new = 0;
    if (out->entries > 0) {
      while (first_new < columns.size() &&
             ends[first_new] == last_ends[first_new] &&
             key.compare(0, ends[first_new], last, 0, ends[first_new]) == 0) {
        ++first_new;
      }
    }
    for (size_t i = first_new; i < columns.size(); ++i) ++out->distinct[i];
    ++out->entries;
    last.assign(key.data(), columns.empty() ? 0 : ends.back());
    last_ends = ends;
  }
  return it->status();
}

}  // namespace

Result<TableStats> ComputeStats(KvStore* store, const KvSnapshot* snapshot,
                                const TableSchema& table) {
  TableStats stats;
  const IndexSchema* one_per_row = nullptr;  // an index with an entry a row
  for (const auto& index : table.indexes) {
    IndexStats s;
    LQ_RETURN_IF_ERROR(CountKeys(store, snapshot, rows::IdPrefix(index->id),
                                 index->columns, &s));
    stats.indexes[index->name] = s;
    if (!index->multi_valued && index->needs_reindex.empty()) {
      one_per_row = index.get();
    }
  }
  IndexStats pk;
  if (one_per_row && table.primary_key.size() == 1) {
    // A one-column primary key is distinct on every row, and an index with
    // one entry per row has as many entries as the table has rows: the
    // rows, the largest key range, need not be read.
    pk.entries = stats.indexes[one_per_row->name].entries;
    pk.distinct.assign(1, pk.entries);
  } else {
    LQ_RETURN_IF_ERROR(CountKeys(store, snapshot, rows::IdPrefix(table.id),
                                 table.primary_key, &pk));
  }
  stats.rows = pk.entries;
  stats.indexes[""] = pk;
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
