// EXPLAIN of DatabaseImpl: the plan of a SELECT (through RunSelect), an
// UPDATE or a DELETE, one node per line.
#include "engine/database_impl.h"
#include "engine/exec/subquery.h"

namespace levelql {

Result<std::string> DatabaseImpl::Explain(std::string_view sql,
                                          const Params& params) {
  LQ_ASSIGN_OR_RETURN(parser::Statement parsed, parser::ParseStatement(sql));
  auto stmt = SharedStatement(std::move(parsed));
  const parser::Statement* target = stmt.get();
  StatementScope scope;
  LQ_RETURN_IF_ERROR(StartStatement(implicit_.get(), scope));
  Mode mode = Mode::kExplain;
  if (auto* e = std::get_if<parser::Explain>(&stmt->node)) {
    target = e->statement.get();
    if (e->analyze) mode = Mode::kExplainAnalyze;
  }
  if (!std::holds_alternative<parser::Select>(target->node)) {
    return ExplainWrite(implicit_.get(), *target, params);
  }
  LQ_ASSIGN_OR_RETURN(auto cursor, RunSelect(implicit_, stmt, params, mode));
  std::string out;
  while (cursor->Next()) {
    out += cursor->row()[0].text();
    out += '\n';
  }
  LQ_RETURN_IF_ERROR(cursor->status());
  return out;
}

Result<std::string> DatabaseImpl::ExplainWrite(Session* session,
                                               const parser::Statement& stmt,
                                               const Params& params) {
  StatementView view = ViewFor(session);
  Binder binder(view.catalog);
  RuleSet r = rules();
  std::vector<Value> values;
  ExecContext ctx;
  std::unique_ptr<PlanNode> plan;
  std::string head;
  if (auto* up = std::get_if<parser::Update>(&stmt.node)) {
    LQ_ASSIGN_OR_RETURN(BoundUpdate bound, binder.BindUpdate(*up));
    LQ_ASSIGN_OR_RETURN(values, BindParams(binder.params(), params));
    ctx = NewContext(&values, &view);
    LQ_RETURN_IF_ERROR(RunSubqueries(binder.params(), &values, &ctx));
    plan = PlanWriteRows(bound.table, bound.column_names, bound.where.get(),
                         ctx, r, UpdateNeedsKeyOrder(bound))
               .plan;
    head = "Update " + bound.table->name;
  } else if (auto* del = std::get_if<parser::Delete>(&stmt.node)) {
    LQ_ASSIGN_OR_RETURN(BoundDelete bound, binder.BindDelete(*del));
    LQ_ASSIGN_OR_RETURN(values, BindParams(binder.params(), params));
    ctx = NewContext(&values, &view);
    LQ_RETURN_IF_ERROR(RunSubqueries(binder.params(), &values, &ctx));
    plan = PlanWriteRows(bound.table, bound.column_names, bound.where.get(),
                         ctx, r)
               .plan;
    head = "Delete " + bound.table->name;
  } else {
    return Status::NotSupported(
        "EXPLAIN of this statement (SELECT, UPDATE and DELETE have plans)");
  }
  return head + "\n" + RenderPlan(*plan, false, 1);
}

}  // namespace levelql
