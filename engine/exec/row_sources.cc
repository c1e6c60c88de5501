#include "engine/exec/row_sources.h"

#include <algorithm>

#include "indexes/row_format.h"

namespace levelql {
namespace {

// Where a key stream stands, for continuation tokens: its entry key when
// it walks one scan in key order, else the primary key.
bool StreamPosition(const RowIdStream& ids, ResumePoint::Kind* kind,
                    std::string* key) {
  if (!ids.Valid()) return false;
  if (ids.position_is_entry()) {
    *kind = ResumePoint::Kind::kEntry;
    key->assign(ids.entry_key());
  } else {
    *kind = ResumePoint::Kind::kPk;
    key->assign(ids.pk());
  }
  return true;
}

// Whether `entry` is the first (smallest) of the entries `row` owns in the
// index of `path` that lie inside the path's spans: the one entry at which a
// scan that can meet the row several times returns it. The rule depends only
// on the row and the entry, so a scan resumed at any entry still returns
// each row exactly once.
bool IsFirstEntry(const TableSchema& table, const AccessPath& path,
                  const Row& row, std::string_view entry) {
  std::vector<rows::IndexEntry> entries;
  rows::IndexEntriesForRow(table, *path.index, row, &entries);
  for (const rows::IndexEntry& e : entries) {
    if (e.key >= entry) continue;
    // Spans are sorted by lo and disjoint: the candidate span is the last
    // one starting at or before the key.
    auto it = std::upper_bound(
        path.spans.begin(), path.spans.end(), e.key,
        [](const std::string& k, const KeySpan& s) { return k < s.lo; });
    if (it != path.spans.begin() && e.key < std::prev(it)->hi) return false;
  }
  return true;
}

// Whether `ids` can seek on to `target`: one scan of entries, on an entry
// before it in the scan's direction.
bool CanSeek(const RowIdStream& ids, std::string_view target) {
  if (!ids.position_is_entry() || !ids.Valid() || !ids.status().ok()) {
    return false;
  }
  return ids.reverse() ? ids.entry_key() >= target : ids.entry_key() < target;
}

class Fetch : public RowSource {
 public:
  Fetch(ExecContext* ctx, std::shared_ptr<const TableSchema> table,
        std::unique_ptr<RowIdStream> ids, NodeStats* stats,
        const AccessPath* first_entry_of, const std::vector<char>* decode)
      : ctx_(ctx),
        table_(std::move(table)),
        ids_(std::move(ids)),
        stats_(stats),
        first_entry_of_(first_entry_of),
        decode_(decode),
        prefix_(rows::IdPrefix(table_->id)),
        batched_(ctx->store->remote() && !ids_->reads_rows()) {}

  bool Park() override {
    if (!ids_->Park()) return false;
    ParkBuffer(&key_);
    ParkBuffer(&value_);
    current_ = Ahead();
    ParkBuffer(&ahead_);
    return true;
  }
  void Rewind() override {
    ids_->Rewind();
    batched_ = ctx_->store->remote() && !ids_->reads_rows();
    started_ = false;
    status_ = Status::OK();
    ahead_.clear();
    ahead_pos_ = 0;
    stream_used_ = false;
    batch_ = 1;
  }

  bool Next(Row* row) override {
    while (batched_ ? FetchNextBatched(row) : FetchNext(row)) {
      if (first_entry_of_ == nullptr ||
          IsFirstEntry(*table_, *first_entry_of_, *row, EntryKey())) {
        if (stats_) ++stats_->rows;
        return true;
      }
    }
    return false;
  }
  bool Position(ResumePoint::Kind* kind, std::string* key) const override {
    if (batched_) {
      if (!started_ || !current_.has_position) return false;
      *kind = current_.kind;
      *key = current_.position;
      return true;
    }
    return started_ && StreamPosition(*ids_, kind, key);
  }
  Status status() const override {
    return status_.ok() ? ids_->status() : status_;
  }
  bool SeekEntry(std::string_view target) override {
    // Batched, the stream is ahead of the row returned: step instead.
    if (batched_ || !started_ || first_entry_of_ != nullptr ||
        !CanSeek(*ids_, target) || !ids_->SeekEntry(target)) {
      return false;
    }
    started_ = false;  // on the entry the next row comes from
    return true;
  }

 private:
  // A row read ahead (batched), with where the stream stood at it.
  struct Ahead {
    std::string key;  // the row's key
    std::string entry_key;
    std::string value;
    Status status;
    bool has_position = false;
    ResumePoint::Kind kind = ResumePoint::Kind::kPk;
    std::string position;
  };
  // Reads per batch: the first batch one row (a LIMIT 1 reads one), each
  // further batch twice the last, up to one etcd transaction's worth.
  static constexpr size_t kMaxBatch = 128;

  // The row at key, value, with the columns decode_ marks.
  Status DecodeRow(std::string_view key, std::string_view value,
                   Row* row) const {
    return rows::DecodeRowColumns(*table_, key, value, decode_, row);
  }

  std::string_view EntryKey() const {
    return batched_ ? std::string_view(current_.entry_key) : ids_->entry_key();
  }

  // On a store whose every read is a round trip (KvStore::remote), the
  // rows of the next keys of the stream are read in one MultiGet.
  bool FetchNextBatched(Row* row) {
    if (!status_.ok()) return false;
    if (ahead_pos_ == ahead_.size() && !Fill()) return false;
    current_ = std::move(ahead_[ahead_pos_++]);
    started_ = true;
    if (!current_.status.ok()) {
      status_ =
          current_.status.code() == Status::Code::kNotFound
              ? Status::Corruption("index entry of table " + table_->name +
                                   " points to a missing row")
              : current_.status;
      return false;
    }
    status_ = DecodeRow(current_.key, current_.value, row);
    return status_.ok();
  }

  // The next batch; false at the end of the stream (or its error).
  bool Fill() {
    ahead_.clear();
    ahead_pos_ = 0;
    std::vector<std::string> keys;
    while (ahead_.size() < batch_) {
      if (stream_used_ && ids_->Valid()) ids_->Next();
      stream_used_ = true;
      if (!ids_->Valid()) break;
      Ahead a;
      a.key = prefix_;
      a.key.append(ids_->pk());
      a.entry_key.assign(ids_->entry_key());
      a.has_position = StreamPosition(*ids_, &a.kind, &a.position);
      keys.push_back(a.key);
      ahead_.push_back(std::move(a));
    }
    if (ahead_.empty()) return false;
    batch_ = std::min(batch_ * 2, kMaxBatch);
    std::vector<std::string> values;
    std::vector<Status> statuses;
    ctx_->store->MultiGet(ctx_->snapshot.get(), keys, &values, &statuses);
    ++ctx_->seeks;
    ctx_->keys_read += keys.size();
    if (stats_) {
      ++stats_->seeks;
      stats_->keys += keys.size();
    }
    for (size_t i = 0; i < ahead_.size(); ++i) {
      ahead_[i].value = std::move(values[i]);
      ahead_[i].status = std::move(statuses[i]);
    }
    return true;
  }

  bool FetchNext(Row* row) {
    // Advance lazily, so a LIMIT that stops pulling reads no key too many.
    if (started_) ids_->Next();
    started_ = true;
    if (!status_.ok() || !ids_->Valid()) return false;
    if (ids_->reads_rows()) {
      status_ = DecodeRow(ids_->entry_key(), ids_->entry_value(), row);
    } else {
      // A point read: LevelDB's Get stops at the first level that has the
      // key and skips files by their bloom filters, where an iterator's
      // Seek positions a cursor in every level.
      key_ = prefix_;
      key_.append(ids_->pk());
      Status s = ctx_->store->Get(ctx_->snapshot.get(), key_, &value_);
      ++ctx_->seeks;
      ++ctx_->keys_read;
      if (stats_) {
        ++stats_->seeks;
        ++stats_->keys;
      }
      if (!s.ok()) {
        status_ =
            s.code() == Status::Code::kNotFound
                ? Status::Corruption("index entry of table " + table_->name +
                                     " points to a missing row")
                : s;
        return false;
      }
      status_ = DecodeRow(key_, value_, row);
    }
    return status_.ok();
  }

  bool started_ = false;
  ExecContext* ctx_;
  std::shared_ptr<const TableSchema> table_;
  std::unique_ptr<RowIdStream> ids_;
  NodeStats* stats_;
  const AccessPath* first_entry_of_;
  const std::vector<char>* decode_;  // null or empty: every column
  std::string prefix_;
  std::string key_;
  std::string value_;
  Status status_;
  bool batched_;
  // Batched: the rows read ahead, the next one to return, the row last
  // returned, and whether the stream's current key is already in a batch.
  std::vector<Ahead> ahead_;
  size_t ahead_pos_ = 0;
  Ahead current_;
  bool stream_used_ = false;
  size_t batch_ = 1;
};

class IndexOnly : public RowSource {
 public:
  // Where each part of an entry goes in the row: a column number, or -1
  // when the query does not read it (skipped without decoding).
  IndexOnly(std::shared_ptr<const TableSchema> table, const IndexSchema* index,
            std::unique_ptr<RowIdStream> ids, NodeStats* stats,
            const std::vector<int>& read_columns)
      : table_(std::move(table)),
        index_(index),
        ids_(std::move(ids)),
        stats_(stats),
        decode_(!read_columns.empty()) {
    std::vector<bool> wanted(table_->columns.size(), false);
    for (int c : read_columns) wanted[c] = true;
    auto take = [&](int column, bool decodable) {
      if (!decodable || !wanted[column]) return -1;
      wanted[column] = false;  // once, from the first part that has it
      return column;
    };
    // A key component decodes to its column's value unless it is a list
    // element or a collation key (whose text the value keeps, below).
    auto plain = [&](const KeyColumn& k) {
      return !table_->columns[k.column].is_list &&
             !rows::KeepsOriginalText(*table_, k);
    };
    if (index_ == nullptr) {
      for (const KeyColumn& k : table_->primary_key) {
        pk_targets_.push_back(take(k.column, plain(k)));
      }
      return;
    }
    for (const KeyColumn& k : index_->columns) {
      key_targets_.push_back(take(k.column, plain(k)));
    }
    for (const KeyColumn& k : table_->primary_key) {
      pk_targets_.push_back(take(k.column, plain(k)));
    }
    for (int c : index_->include) include_targets_.push_back(take(c, true));
    for (const KeyColumn& k : index_->columns) {
      if (rows::KeepsOriginalText(*table_, k)) {
        include_targets_.push_back(take(k.column, true));
      }
    }
    id_prefix_ = rows::IdPrefix(index_->id);
    include_read_ =
        std::any_of(include_targets_.begin(), include_targets_.end(),
                    [](int target) { return target >= 0; });
  }

  bool Next(Row* row) override {
    if (started_ && !positioned_) ids_->Next();
    started_ = true;
    positioned_ = false;
    if (!status_.ok() || !ids_->Valid()) return false;
    if (row->size() != table_->columns.size()) {
      row->assign(table_->columns.size(), Value());
    }
    if (decode_) status_ = Decode(row);
    if (!status_.ok()) return false;
    if (stats_) ++stats_->rows;
    return true;
  }
  bool Position(ResumePoint::Kind* kind, std::string* key) const override {
    return started_ && StreamPosition(*ids_, kind, key);
  }
  Status status() const override {
    return status_.ok() ? ids_->status() : status_;
  }
  bool SeekEntry(std::string_view target) override {
    if (!started_ || positioned_ || !status_.ok() || !CanSeek(*ids_, target) ||
        !ids_->SeekEntry(target)) {
      return false;
    }
    positioned_ = true;  // on the entry the next row comes from
    return true;
  }
  bool Park() override {
    ParkBuffer(&run_prefix_);
    return ids_->Park();
  }
  void Rewind() override {
    ids_->Rewind();
    started_ = positioned_ = false;
    status_ = Status::OK();
  }
  bool counts_runs() const override { return index_ != nullptr; }
  bool NextRun(size_t components, Row* row, int64_t* n) override {
    if (!Next(row)) return false;
    // The entry's key up to the end of its first `components` components.
    rows::EntryParts parts;
    status_ = rows::ParseIndexEntry(*index_, ids_->entry_key(),
                                    ids_->entry_value(), &parts);
    std::string_view in = parts.indexed;
    for (size_t i = 0; status_.ok() && i < components; ++i) {
      status_ = keys::SkipComponent(&in, index_->columns[i].direction);
    }
    if (!status_.ok()) return false;
    const std::string_view key = ids_->entry_key();
    run_prefix_.assign(key.data(), in.data() - key.data());
    *n = ids_->SkipRun(run_prefix_);
    positioned_ = true;  // on the entry after the run
    if (stats_) stats_->rows += *n - 1;
    return true;
  }
  // Rows that read no column are only counted: a ranked index knows how
  // many are left without reading them.
  bool CountAll(int64_t* n) override {
    if (decode_ || started_ || !ids_->Valid()) return false;
    return ids_->CountRemaining(n);
  }

 private:
  // Decodes the parts the query reads into their columns; the other
  // columns of *row are never read.
  Status Decode(Row* row) const {
    if (index_ == nullptr) return DecodePk(ids_->pk(), row);
    // One walk over the indexed components decodes the wanted ones; the
    // entry's layout (from their NULLs) then says where pk and INCLUDE are.
    const std::string_view key = ids_->entry_key();
    size_t id_end = 0, indexed_end = 0;
    bool has_null = false;
    auto each = [&](size_t i, std::string_view* in, bool* is_null) {
      const keys::Direction dir = index_->columns[i].direction;
      if (key_targets_[i] < 0) return keys::SkipComponent(in, dir, is_null);
      Value& v = (*row)[key_targets_[i]];
      LQ_RETURN_IF_ERROR(keys::DecodeValue(in, dir, &v));
      *is_null = v.is_null();
      return Status::OK();
    };
    LQ_RETURN_IF_ERROR(rows::WalkIndexedComponents(
        *index_, key, each, &id_end, &indexed_end, &has_null, id_prefix_));
    // The entry's value holds its INCLUDE columns, and a unique entry's
    // primary key: read only when one of them is.
    const bool value_read =
        include_read_ ||
        rows::LayoutOf(*index_, has_null) == rows::EntryLayout::kPkInValue;
    if (!value_read && indexed_end < key.size()) {
      // kPkInKey (as CutIndexEntry would cut it): the pk ends the key.
      return DecodePk(key.substr(indexed_end), row);
    }
    rows::EntryParts parts;
    LQ_RETURN_IF_ERROR(rows::CutIndexEntry(
        *index_, key, value_read ? ids_->entry_value() : std::string_view(),
        id_end, indexed_end, has_null, &parts));
    LQ_RETURN_IF_ERROR(DecodePk(parts.pk, row));
    if (!include_read_) return Status::OK();
    std::string_view in = parts.include;
    for (int target : include_targets_) {
      LQ_RETURN_IF_ERROR(Part(&in, keys::Direction::kAsc, target, row));
    }
    return Status::OK();
  }

  Status DecodePk(std::string_view in, Row* row) const {
    for (size_t i = 0; i < pk_targets_.size(); ++i) {
      LQ_RETURN_IF_ERROR(
          Part(&in, table_->primary_key[i].direction, pk_targets_[i], row));
    }
    return Status::OK();
  }

  static Status Part(std::string_view* in, keys::Direction dir, int target,
                     Row* row) {
    if (target < 0) return keys::SkipComponent(in, dir);
    return keys::DecodeValue(in, dir, &(*row)[target]);
  }

  bool started_ = false;
  bool positioned_ = false;  // ids_ is on the next row already (a run)
  std::string run_prefix_;
  std::shared_ptr<const TableSchema> table_;
  const IndexSchema* index_;
  std::unique_ptr<RowIdStream> ids_;
  NodeStats* stats_;
  bool decode_;
  std::vector<int> key_targets_, pk_targets_, include_targets_;
  bool include_read_ = false;  // an INCLUDE part is decoded
  std::string id_prefix_;      // rows::IdPrefix(index_->id)
  Status status_;
};

}  // namespace

std::unique_ptr<RowSource> NewFetch(ExecContext* ctx,
                                    std::shared_ptr<const TableSchema> table,
                                    std::unique_ptr<RowIdStream> ids,
                                    NodeStats* stats,
                                    const AccessPath* first_entry_of,
                                    const std::vector<char>* decode) {
  return std::make_unique<Fetch>(ctx, std::move(table), std::move(ids), stats,
                                 first_entry_of, decode);
}

std::unique_ptr<RowSource> NewIndexOnly(
    std::shared_ptr<const TableSchema> table, const IndexSchema* index,
    std::unique_ptr<RowIdStream> ids, NodeStats* stats,
    const std::vector<int>& read_columns) {
  return std::make_unique<IndexOnly>(std::move(table), index, std::move(ids),
                                     stats, read_columns);
}

}  // namespace levelql
