#include "engine/check.h"

#include <map>
#include <set>

#include "indexes/row_format.h"

namespace levelql {
namespace {

constexpr size_t kMaxProblems = 10;

std::string DescribeEntry(const IndexSchema& index, std::string_view key) {
  std::vector<Value> values;
  if (!rows::DecodeIndexKey(index, key, &values).ok()) return "<undecodable>";
  return keys::KeyToString(values);
}

}  // namespace

void CheckReport::Add(std::string problem) {
  if (problems.size() < kMaxProblems) problems.push_back(std::move(problem));
}

Status CheckReport::ToStatus() const {
  if (ok()) return Status::OK();
  std::string msg = "CHECK found " + std::to_string(missing) + " missing, " +
                    std::to_string(dangling) + " dangling, " +
                    std::to_string(stale) + " stale index entries and " +
                    std::to_string(duplicates) + " UNIQUE violations";
  for (const std::string& p : problems) msg += "\n  " + p;
  return Status::Corruption(msg);
}

Status CheckTable(KvStore* store, const KvSnapshot* snapshot,
                  const TableSchema& table, const std::string& only_index,
                  CheckReport* report) {
  // Rows: their pk bytes and, per index, the entries they should own.
  std::set<std::string> pks;
  std::map<int64_t, std::map<std::string, std::string>> expected;
  std::vector<rows::IndexEntry> entries;
  const std::string prefix = rows::IdPrefix(table.id);
  auto it = store->NewIterator(snapshot);
  Row row;
  for (it->Seek(prefix);
       it->Valid() && it->key().substr(0, prefix.size()) == prefix;
       it->Next()) {
    Status s = rows::DecodeRow(table, it->key(), it->value(), &row);
    if (!s.ok()) {
      report->stale++;
      report->Add("table " + table.name + ": undecodable row: " + s.message());
      continue;
    }
    report->rows++;
    pks.insert(std::string(it->key().substr(prefix.size())));
    for (const auto& index : table.indexes) {
      if (!only_index.empty() && index->name != only_index) continue;
      entries.clear();
      rows::IndexEntriesForRow(table, *index, row, &entries);
      auto& want = expected[index->id];
      for (rows::IndexEntry& e : entries) {
        if (!want.emplace(e.key, e.value).second) {
          report->duplicates++;
          report->Add("index " + index->name + ": duplicate key " +
                      DescribeEntry(*index, e.key));
        }
      }
    }
  }
  LQ_RETURN_IF_ERROR(it->status());

  for (const auto& index : table.indexes) {
    if (!only_index.empty() && index->name != only_index) continue;
    auto& want = expected[index->id];
    const std::string ip = rows::IdPrefix(index->id);
    std::string pk;
    for (it->Seek(ip); it->Valid() && it->key().substr(0, ip.size()) == ip;
         it->Next()) {
      report->entries++;
      std::string key(it->key());
      auto w = want.find(key);
      if (w != want.end() && w->second == it->value()) {
        want.erase(w);
        continue;
      }
      Status s = rows::PrimaryKeyOfEntry(table, *index, key, it->value(), &pk);
      bool row_exists = s.ok() && pks.count(pk);
      if (row_exists || w != want.end()) {
        report->stale++;
        report->Add("index " + index->name + ": stale entry " +
                    DescribeEntry(*index, key));
        if (w != want.end()) want.erase(w);
      } else {
        report->dangling++;
        report->Add("index " + index->name + ": dangling entry " +
                    DescribeEntry(*index, key));
      }
    }
    LQ_RETURN_IF_ERROR(it->status());
    for (const auto& [key, value] : want) {
      report->missing++;
      report->Add("index " + index->name + ": missing entry " +
                  DescribeEntry(*index, key));
    }
  }
  return Status::OK();
}

}  // namespace levelql
