#include "engine/exec/aggregate.h"

#include <set>

#include "engine/exec/value_ops.h"

namespace levelql {
namespace {

// Orders values as DISTINCT compares them (with the argument's collation).
struct ValueLess {
  const Collation* collation;
  bool operator()(const Value& a, const Value& b) const {
    return CompareValues(a, b, collation) < 0;
  }
};

// Accumulates one aggregate over one group.
class Accumulator {
 public:
  explicit Accumulator(const AggregateSpec* spec)
      : spec_(spec), seen_(ValueLess{spec->collation}) {}

  // COUNT(*) of rows counted without reading them.
  void SetCount(int64_t n) { count_ = n; }
  void AddCount(int64_t n) { count_ += n; }

  // `sep` is group_concat's separator for this row.
  Status Add(const Value& v, const Value& sep) {
    if (spec_->kind == AggregateKind::kCountStar) {
      ++count_;
      return Status::OK();
    }
    if (v.is_null()) return Status::OK();
    if (spec_->distinct && !seen_.insert(v).second) return Status::OK();
    ++count_;
    switch (spec_->kind) {
      case AggregateKind::kSum:
      case AggregateKind::kTotal:
      case AggregateKind::kAvg:
        if (v.type() == Type::kList) {
          return Status::TypeError(PlaceOf(*spec_->arg) +
                                   "cannot add up the list " +
                                   v.ToSqlLiteral());
        }
        return AddNumber(v);
      case AggregateKind::kMin:
        if (best_.is_null() || CompareValues(v, best_, spec_->collation) < 0) {
          best_ = v;
        }
        break;
      case AggregateKind::kMax:
        if (best_.is_null() || CompareValues(v, best_, spec_->collation) > 0) {
          best_ = v;
        }
        break;
      case AggregateKind::kGroupConcat:
        if (count_ > 1) {
          // A NULL separator is empty (SQLite).
          text_ += !spec_->separator ? std::string(",")
                   : sep.is_null()   ? std::string()
                                     : ValueToText(sep);
        }
        text_ += ValueToText(v);
        return CheckValueSize(text_.size(), "group_concat()");
      default:
        break;
    }
    return Status::OK();
  }

  Value Result() const {
    switch (spec_->kind) {
      case AggregateKind::kCountStar:
      case AggregateKind::kCount:
        return Value::Int(count_);
      case AggregateKind::kSum:
        if (count_ == 0) return Value();
        return real_ ? Value::Real(rsum_) : Value::Int(isum_);
      case AggregateKind::kTotal:
        return Value::Real(rsum_);
      case AggregateKind::kAvg:
        if (count_ == 0) return Value();
        return Value::Real(rsum_ / static_cast<double>(count_));
      case AggregateKind::kMin:
      case AggregateKind::kMax:
        return best_;
      case AggregateKind::kGroupConcat:
        if (count_ == 0) return Value();
        return Value::Text(text_);
    }
    return Value();
  }

 private:
  // As SQLite's sum(): a value that is not an INTEGER once numeric
  // affinity applies (a REAL, text that is not wholly a number, a blob)
  // makes the sum a REAL. Like SQLite, a sum of every value as a REAL is
  // kept beside the exact integer one: a REAL SUM and every AVG are that.
  Status AddNumber(const Value& v) {
    const Value as_number = WhollyNumeric(v);
    const Value n = ToNumeric(as_number);
    rsum_ += n.AsDouble();
    if (!as_number.is_int_like()) {
      real_ = true;
    } else if (int64_t sum;
               !real_ && __builtin_add_overflow(isum_, n.int_value(), &sum)) {
      if (spec_->kind == AggregateKind::kSum) {
        return Status::TypeError(PlaceOf(*spec_->arg) +
                                 "integer overflow in SUM");
      }
      real_ = true;  // (AVG and total() read rsum_ alone)
    } else if (!real_) {
      isum_ = sum;
    }
    return Status::OK();
  }

  const AggregateSpec* spec_;
  int64_t count_ = 0;
  int64_t isum_ = 0;
  double rsum_ = 0;
  bool real_ = false;
  Value best_;
  std::string text_;
  std::set<Value, ValueLess> seen_;  // DISTINCT
};

bool ReadsColumn(const BoundExpr& e) {
  if (e.kind == BoundExpr::Kind::kColumn) return true;
  for (const auto& a : e.args) {
    if (ReadsColumn(*a)) return true;
  }
  return false;
}

class Aggregate : public RowSource {
 public:
  Aggregate(ExecContext* ctx, std::unique_ptr<RowSource> input, GroupSpec spec)
      : ctx_(ctx), input_(std::move(input)), spec_(std::move(spec)) {
    runs_ = spec_.run_components > 0 && input_->counts_runs();
  }

  bool Next(Row* out) override {
    while (!done_) {
      std::vector<Accumulator> acc;
      for (const AggregateSpec& a : *spec_.aggregates) acc.emplace_back(&a);
      Row last(spec_.row_width);
      if (spec_.keys.empty()) {
        done_ = true;
        if (!AggregateAll(&acc, &last)) return false;
      } else {
        if (!has_next_ && !ReadNext()) {
          done_ = true;
          return false;
        }
        key_.swap(next_key_);
        do {
          if (!Add(&acc, next_)) return false;
          last.swap(next_);
        } while (ReadNext() && SameGroup());
        if (!status_.ok()) return false;
        done_ = !has_next_;
      }
      std::vector<Value> results;
      for (const Accumulator& a : acc) results.push_back(a.Result());
      EvalContext ec{&last, ctx_->params, &results, ctx_};
      if (spec_.having) {
        Result<bool> keep = EvaluatePredicate(*spec_.having, ec);
        if (!keep.ok()) return Fail(keep.status());
        if (!*keep) continue;
      }
      out->clear();
      for (const BoundExpr* e : spec_.exprs) {
        Result<Value> v = Evaluate(*e, ec);
        if (!v.ok()) return Fail(v.status());
        out->push_back(std::move(v).value());
      }
      return true;
    }
    return false;
  }
  Status status() const override { return status_; }

 private:
  // Every input row into one group.
  bool AggregateAll(std::vector<Accumulator>* acc, Row* last) {
    // Only COUNT(*), and no bare column: the input may count its rows
    // without producing them (a ranked index).
    int64_t counted = 0;
    if (CountsOnly() && input_->CountAll(&counted)) {
      for (Accumulator& a : *acc) a.SetCount(counted);
    } else {
      Row row;
      while (input_->Next(&row)) {
        if (!Add(acc, row)) return false;
        last->swap(row);
      }
    }
    if (!input_->status().ok()) return Fail(input_->status());
    return true;
  }

  // Reads the next input row and its group key into next_; false at the
  // end or on an error (then status_ says which).
  bool ReadNext() {
    next_count_ = 1;
    has_next_ =
        runs_ ? input_->NextRun(spec_.run_components, &next_, &next_count_)
              : input_->Next(&next_);
    if (!has_next_) {
      if (!input_->status().ok()) Fail(input_->status());
      return false;
    }
    next_key_.clear();
    EvalContext ec{&next_, ctx_->params, nullptr, ctx_};
    for (const BoundExpr* k : spec_.keys) {
      Result<Value> v = Evaluate(*k, ec);
      if (!v.ok()) {
        has_next_ = false;
        return Fail(v.status());
      }
      next_key_.push_back(std::move(v).value());
    }
    return true;
  }

  bool SameGroup() const {
    for (size_t i = 0; i < key_.size(); ++i) {
      if (CompareValues(key_[i], next_key_[i], spec_.key_collations[i]) != 0) {
        return false;
      }
    }
    return true;
  }

  // Adds one input row (or run of next_count_ rows) to every accumulator.
  bool Add(std::vector<Accumulator>* acc, const Row& row) {
    if (runs_) {
      for (Accumulator& a : *acc) a.AddCount(next_count_);
      return true;
    }
    EvalContext ec{&row, ctx_->params, nullptr, ctx_};
    for (size_t i = 0; i < acc->size(); ++i) {
      const AggregateSpec& a = (*spec_.aggregates)[i];
      Value v, sep;
      if (a.arg) {
        Result<Value> r = Evaluate(*a.arg, ec);
        if (!r.ok()) return Fail(r.status());
        v = std::move(r).value();
      }
      if (a.separator && !v.is_null()) {
        Result<Value> r = Evaluate(*a.separator, ec);
        if (!r.ok()) return Fail(r.status());
        sep = std::move(r).value();
      }
      Status s = (*acc)[i].Add(v, sep);
      if (!s.ok()) return Fail(s);
    }
    return true;
  }

  bool CountsOnly() const {
    for (const AggregateSpec& a : *spec_.aggregates) {
      if (a.kind != AggregateKind::kCountStar) return false;
    }
    for (const BoundExpr* e : spec_.exprs) {
      if (ReadsColumn(*e)) return false;
    }
    return !spec_.having || !ReadsColumn(*spec_.having);
  }

  bool Fail(Status s) {
    status_ = std::move(s);
    return false;
  }

  ExecContext* ctx_;
  std::unique_ptr<RowSource> input_;
  GroupSpec spec_;
  bool done_ = false;
  Row next_;  // the first row of the next group, when has_next_
  bool has_next_ = false;
  bool runs_ = false;       // the input hands over counted runs
  int64_t next_count_ = 1;  // rows next_ stands for
  std::vector<Value> key_, next_key_;
  Status status_;
};

}  // namespace

std::unique_ptr<RowSource> NewAggregate(ExecContext* ctx,
                                        std::unique_ptr<RowSource> input,
                                        GroupSpec spec) {
  return std::make_unique<Aggregate>(ctx, std::move(input), std::move(spec));
}

}  // namespace levelql
