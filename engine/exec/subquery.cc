#include "engine/exec/subquery.h"

#include <string>
#include <utility>

#include "engine/exec/executor.h"
#include "engine/exec/row_memory.h"
#include "indexes/key_codec.h"

namespace levelql {
namespace {

// The value of one subquery: read only as far as it needs (a scalar's
// first row, EXISTS's first row, IN's every row).
Result<Value> RunOne(const BoundSubquery& sub, ExecContext* ctx) {
  LQ_ASSIGN_OR_RETURN(SelectExecution exec,
                      BuildSelect(*sub.select, ctx, ctx->rules));
  Row row;
  switch (sub.kind) {
    case BoundSubquery::Kind::kScalar: {
      Value v;
      if (exec.root->Next(&row)) v = std::move(row[0]);
      LQ_RETURN_IF_ERROR(exec.root->status());
      return v;
    }
    case BoundSubquery::Kind::kExists: {
      const bool any = exec.root->Next(&row);
      LQ_RETURN_IF_ERROR(exec.root->status());
      return Value::Int(any ? 1 : 0);
    }
    case BoundSubquery::Kind::kIn:
      break;
  }
  std::vector<Value> items;
  int64_t bytes = 0;
  while (exec.root->Next(&row)) {
    bytes += static_cast<int64_t>(sizeof(Value) + ValueHeapBytes(row[0]));
    if (bytes > ctx->sort_memory_bytes) {
      return Status::LimitExceeded(
          "the values of an IN (SELECT ...) exceed sort_memory_bytes (" +
          std::to_string(ctx->sort_memory_bytes) + " bytes)");
    }
    items.push_back(std::move(row[0]));
  }
  LQ_RETURN_IF_ERROR(exec.root->status());
  return Value::List(std::move(items));
}

}  // namespace

Status RunSubqueries(const ParamSlots& slots, std::vector<Value>* values,
                     ExecContext* ctx) {
  if (slots.subqueries.empty()) return Status::OK();
  // Subquery k is read at index -1 - k from the end (binder.h): the slots
  // are all there before the first runs, so no index moves.
  const size_t n = slots.subqueries.size();
  values->resize(values->size() + n);
  for (size_t k = 0; k < n; ++k) {
    LQ_ASSIGN_OR_RETURN(Value v, RunOne(*slots.subqueries[k], ctx));
    (*values)[values->size() - 1 - k] = std::move(v);
  }
  return Status::OK();
}

Result<Value> RunCorrelated(const ExecContext& around, const BoundSubquery& sub,
                            std::vector<Value> outer) {
  // Equal encodings are equal values of one type: the same answer.
  const BoundSubquery* id = &sub;
  std::string key(reinterpret_cast<const char*>(&id), sizeof id);
  for (const Value& v : outer) {
    keys::EncodeValue(v, keys::Direction::kAsc, &key);
  }
  CorrelatedValues* seen = around.correlated.get();
  if (seen) {
    auto it = seen->values.find(key);
    if (it != seen->values.end()) return it->second;
  }
  ExecContext ctx = around;  // its snapshot, parameters, limits, deadline
  ctx.outer = &outer;
  ctx.resume = nullptr;
  LQ_ASSIGN_OR_RETURN(Value v, RunOne(sub, &ctx));
  // Kept within a tenth of the sort memory.
  const int64_t bytes =
      static_cast<int64_t>(key.size() + sizeof(Value) + ValueHeapBytes(v));
  if (seen && seen->bytes + bytes <= around.sort_memory_bytes / 10) {
    seen->bytes += bytes;
    seen->values.emplace(std::move(key), v);
  }
  return v;
}

}  // namespace levelql
