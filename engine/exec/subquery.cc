#include "engine/exec/subquery.h"

#include <algorithm>
#include <string>
#include <utility>

#include "engine/exec/derived_spill.h"
#include "engine/exec/executor.h"
#include "engine/exec/row_memory.h"
#include "engine/plan/plan.h"
#include "indexes/key_codec.h"
#include "indexes/row_format.h"
#include "parser/parse_error.h"

namespace levelql {
namespace {

// The value of one subquery: read only as far as it needs (a scalar's
// first row, EXISTS's first row, IN's every row).
Result<Value> ReadValue(const BoundSubquery& sub, const ExecContext& ctx,
                        RowSource* root) {
  Row row;
  switch (sub.kind) {
    case BoundSubquery::Kind::kScalar: {
      Value v;
      if (root->Next(&row)) v = std::move(row[0]);
      LQ_RETURN_IF_ERROR(root->status());
      return v;
    }
    case BoundSubquery::Kind::kExists: {
      const bool any = root->Next(&row);
      LQ_RETURN_IF_ERROR(root->status());
      return Value::Int(any ? 1 : 0);
    }
    case BoundSubquery::Kind::kIn:
    case BoundSubquery::Kind::kTable:
      break;
  }
  std::vector<Value> items;
  int64_t bytes = 0;
  while (root->Next(&row)) {
    bytes += static_cast<int64_t>(sizeof(Value) + ValueHeapBytes(row[0]));
    if (bytes > ctx.sort_memory_bytes) {
      return Status::LimitExceeded(
          "the values of an IN (SELECT ...) exceed sort_memory_bytes (" +
          std::to_string(ctx.sort_memory_bytes) + " bytes)");
    }
    items.push_back(std::move(row[0]));
  }
  LQ_RETURN_IF_ERROR(root->status());
  return Value::List(std::move(items));
}

// Moves the rows of a derived table being made (`rows`, `*bytes` of them)
// to the statement's temporary database, which it makes the first time
// (derived_spill.h): from then on ctx->store reads the store below the
// derived rows merged with that database, under the held rows. The overlay
// read until then stays with the spill: iterators of the query making the
// table may still be reading through it.
Status SpillDerivedRows(ExecContext* ctx, PendingWrites* rows, int64_t* bytes) {
  if (!ctx->derived_spill) {
    LQ_ASSIGN_OR_RETURN(
        ctx->derived_spill,
        DerivedSpill::Create(ctx->derived_base, ctx->sort_memory_bytes));
    ctx->derived_spill->Retire(std::move(ctx->derived_store));
    ctx->derived_store = std::make_shared<OverlayStore>(
        ctx->derived_spill->merged(), ctx->derived_rows);
    ctx->store = ctx->derived_store.get();
  }
  // In batches of about 1 MiB, each row's memory let go as it is put in
  // one: LevelDB takes a whole batch into its memtable, so one batch of
  // the budget's size would hold the rows three times over.
  constexpr int64_t kBatchBytes = int64_t{1} << 20;
  WriteBatch batch;
  int64_t batched = 0;
  for (auto it = rows->begin(); it != rows->end(); it = rows->erase(it)) {
    batched += static_cast<int64_t>(it->first.size() + it->second->size());
    batch.Put(it->first, std::move(*it->second));
    if (batched >= kBatchBytes) {
      LQ_RETURN_IF_ERROR(ctx->derived_spill->disk()->Write(batch, false));
      batch.Clear();
      batched = 0;
    }
  }
  *bytes = 0;
  return batch.empty() ? Status::OK()
                       : ctx->derived_spill->disk()->Write(batch, false);
}

// The rows of a kTable subquery, read from `root`, become rows of its table
// (numbered from 1, the hidden rowid), which `ctx->store` then reads. They
// are held in memory while all of the statement's such tables fit in
// ctx->sort_memory_bytes; a table that does not is written to a temporary
// database as it is made (SpillDerivedRows). The query making a table
// never reads it: its rows join the others once all are made.
Status MakeDerivedRows(const BoundSubquery& sub, ExecContext* ctx,
                       RowSource* root) {
  const TableSchema& table = *sub.table;
  if (!ctx->derived_rows) {
    ctx->derived_rows = std::make_shared<PendingWrites>();
    ctx->derived_base = ctx->store;
    ctx->derived_store =
        std::make_shared<OverlayStore>(ctx->store, ctx->derived_rows);
    ctx->store = ctx->derived_store.get();
  }
  PendingWrites rows;  // this table's, not yet written where they are read
  int64_t bytes = 0;   // theirs, while held
  bool spilled = false;
  Row row;
  int64_t number = 0;
  while (root->Next(&row)) {
    row.resize(table.columns.size());
    // A column of REAL affinity reads an INTEGER as REAL (SQLite's
    // OP_RealAffinity; a compound's later SELECTs give such values).
    for (size_t i = 0; i + 1 < row.size(); ++i) {
      if (table.columns[i].type == Type::kReal && !table.columns[i].is_list &&
          row[i].type() == Type::kInteger) {
        row[i] = Value::Real(static_cast<double>(row[i].int_value()));
      }
    }
    row.back() = Value::Int(++number);
    std::string key = rows::RowKey(table, row);
    std::string value = rows::RowValue(table, row);
    ctx->derived_digest =
        Fingerprint(value, Fingerprint(key, ctx->derived_digest));
    bytes += static_cast<int64_t>(key.size() + value.size() + 64);  // node
    rows.emplace(std::move(key), std::move(value));
    // Once spilling, rows go to disk in chunks of a quarter of the budget
    // (64 KiB at least), not one by one when other tables fill it.
    if (spilled ? bytes >= std::max<int64_t>(ctx->sort_memory_bytes / 4,
                                             int64_t{64} << 10)
                : ctx->derived_bytes + bytes > ctx->sort_memory_bytes) {
      LQ_RETURN_IF_ERROR(SpillDerivedRows(ctx, &rows, &bytes));
      spilled = true;
    }
  }
  LQ_RETURN_IF_ERROR(root->status());
  if (spilled) {
    LQ_RETURN_IF_ERROR(SpillDerivedRows(ctx, &rows, &bytes));
  } else {
    ctx->derived_bytes += bytes;
    ctx->derived_rows->merge(rows);  // new keys: the map's nodes, moved
  }
  // The planner of the query reading them knows how many there are.
  auto counted = std::make_shared<TableStats>();
  counted->rows = number;
  ctx->stats = [below = std::move(ctx->stats), id = table.id,
                counted](const TableSchema& t) -> const TableStats* {
    if (t.id == id) return counted.get();
    return below ? below(t) : nullptr;
  };
  return Status::OK();
}

Result<Value> RunOne(const BoundSubquery& sub, ExecContext* ctx,
                     std::string* plan = nullptr);

// Makes the rows of the tables `select` (a correlated subquery, about to run
// for the row in ctx->outer) makes for each row around it, in an overlay of
// their own over the store ctx reads: never among the rows made for another
// row.
Status MakePerRunTables(const BoundSelect& select, ExecContext* ctx) {
  if (select.per_run_tables.empty()) return Status::OK();
  ctx->derived_rows.reset();
  ctx->derived_store.reset();
  ctx->derived_spill.reset();  // its rows are the run's, under the same ids
  ctx->derived_base = nullptr;
  for (const auto& table : select.per_run_tables) {
    LQ_RETURN_IF_ERROR(RunOne(*table, ctx).status());
  }
  return Status::OK();
}

// Plans and runs `sub` under `ctx`; with `plan`, renders the plan with its
// counts there, indented a level (EXPLAIN ANALYZE).
Result<Value> RunOne(const BoundSubquery& sub, ExecContext* ctx,
                     std::string* plan) {
  LQ_RETURN_IF_ERROR(MakePerRunTables(*sub.select, ctx));
  LQ_ASSIGN_OR_RETURN(SelectExecution exec,
                      BuildSelect(*sub.select, ctx, ctx->rules));
  if (sub.kind == BoundSubquery::Kind::kTable) {
    LQ_RETURN_IF_ERROR(MakeDerivedRows(sub, ctx, exec.root.get()));
    exec.root.reset();  // (its counts stay in the plan)
    ctx->derived_plans.emplace_back(sub.table->name, std::move(exec.plan));
    return Value();
  }
  Result<Value> v = ReadValue(sub, *ctx, exec.root.get());
  if (plan) *plan = RenderPlan(*exec.plan, true, 1);
  return v;
}

// A correlated run of `sub` through its plan kept in `values`, made for
// an earlier run's outer values (PlanThroughTemplate).
Result<Value> RunKept(const BoundSubquery& sub, ExecContext* ctx,
                      CorrelatedValues* values) {
  // (A map: a subquery inside this one may add plans while it runs.)
  std::shared_ptr<const PlanTemplate>& kept = values->plans[&sub];
  LQ_RETURN_IF_ERROR(MakePerRunTables(*sub.select, ctx));
  LQ_ASSIGN_OR_RETURN(
      PlannedSelect planned,
      PlanThroughTemplate(*sub.select, *ctx, ctx->rules, &kept));
  SelectExecution exec = StartSelect(std::move(planned), *sub.select, ctx);
  return ReadValue(sub, *ctx, exec.root.get());
}

// The index of `sub`'s account in `values`, added when missing.
size_t AccountOf(CorrelatedValues* values, const BoundSubquery& sub) {
  for (size_t i = 0; i < values->runs.size(); ++i) {
    if (values->runs[i].subquery == &sub) return i;
  }
  values->runs.emplace_back();
  values->runs.back().subquery = &sub;
  return values->runs.size() - 1;
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
    if (!slots.subqueries[k]) continue;  // dropped (binder.h): stays NULL
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
  const bool account = seen && seen->account;
  if (seen) {
    auto it = seen->values.find(key);
    if (it != seen->values.end()) {
      if (account) ++seen->runs[AccountOf(seen, sub)].cached;
      return it->second;
    }
  }
  ExecContext ctx = around;  // its snapshot, parameters, limits, deadline
  ctx.outer = &outer;
  ctx.resume = nullptr;
  ctx.keys_read = ctx.seeks = 0;
  std::string plan;
  // (EXPLAIN ANALYZE shows each run's plan as planned: a kept plan has no
  // EXPLAIN text.)
  const bool keep = seen && !account && ctx.rules.on(Rule::kPlanCache);
  Result<Value> run = keep ? RunKept(sub, &ctx, seen)
                           : RunOne(sub, &ctx, account ? &plan : nullptr);
  around.ticks = ctx.ticks;  // its reads count toward the interrupt check
  if (account) {
    // (After the run: a subquery inside it may have added accounts.)
    CorrelatedRuns& runs = seen->runs[AccountOf(seen, sub)];
    ++runs.runs;
    runs.keys += ctx.keys_read;
    runs.seeks += ctx.seeks;
    runs.last_plan = std::move(plan);
  }
  LQ_ASSIGN_OR_RETURN(Value v, std::move(run));
  // Kept within a tenth of the sort memory.
  const int64_t bytes =
      static_cast<int64_t>(key.size() + sizeof(Value) + ValueHeapBytes(v));
  if (seen && seen->bytes + bytes <= around.sort_memory_bytes / 10) {
    seen->bytes += bytes;
    seen->values.emplace(std::move(key), v);
  }
  return v;
}

std::string RenderCorrelatedRuns(const CorrelatedValues& values) {
  std::string out;
  for (const CorrelatedRuns& r : values.runs) {
    out += "Correlated subquery at " + std::to_string(r.subquery->pos.line) +
           ":" + std::to_string(r.subquery->pos.column) + ": " +
           std::to_string(r.runs) + " runs, " + std::to_string(r.cached) +
           " answered from its cache, " + std::to_string(r.keys) + " keys, " +
           std::to_string(r.seeks) + " seeks; its last run:\n" + r.last_plan;
  }
  return out;
}

}  // namespace levelql
