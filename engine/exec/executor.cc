#include "engine/exec/executor.h"

#include <cmath>
#include <optional>
#include <utility>

#include "engine/exec/build_operators.h"
#include "engine/exec/value_ops.h"
#include "engine/plan/planner.h"
#include "indexes/collation.h"
#include "parser/parse_error.h"

namespace levelql {
namespace {

std::string Where(const parser::Position& pos) {
  return parser::Place(pos) + ": ";
}

// Builds a full row for `table` from target columns and values: defaults for
// the rest, values coerced to the column types, NOT NULL checked as the
// conflict clause says (false: OR IGNORE skips the row; OR REPLACE puts the
// column's DEFAULT instead), and a key AssignsRowId tables leave out
// assigned.
Result<bool> MakeRow(const TableSchema& table, const std::vector<int>& targets,
                     std::vector<Value> values, parser::OnConflict conflict,
                     const RowIdAllocator& rowids, Row* row,
                     const std::vector<BoundExprPtr>* exprs = nullptr) {
  row->assign(table.columns.size(), Value());
  for (size_t i = 0; i < table.columns.size(); ++i) {
    (*row)[i] = table.columns[i].default_value;
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    const ColumnSchema& c = table.columns[targets[i]];
    Status s;
    if (values[i].type() == Type::kText) s = ValidateUtf8(values[i].text());
    Result<Value> v =
        s.ok() ? CoerceForColumn(values[i], c.type, c.is_list, c.name)
               : Result<Value>(s);
    if (!v.ok()) {
      if (!exprs) return v.status();
      return v.status().WithPrefix(Where((*exprs)[i]->pos));
    }
    (*row)[targets[i]] = std::move(v).value();
  }
  const int assigned = AssignsRowId(table) ? table.primary_key[0].column : -1;
  for (size_t i = 0; i < table.columns.size(); ++i) {
    const ColumnSchema& c = table.columns[i];
    if (!c.not_null || !(*row)[i].is_null() ||
        static_cast<int>(i) == assigned) {
      continue;
    }
    // SQLite: OR IGNORE skips the row; OR REPLACE takes the column's
    // default instead, when it has one.
    if (conflict == parser::OnConflict::kIgnore) return false;
    if (conflict == parser::OnConflict::kReplace &&
        !c.default_value.is_null()) {
      (*row)[i] = c.default_value;
      continue;
    }
    return Status::ConstraintError("NOT NULL column " + table.name + "." +
                                   c.name + " got NULL");
  }
  if (assigned >= 0 && (*row)[assigned].is_null()) {
    LQ_ASSIGN_OR_RETURN(int64_t id, rowids.next(table));
    (*row)[assigned] = Value::Int(id);
  }
  return true;
}

// The INTEGER key of `row` that AssignsRowId counts, if it has one.
std::optional<int64_t> CountedKey(const TableSchema& table, const Row& row) {
  if (!AssignsRowId(table)) return std::nullopt;
  const Value& key = row[table.primary_key[0].column];
  if (key.type() != Type::kInteger) return std::nullopt;
  return key.int_value();
}

// Writes `row` as the INSERT's conflict clause says; *written says whether
// it was (not when OR IGNORE skips it). OR REPLACE first deletes the rows
// it collides with.
Status PlaceRow(const TableSchema& table, const Row& row,
                parser::OnConflict conflict, WriteTxn* txn,
                const RowIdAllocator& rowids, bool* written) {
  *written = false;
  if (conflict != parser::OnConflict::kAbort) {
    std::vector<Row> hit;
    LQ_RETURN_IF_ERROR(txn->Collisions(table, row, &hit));
    if (!hit.empty() && conflict == parser::OnConflict::kIgnore) {
      return Status::OK();
    }
    for (const Row& old : hit) {
      LQ_RETURN_IF_ERROR(txn->DeleteRow(table, old));
      // The statement's next key is one past the largest left (SQLite).
      if (std::optional<int64_t> key = CountedKey(table, old)) {
        LQ_RETURN_IF_ERROR(rowids.deleted(table, *key));
      }
    }
  }
  LQ_RETURN_IF_ERROR(txn->InsertRow(table, row));
  if (std::optional<int64_t> key = CountedKey(table, row)) {
    LQ_RETURN_IF_ERROR(rowids.placed(table, *key));
  }
  *written = true;
  return Status::OK();
}

}  // namespace

bool AssignsRowId(const TableSchema& table) {
  if (table.hidden_rowid) return true;
  if (table.primary_key.size() != 1) return false;
  const KeyColumn& k = table.primary_key[0];
  const ColumnSchema& c = table.columns[k.column];
  return c.type == Type::kInteger && !c.is_list &&
         k.direction == keys::Direction::kAsc;
}

Result<int64_t> EvaluateCount(const BoundExpr& expr, const ExecContext& ctx,
                              const char* what) {
  EvalContext ec{nullptr, ctx.params, nullptr, &ctx};
  LQ_ASSIGN_OR_RETURN(Value v, Evaluate(expr, ec));
  // As SQLite, TRUE is 1, text that is wholly a number reads as one, and
  // a REAL of an integral value is that integer.
  if (v.type() == Type::kBoolean) v = Value::Int(v.int_value());
  if (v.type() == Type::kText) v = ApplyAffinity(v, Affinity::kNumeric);
  if (v.type() == Type::kReal && v.real_value() == std::trunc(v.real_value()) &&
      v.real_value() >= -9223372036854775808.0 &&
      v.real_value() < 9223372036854775808.0) {
    v = Value::Int(static_cast<int64_t>(v.real_value()));
  }
  if (v.type() != Type::kInteger || v.int_value() < 0) {
    std::string shown = v.type() == Type::kReal && v.real_value() >= 9.2e18
                            ? "a number beyond 9223372036854775807"
                            : v.ToSqlLiteral();
    return Status::InvalidArgument(
        Where(expr.pos) + what +
        " must be an integer from 0 to 9223372036854775807, got " + shown);
  }
  return v.int_value();
}

Result<Limits> EvaluateLimits(const BoundSelect& select,
                              const ExecContext& ctx) {
  Limits out;
  if (select.limit) {
    LQ_ASSIGN_OR_RETURN(out.limit, EvaluateCount(*select.limit, ctx, "LIMIT"));
  }
  if (select.offset) {
    LQ_ASSIGN_OR_RETURN(out.offset,
                        EvaluateCount(*select.offset, ctx, "OFFSET"));
  }
  return out;
}

Result<PlannedSelect> PlanSelectRun(const BoundSelect& select,
                                    const ExecContext& ctx,
                                    const RuleSet& rules,
                                    int64_t backward_rows) {
  LQ_ASSIGN_OR_RETURN(Limits limits, EvaluateLimits(select, ctx));
  const int64_t limit = limits.limit, offset = limits.offset;
  PlannerInput input;
  input.rules = &rules;
  input.params = ctx.params;
  input.outer = ctx.outer;
  input.stats = ctx.stats ? ctx.stats(*select.table) : nullptr;
  input.stats_of = ctx.stats;
  input.resume = ctx.resume;
  input.backward_rows = backward_rows;
  return PlanSelect(select, limit, offset, input);
}

bool TemplateFits(const PlanTemplate* kept, const RuleSet& rules,
                  const Limits& limits) {
  return kept && kept->rules == rules && kept->limit == limits.limit &&
         kept->offset == limits.offset;
}

Result<PlannedSelect> PlanThroughTemplate(
    const BoundSelect& select, const ExecContext& ctx, const RuleSet& rules,
    std::shared_ptr<const PlanTemplate>* kept) {
  LQ_ASSIGN_OR_RETURN(Limits limits, EvaluateLimits(select, ctx));
  const bool fits = TemplateFits(kept->get(), rules, limits);
  if (fits) {
    if (auto reused = ReusePlan(*kept, select, *ctx.params, &ctx)) {
      return std::move(*reused);
    }
  }
  LQ_ASSIGN_OR_RETURN(PlannedSelect planned, PlanSelectRun(select, ctx, rules));
  if (fits || !planned.reusable) return planned;
  std::shared_ptr<const PlanTemplate> made = MakePlanTemplate(
      select, rules, limits.limit, limits.offset, std::move(planned));
  // This run's plan comes from the template too (a copy: the template
  // itself is never run).
  std::optional<PlannedSelect> copy =
      ReusePlan(made, select, *ctx.params, &ctx);
  if (!copy) return PlanSelectRun(select, ctx, rules);
  *kept = std::move(made);
  return std::move(*copy);
}

SelectExecution& SelectExecution::operator=(SelectExecution&& other) noexcept {
  if (this == &other) return *this;
  End();
  plan = std::move(other.plan);
  spares = std::exchange(other.spares, nullptr);
  token_mode = other.token_mode;
  order_signature = other.order_signature;
  where = std::move(other.where);
  hidden = std::move(other.hidden);
  keep = std::move(other.keep);
  width = other.width;
  point_keys = other.point_keys;
  root = std::move(other.root);
  return *this;
}

SelectExecution::~SelectExecution() { End(); }

void SelectExecution::End() {
  root.reset();  // the operators point into the plan
  if (spares != nullptr && plan != nullptr) spares->GiveBack(std::move(plan));
  plan.reset();
  spares = nullptr;
}

SelectExecution StartSelect(PlannedSelect planned, const BoundSelect& select,
                            ExecContext* ctx) {
  SelectExecution exec;
  exec.plan = std::move(planned.plan);
  exec.token_mode = planned.token_mode;
  exec.order_signature = planned.order_signature;
  exec.where = std::move(planned.where);
  exec.hidden = std::move(planned.hidden);
  exec.keep = std::move(planned.keep);
  exec.spares = planned.spares;
  exec.point_keys = planned.point_keys;
  exec.root = BuildOperators(exec.plan.get(), ctx, select.table);
  exec.width = select.outputs.size();
  return exec;
}

Result<SelectExecution> BuildSelect(const BoundSelect& select, ExecContext* ctx,
                                    const RuleSet& rules) {
  LQ_ASSIGN_OR_RETURN(PlannedSelect planned,
                      PlanSelectRun(select, *ctx, rules));
  return StartSelect(std::move(planned), select, ctx);
}

PlannedRows PlanWriteRows(std::shared_ptr<const TableSchema> t,
                          const std::vector<std::string>& cols,
                          const BoundExpr* where, const ExecContext& ctx,
                          const RuleSet& rules, bool pk_order) {
  PlannerInput input;
  input.rules = &rules;
  input.params = ctx.params;
  input.stats = ctx.stats ? ctx.stats(*t) : nullptr;
  return PlanRows(std::move(t), cols, where, input, pk_order);
}

bool UpdateNeedsKeyOrder(const BoundUpdate& update) {
  const TableSchema& table = *update.table;
  auto assigned = [&](int column) {
    for (const auto& [col, expr] : update.assignments) {
      if (col == column) return true;
    }
    return false;
  };
  for (const KeyColumn& k : table.primary_key) {
    if (assigned(k.column)) return true;
  }
  for (const auto& index : table.indexes) {
    if (!index->unique) continue;
    for (const KeyColumn& k : index->columns) {
      if (assigned(k.column)) return true;
    }
  }
  return false;
}

Result<int64_t> ExecuteInsert(BoundInsert* insert_ptr, ExecContext* ctx,
                              const RuleSet& rules, WriteTxn* txn,
                              const RowIdAllocator& rowids) {
  BoundInsert& insert = *insert_ptr;
  const TableSchema& table = *insert.table;
  const parser::OnConflict conflict = insert.on_conflict;
  int64_t inserted = 0;
  Row row;
  if (insert.select) {
    LQ_ASSIGN_OR_RETURN(SelectExecution exec,
                        BuildSelect(*insert.select, ctx, rules));
    Row in;
    while (exec.root->Next(&in)) {
      in.resize(exec.width);
      LQ_ASSIGN_OR_RETURN(bool made,
                          MakeRow(table, insert.target_columns, std::move(in),
                                  conflict, rowids, &row));
      bool written = false;
      if (made) {
        LQ_RETURN_IF_ERROR(
            PlaceRow(table, row, conflict, txn, rowids, &written));
      }
      inserted += written;
    }
    LQ_RETURN_IF_ERROR(exec.root->status());
    return inserted;
  }
  EvalContext ec{nullptr, ctx->params, nullptr, ctx};
  for (const auto& exprs : insert.rows) {
    std::vector<Value> values;
    for (const auto& e : exprs) {
      LQ_ASSIGN_OR_RETURN(Value v, Evaluate(*e, ec));
      values.push_back(std::move(v));
    }
    LQ_ASSIGN_OR_RETURN(bool made,
                        MakeRow(table, insert.target_columns, std::move(values),
                                conflict, rowids, &row, &exprs));
    bool written = false;
    if (made) {
      LQ_RETURN_IF_ERROR(PlaceRow(table, row, conflict, txn, rowids, &written));
    }
    inserted += written;
  }
  return inserted;
}

Result<int64_t> ExecuteUpdate(BoundUpdate* update_ptr, ExecContext* ctx,
                              const RuleSet& rules, WriteTxn* txn) {
  BoundUpdate& update = *update_ptr;
  const TableSchema& table = *update.table;
  PlannedRows rows =
      PlanWriteRows(update.table, update.column_names, update.where.get(), *ctx,
                    rules, UpdateNeedsKeyOrder(update));
  auto src = BuildOperators(rows.plan.get(), ctx, update.table);
  int64_t count = 0;
  Row row;
  while (src->Next(&row)) {
    Row updated = row;
    EvalContext ec{&row, ctx->params, nullptr, ctx};
    for (const auto& [col, expr] : update.assignments) {
      LQ_ASSIGN_OR_RETURN(Value v, Evaluate(*expr, ec));
      const ColumnSchema& c = table.columns[col];
      Status valid =
          v.type() == Type::kText ? ValidateUtf8(v.text()) : Status::OK();
      Result<Value> stored = valid.ok()
                                 ? CoerceForColumn(v, c.type, c.is_list, c.name)
                                 : Result<Value>(valid);
      if (!stored.ok()) return stored.status().WithPrefix(Where(expr->pos));
      updated[col] = std::move(stored).value();
      if (c.not_null && updated[col].is_null()) {
        return Status::ConstraintError("NOT NULL column " + table.name + "." +
                                       c.name + " got NULL");
      }
    }
    LQ_RETURN_IF_ERROR(txn->UpdateRow(table, row, updated));
    ++count;
  }
  LQ_RETURN_IF_ERROR(src->status());
  return count;
}

Result<int64_t> ExecuteDelete(BoundDelete* del_ptr, ExecContext* ctx,
                              const RuleSet& rules, WriteTxn* txn) {
  BoundDelete& del = *del_ptr;
  PlannedRows rows =
      PlanWriteRows(del.table, del.column_names, del.where.get(), *ctx, rules);
  auto src = BuildOperators(rows.plan.get(), ctx, del.table);
  int64_t count = 0;
  Row row;
  while (src->Next(&row)) {
    LQ_RETURN_IF_ERROR(txn->DeleteRow(*del.table, row));
    ++count;
  }
  LQ_RETURN_IF_ERROR(src->status());
  return count;
}

}  // namespace levelql
