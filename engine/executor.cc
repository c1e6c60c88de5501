#include "engine/executor.h"

#include "engine/value_ops.h"
#include "indexes/collation.h"

namespace levelql {
namespace {

std::string Where(const parser::Position& pos) {
  return "at " + std::to_string(pos.line) + ":" + std::to_string(pos.column) +
         ": ";
}

// Full scan plus filter: the always-correct access path.
std::unique_ptr<RowSource> ScanWithFilter(ExecContext* ctx,
                                          std::shared_ptr<const TableSchema> t,
                                          const BoundExpr* where,
                                          const std::vector<std::string>& cols,
                                          std::vector<std::string>* lines) {
  std::unique_ptr<RowSource> src = NewTableScan(ctx, t);
  lines->push_back("TableScan " + t->name);
  if (where) {
    src = NewFilter(ctx, std::move(src), where);
    lines->push_back("Filter " + ExprToString(*where, cols));
  }
  return src;
}

std::string Indent(const std::vector<std::string>& bottom_up) {
  std::string out;
  for (size_t i = bottom_up.size(); i-- > 0;) {
    out += std::string(2 * (bottom_up.size() - 1 - i), ' ');
    out += bottom_up[i];
    out += '\n';
  }
  return out;
}

// Builds a full row for `table` from target columns and values: defaults for
// the rest, values coerced to the column types, NOT NULL checked.
Status MakeRow(const TableSchema& table, const std::vector<int>& targets,
               std::vector<Value> values, const RowIdAllocator& rowids,
               Row* row) {
  row->assign(table.columns.size(), Value());
  std::vector<bool> given(table.columns.size(), false);
  for (size_t i = 0; i < table.columns.size(); ++i) {
    (*row)[i] = table.columns[i].default_value;
  }
  for (size_t i = 0; i < targets.size(); ++i) {
    const ColumnSchema& c = table.columns[targets[i]];
    if (values[i].type() == Type::kText) {
      LQ_RETURN_IF_ERROR(ValidateUtf8(values[i].text()));
    }
    LQ_ASSIGN_OR_RETURN((*row)[targets[i]],
                        CoerceForColumn(values[i], c.type, c.is_list, c.name));
    given[targets[i]] = true;
  }
  if (table.hidden_rowid) {
    int col = table.primary_key[0].column;
    if (!given[col] || (*row)[col].is_null()) {
      LQ_ASSIGN_OR_RETURN(int64_t id, rowids(table));
      (*row)[col] = Value::Int(id);
    }
  }
  for (size_t i = 0; i < table.columns.size(); ++i) {
    const ColumnSchema& c = table.columns[i];
    if (c.not_null && (*row)[i].is_null()) {
      return Status::ConstraintError("NOT NULL column " + table.name + "." +
                                     c.name + " got NULL");
    }
  }
  return Status::OK();
}

}  // namespace

Result<int64_t> EvaluateCount(const BoundExpr& expr, const ExecContext& ctx,
                              const char* what) {
  EvalContext ec{nullptr, ctx.params, nullptr};
  LQ_ASSIGN_OR_RETURN(Value v, Evaluate(expr, ec));
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

Result<SelectExecution> BuildSelect(const BoundSelect& select,
                                    ExecContext* ctx) {
  SelectExecution exec;
  std::vector<std::string> lines;  // bottom-up
  int64_t limit = -1, offset = 0;
  if (select.limit) {
    LQ_ASSIGN_OR_RETURN(limit, EvaluateCount(*select.limit, *ctx, "LIMIT"));
  }
  if (select.offset) {
    LQ_ASSIGN_OR_RETURN(offset, EvaluateCount(*select.offset, *ctx, "OFFSET"));
  }

  std::unique_ptr<RowSource> src = ScanWithFilter(
      ctx, select.table, select.where.get(), select.column_names, &lines);

  // Outputs, then the ORDER BY terms that are not output columns.
  std::vector<const BoundExpr*> exprs;
  for (const auto& e : select.outputs) exprs.push_back(e.get());
  std::vector<SortKey> sort_keys;
  for (const BoundOrder& o : select.order_by) {
    SortKey k;
    k.desc = o.desc;
    k.collation = o.collation;
    if (o.output >= 0) {
      k.column = o.output;
    } else {
      k.column = static_cast<int>(exprs.size());
      exprs.push_back(o.expr.get());
    }
    sort_keys.push_back(k);
  }
  exec.width = select.outputs.size();
  if (select.aggregate) {
    src = NewAggregate(ctx, std::move(src), &select.aggregates,
                       std::move(exprs), select.table->columns.size());
    lines.push_back("Aggregate " + std::to_string(select.aggregates.size()) +
                    " functions");
  } else {
    src = NewProject(ctx, std::move(src), std::move(exprs));
  }
  if (select.distinct) {
    std::vector<const Collation*> collations;
    for (const auto& e : select.outputs) collations.push_back(e->collation);
    src = NewDistinct(std::move(src), exec.width, std::move(collations));
    lines.push_back("Distinct");
  }
  if (!sort_keys.empty() && !select.aggregate) {
    int64_t keep = -1;
    if (limit >= 0 && limit <= (INT64_MAX - offset)) keep = limit + offset;
    src = NewSort(ctx, std::move(src), sort_keys, keep);
    lines.push_back(keep >= 0 ? "TopK " + std::to_string(keep) : "Sort");
  }
  if (limit >= 0 || offset > 0) {
    src = NewLimit(std::move(src), offset, limit);
    lines.push_back("Limit " + (limit >= 0 ? std::to_string(limit) : "all") +
                    (offset ? " offset " + std::to_string(offset) : ""));
  }
  exec.root = std::move(src);
  exec.explain = Indent(lines);
  return exec;
}

Result<int64_t> ExecuteInsert(const BoundInsert& insert, ExecContext* ctx,
                              WriteTxn* txn, const RowIdAllocator& rowids) {
  const TableSchema& table = *insert.table;
  int64_t count = 0;
  Row row;
  if (insert.select) {
    LQ_ASSIGN_OR_RETURN(SelectExecution exec, BuildSelect(*insert.select, ctx));
    Row in;
    while (exec.root->Next(&in)) {
      in.resize(exec.width);
      LQ_RETURN_IF_ERROR(
          MakeRow(table, insert.target_columns, std::move(in), rowids, &row));
      LQ_RETURN_IF_ERROR(txn->InsertRow(table, row));
      ++count;
    }
    LQ_RETURN_IF_ERROR(exec.root->status());
    return count;
  }
  EvalContext ec{nullptr, ctx->params, nullptr};
  for (const auto& exprs : insert.rows) {
    std::vector<Value> values;
    for (const auto& e : exprs) {
      LQ_ASSIGN_OR_RETURN(Value v, Evaluate(*e, ec));
      values.push_back(std::move(v));
    }
    LQ_RETURN_IF_ERROR(
        MakeRow(table, insert.target_columns, std::move(values), rowids, &row));
    LQ_RETURN_IF_ERROR(txn->InsertRow(table, row));
    ++count;
  }
  return count;
}

Result<int64_t> ExecuteUpdate(const BoundUpdate& update, ExecContext* ctx,
                              WriteTxn* txn) {
  const TableSchema& table = *update.table;
  std::vector<std::string> lines;
  auto src = ScanWithFilter(ctx, update.table, update.where.get(),
                            update.column_names, &lines);
  int64_t count = 0;
  Row row;
  while (src->Next(&row)) {
    Row updated = row;
    EvalContext ec{&row, ctx->params, nullptr};
    for (const auto& [col, expr] : update.assignments) {
      LQ_ASSIGN_OR_RETURN(Value v, Evaluate(*expr, ec));
      const ColumnSchema& c = table.columns[col];
      if (v.type() == Type::kText) LQ_RETURN_IF_ERROR(ValidateUtf8(v.text()));
      LQ_ASSIGN_OR_RETURN(updated[col],
                          CoerceForColumn(v, c.type, c.is_list, c.name));
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

Result<int64_t> ExecuteDelete(const BoundDelete& del, ExecContext* ctx,
                              WriteTxn* txn) {
  std::vector<std::string> lines;
  auto src =
      ScanWithFilter(ctx, del.table, del.where.get(), del.column_names, &lines);
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
