#include "engine/exec/operators.h"

#include <algorithm>
#include <set>

#include "indexes/row_format.h"

namespace levelql {
namespace {

class TableScan : public RowSource {
 public:
  TableScan(ExecContext* ctx, std::shared_ptr<const TableSchema> table,
            bool reverse, const std::vector<char>* decode)
      : ctx_(ctx),
        table_(std::move(table)),
        reverse_(reverse),
        decode_(decode) {
    prefix_ = rows::IdPrefix(table_->id);
    it_ = ctx_->store->NewIterator(ctx_->snapshot.get());
    it_->SetBounds(prefix_, keys::PrefixSuccessor(prefix_));
    const ResumePoint* r = ctx_->resume;
    const bool resume = r && r->kind == ResumePoint::Kind::kEntry;
    // key+'\0' is the smallest key after the row's.
    const bool past_key = resume && (reverse_ == r->inclusive);
    const std::string at =
        resume ? r->key + (past_key ? std::string(1, '\0') : "") : "";
    if (!reverse_) {
      // At or right after the row, or the first row.
      it_->Seek(resume ? at : prefix_);
    } else {
      // The last row at or before it, or the last row.
      it_->SeekBefore(resume ? at : keys::PrefixSuccessor(prefix_));
    }
    ++ctx_->seeks;
  }
  bool Next(Row* row) override {
    // Advance lazily: the iterator stays on the row last returned.
    if (started_ && it_->Valid()) {
      if (reverse_) {
        it_->Prev();
      } else {
        it_->Next();
      }
    }
    started_ = true;
    if (!status_.ok() || !it_->Valid()) {
      if (status_.ok()) status_ = it_->status();
      return false;
    }
    std::string_view key = it_->key();
    if (key.substr(0, prefix_.size()) != prefix_) {
      status_ = it_->status();  // LevelDB may skip an unreadable block
      return false;
    }
    if (ctx_->Tick()) {
      status_ = ctx_->InterruptedStatus();
      return false;
    }
    ++ctx_->keys_read;
    status_ = rows::DecodeRowColumns(*table_, key, it_->value(), decode_, row);
    return status_.ok();
  }
  Status status() const override { return status_; }
  bool SeekEntry(std::string_view target) override {
    if (!started_ || !status_.ok() || !it_->Valid() ||
        (reverse_ ? it_->key() < target : it_->key() >= target)) {
      return false;
    }
    ++ctx_->seeks;
    if (reverse_) {
      it_->SeekBefore(target);
    } else {
      it_->Seek(target);
    }
    started_ = false;  // on the row to return next
    return true;
  }
  bool Position(ResumePoint::Kind* kind, std::string* key) const override {
    if (!it_->Valid()) return false;
    *kind = ResumePoint::Kind::kEntry;
    key->assign(it_->key());
    return true;
  }

 private:
  bool started_ = false;
  ExecContext* ctx_;
  std::shared_ptr<const TableSchema> table_;
  bool reverse_;
  const std::vector<char>* decode_;  // null or empty: every column
  std::string prefix_;
  std::unique_ptr<KvIterator> it_;
  Status status_;
};

class Filter : public RowSource {
 public:
  Filter(ExecContext* ctx, std::unique_ptr<RowSource> input,
         const BoundExpr* predicate)
      : ctx_(ctx), input_(std::move(input)), predicate_(predicate) {}
  bool Next(Row* row) override {
    while (input_->Next(row)) {
      EvalContext ec{row, ctx_->params, nullptr, ctx_};
      Result<bool> r = EvaluatePredicate(*predicate_, ec);
      if (!r.ok()) {
        status_ = r.status();
        return false;
      }
      if (*r) return true;
    }
    return false;
  }
  Status status() const override {
    return status_.ok() ? input_->status() : status_;
  }
  bool Position(ResumePoint::Kind* kind, std::string* key) const override {
    return input_->Position(kind, key);
  }
  bool SeekEntry(std::string_view target) override {
    return input_->SeekEntry(target);
  }
  bool Park() override { return input_->Park(); }
  void Rewind() override {
    input_->Rewind();
    status_ = Status::OK();
  }

 private:
  ExecContext* ctx_;
  std::unique_ptr<RowSource> input_;
  const BoundExpr* predicate_;
  Status status_;
};

class Project : public RowSource {
 public:
  Project(ExecContext* ctx, std::unique_ptr<RowSource> input,
          const std::vector<const BoundExpr*>& exprs)
      : ctx_(ctx), input_(std::move(input)), steps_(exprs.size()) {
    // A column an expression reads, and that no later expression reads,
    // is moved out of the input row: its producer writes every column it
    // is asked for into each row anew, so the moved-from value is never
    // read.
    ColumnSet read_later;  // a later expression reads the column
    for (size_t i = exprs.size(); i-- > 0;) {
      const BoundExpr& e = *exprs[i];
      Step& step = steps_[i];
      step.expr = &e;
      if (e.kind == BoundExpr::Kind::kColumn) {
        step.column = e.index;
        step.take = !read_later.Has(e.index);
      }
      MarkColumns(e, &read_later);
    }
  }
  bool Next(Row* row) override {
    if (!input_->Next(&in_)) return false;
    // Assigned over: the last row's values keep their buffers. A row taken
    // away (a Sort keeps it) is made anew, exactly as wide.
    if (row->size() != steps_.size()) {
      row->clear();
      row->resize(steps_.size());
    }
    for (size_t i = 0; i < steps_.size(); ++i) {
      const Step& step = steps_[i];
      Value& out = (*row)[i];
      if (step.column >= 0) {
        if (step.take) {
          out = std::move(in_[step.column]);
        } else {
          out = in_[step.column];
        }
        continue;
      }
      Result<Value> v =
          Evaluate(*step.expr, {&in_, ctx_->params, nullptr, ctx_});
      if (!v.ok()) {
        status_ = v.status();
        return false;
      }
      out = std::move(v).value();
    }
    return true;
  }
  Status status() const override {
    return status_.ok() ? input_->status() : status_;
  }
  bool Position(ResumePoint::Kind* kind, std::string* key) const override {
    return input_->Position(kind, key);
  }
  bool Park() override {
    ParkBuffer(&in_);
    return input_->Park();
  }
  void Rewind() override {
    input_->Rewind();
    status_ = Status::OK();
  }

 private:
  // One output value: a column of the input row (moved out when `take`),
  // or an expression evaluated over it (column -1).
  struct Step {
    const BoundExpr* expr = nullptr;
    int column = -1;
    bool take = false;
  };
  // Columns by number; the first 256 without allocating.
  class ColumnSet {
   public:
    void Add(int c) {
      const auto u = static_cast<size_t>(c);
      if (u < kInline) {
        inline_[u / 64] |= uint64_t{1} << (u % 64);
        return;
      }
      if (u - kInline >= more_.size()) more_.resize(u - kInline + 1, false);
      more_[u - kInline] = true;
    }
    bool Has(int c) const {
      const auto u = static_cast<size_t>(c);
      if (u < kInline) return (inline_[u / 64] >> (u % 64)) & 1;
      return u - kInline < more_.size() && more_[u - kInline];
    }

   private:
    static constexpr size_t kInline = 256;
    uint64_t inline_[kInline / 64] = {};
    std::vector<bool> more_;
  };
  static void MarkColumns(const BoundExpr& e, ColumnSet* columns) {
    if (e.kind == BoundExpr::Kind::kColumn) columns->Add(e.index);
    for (const auto& a : e.args) MarkColumns(*a, columns);
  }

  ExecContext* ctx_;
  std::unique_ptr<RowSource> input_;
  std::vector<Step> steps_;
  Row in_;
  Status status_;
};

class Distinct : public RowSource {
 public:
  Distinct(std::unique_ptr<RowSource> input, size_t width,
           std::vector<const Collation*> collations)
      : input_(std::move(input)),
        width_(width),
        seen_(Less{width, std::move(collations)}) {}
  bool Next(Row* row) override {
    while (input_->Next(row)) {
      Row key(row->begin(), row->begin() + width_);
      if (seen_.insert(std::move(key)).second) return true;
    }
    return false;
  }
  Status status() const override { return input_->status(); }

 private:
  struct Less {
    size_t width;
    std::vector<const Collation*> collations;
    bool operator()(const Row& a, const Row& b) const {
      for (size_t i = 0; i < width; ++i) {
        int c = CompareValues(a[i], b[i], collations[i]);
        if (c != 0) return c < 0;
      }
      return false;
    }
  };
  std::unique_ptr<RowSource> input_;
  size_t width_;
  std::set<Row, Less> seen_;
};

class Limit : public RowSource {
 public:
  // `limit` -1: no limit.
  Limit(std::unique_ptr<RowSource> input, int64_t offset, int64_t limit)
      : input_(std::move(input)), offset_(offset), limit_(limit) {}
  bool Park() override { return input_->Park(); }
  void Rewind() override {
    input_->Rewind();
    skipped_ = returned_ = 0;
  }
  bool Next(Row* row) override {
    for (; skipped_ < offset_; ++skipped_) {
      if (!input_->Next(row)) return false;
    }
    if (limit_ >= 0 && returned_ >= limit_) return false;
    if (!input_->Next(row)) return false;
    ++returned_;
    return true;
  }
  Status status() const override { return input_->status(); }
  bool Position(ResumePoint::Kind* kind, std::string* key) const override {
    return input_->Position(kind, key);
  }

 private:
  std::unique_ptr<RowSource> input_;
  const int64_t offset_, limit_;
  int64_t skipped_ = 0, returned_ = 0;
};

class ResumeFilter : public RowSource {
 public:
  ResumeFilter(std::unique_ptr<RowSource> input, std::vector<SortKey> keys,
               Row after, bool inclusive)
      : input_(std::move(input)),
        keys_(std::move(keys)),
        after_(std::move(after)),
        least_(inclusive ? 0 : 1) {}
  bool Next(Row* row) override {
    while (input_->Next(row)) {
      if (CompareRows(*row, after_, keys_) >= least_) return true;
    }
    return false;
  }
  Status status() const override { return input_->status(); }

 private:
  std::unique_ptr<RowSource> input_;
  std::vector<SortKey> keys_;
  Row after_;
  int least_;  // the least comparison with after_ a row passes with
};

class Values : public RowSource {
 public:
  explicit Values(std::vector<Row> rows) : rows_(std::move(rows)) {}
  bool Next(Row* row) override {
    if (pos_ >= rows_.size()) return false;
    *row = std::move(rows_[pos_++]);
    return true;
  }
  Status status() const override { return Status::OK(); }

 private:
  std::vector<Row> rows_;
  size_t pos_ = 0;
};

}  // namespace

int CompareRows(const Row& a, const Row& b, const std::vector<SortKey>& keys) {
  for (const SortKey& k : keys) {
    int c = CompareValues(a[k.column], b[k.column], k.collation);
    if (c != 0) return k.desc ? -c : c;
  }
  return 0;
}

std::unique_ptr<RowSource> NewTableScan(
    ExecContext* ctx, std::shared_ptr<const TableSchema> table, bool reverse,
    const std::vector<char>* decode) {
  return std::make_unique<TableScan>(ctx, std::move(table), reverse, decode);
}
std::unique_ptr<RowSource> NewFilter(ExecContext* ctx,
                                     std::unique_ptr<RowSource> input,
                                     const BoundExpr* predicate) {
  return std::make_unique<Filter>(ctx, std::move(input), predicate);
}
std::unique_ptr<RowSource> NewProject(
    ExecContext* ctx, std::unique_ptr<RowSource> input,
    const std::vector<const BoundExpr*>& exprs) {
  return std::make_unique<Project>(ctx, std::move(input), exprs);
}
std::unique_ptr<RowSource> NewDistinct(
    std::unique_ptr<RowSource> input, size_t width,
    std::vector<const Collation*> collations) {
  return std::make_unique<Distinct>(std::move(input), width,
                                    std::move(collations));
}
std::unique_ptr<RowSource> NewLimit(std::unique_ptr<RowSource> input,
                                    int64_t offset, int64_t limit) {
  return std::make_unique<Limit>(std::move(input), offset, limit);
}
std::unique_ptr<RowSource> NewResumeFilter(std::unique_ptr<RowSource> input,
                                           std::vector<SortKey> keys, Row after,
                                           bool inclusive) {
  return std::make_unique<ResumeFilter>(std::move(input), std::move(keys),
                                        std::move(after), inclusive);
}

std::unique_ptr<RowSource> NewValues(std::vector<Row> rows) {
  return std::make_unique<Values>(std::move(rows));
}

}  // namespace levelql
