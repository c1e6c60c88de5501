// SELECT runs of DatabaseImpl: bind, check a continuation token against the
// query, plan (forward, or backward for a previous page), start the
// operators; hand out a cursor or the EXPLAIN [ANALYZE] text.
#include "engine/database_impl.h"
#include "engine/exec/subquery.h"

namespace levelql {
namespace {

// The plan of a run of a prepared SELECT from its start, through the
// query's kept plan (PlanThroughTemplate).
Result<PlannedSelect> PlanPrepared(const BoundQuery& query,
                                   const ExecContext& ctx,
                                   const RuleSet& rules) {
  std::shared_ptr<const PlanTemplate> kept = query.plan();
  const PlanTemplate* before = kept.get();
  LQ_ASSIGN_OR_RETURN(PlannedSelect planned,
                      PlanThroughTemplate(query.select, ctx, rules, &kept));
  if (kept.get() != before) query.set_plan(std::move(kept));
  return planned;
}

// Starts again the operators of a kept run (BoundQuery::TakeRun) for the
// run's parameter values, when they are the plan the query would reuse now
// (its kept template, for the same rules and LIMIT/OFFSET) and its point
// keys take the values; false otherwise (the caller ends them).
bool RestartKept(SelectRun* run, const RuleSet& rules) {
  Result<Limits> limits = EvaluateLimits(*run->bound, run->ctx);
  if (!limits.ok()) return false;  // planning again reports it
  std::shared_ptr<const PlanTemplate> kept = run->query->plan();
  if (!TemplateFits(kept.get(), rules, *limits) ||
      run->exec.spares != kept.get() ||
      !SetKeptPointKeys(*kept, run->exec.plan.get(), run->params)) {
    return false;
  }
  run->exec.root->Rewind();
  CountKeptRunRestarted();
  return true;
}

}  // namespace

Result<std::unique_ptr<Cursor>> DatabaseImpl::Resume(
    const std::shared_ptr<Session>& session,
    std::shared_ptr<const parser::Statement> stmt, const std::string& token,
    const Params& params, std::shared_ptr<const BoundQuery>* cache) {
  if (session->ended.load()) {
    return Status::InvalidArgument(
        "this transaction has ended (committed or rolled back): no statement "
        "runs in it any more; Database::Begin() starts another");
  }
  if (!std::holds_alternative<parser::Select>(stmt->node)) {
    return Status::InvalidArgument("only a SELECT can be resumed");
  }
  StatementScope scope;
  LQ_RETURN_IF_ERROR(StartStatement(session.get(), scope));
  LQ_ASSIGN_OR_RETURN(ResumePoint resume,
                      DecodeToken(token, catalog()->token_key));
  LQ_ASSIGN_OR_RETURN(std::unique_ptr<SelectRun> run,
                      StartSelectRun(session, std::move(stmt), params, &resume,
                                     0, cache ? *cache : nullptr));
  if (cache) *cache = run->query;
  return std::unique_ptr<Cursor>(
      std::make_unique<SelectCursor>(this, std::move(run)));
}

Result<std::shared_ptr<const BoundQuery>> DatabaseImpl::BindQuery(
    const parser::Statement& stmt, std::shared_ptr<const BoundQuery> cached,
    std::shared_ptr<const CatalogState> cat) {
  if (cached && cached->catalog == cat) return cached;
  const parser::Statement* target = &stmt;
  if (auto* e = std::get_if<parser::Explain>(&target->node)) {
    target = e->statement.get();
  }
  auto query = std::make_shared<BoundQuery>();
  query->catalog = cat;
  Binder binder(cat);
  LQ_ASSIGN_OR_RETURN(
      query->select, binder.BindSelect(std::get<parser::Select>(target->node)));
  query->slots = binder.params();
  query->text_fingerprint = Fingerprint(target->text);
  return std::shared_ptr<const BoundQuery>(std::move(query));
}

Result<std::unique_ptr<SelectRun>> DatabaseImpl::StartSelectRun(
    const std::shared_ptr<Session>& session,
    std::shared_ptr<const parser::Statement> stmt, const Params& params,
    const ResumePoint* resume, int64_t backward_rows,
    std::shared_ptr<const BoundQuery> query, bool reuse_plan, bool count_rows) {
  StatementView view = ViewFor(session.get());
  if (resume && resume->txn_id != 0 && resume->txn_id != view.txn_id) {
    return Status::InvalidArgument(
        "continuation token was taken inside a transaction, and can only be "
        "resumed inside that same transaction (it may point at rows only "
        "that transaction could see); restart the query");
  }
  LQ_ASSIGN_OR_RETURN(query, BindQuery(*stmt, std::move(query), view.catalog));
  const RuleSet rule_set = rules();
  reuse_plan = reuse_plan && resume == nullptr && backward_rows == 0 &&
               rule_set.on(Rule::kPlanCache);
  // A run of the same query that ended, with its operators, when one is
  // kept; else a new one.
  std::unique_ptr<SelectRun> run = reuse_plan ? query->TakeRun() : nullptr;
  if (!run) run = std::make_unique<SelectRun>();
  run->session = session;
  run->txn_id = view.txn_id;
  run->query = std::move(query);
  run->catalog = run->query->catalog;
  run->bound = &run->query->select;
  run->stmt = std::move(stmt);
  run->api_params = params;
  LQ_ASSIGN_OR_RETURN(run->params, BindParams(run->query->slots, params));
  std::string param_bytes;
  for (const Value& v : run->params) {
    keys::EncodeValue(v, keys::Direction::kAsc, &param_bytes);
  }
  run->fingerprint = Fingerprint(param_bytes, run->query->text_fingerprint);
  if (resume && resume->snapshot_id != 0 && !view.snapshot) {
    // The snapshot the first page read, where the store can give it again.
    if (auto pinned = store_->SnapshotAt(resume->snapshot_id)) {
      view.snapshot = std::move(pinned);
    }
  }
  run->ctx = NewContext(&run->params, &view);
  run->ctx.count_rows = count_rows;
  LQ_RETURN_IF_ERROR(RunSubqueries(run->query->slots, &run->params, &run->ctx));
  // A token over the rows of a view or subquery made for the statement
  // (GROUP BY, DISTINCT, ...) names a row by its place among them, so it
  // resumes only over the same rows.
  const bool derived = !run->ctx.derived_plans.empty();
  if (derived) {
    run->fingerprint =
        Fingerprint(std::to_string(run->ctx.derived_digest), run->fingerprint);
  }
  run->snapshot_id =
      view.txn_id == 0 ? store_->SnapshotId(run->ctx.snapshot.get()) : 0;
  if (resume) {
    if (resume->fingerprint != run->fingerprint) {
      return Status::InvalidArgument(
          derived ? "continuation token belongs to another query, other "
                    "parameter values, or other rows of a view or subquery "
                    "in FROM that makes rows of its own (they changed since "
                    "it was taken); restart the query"
                  : "continuation token belongs to another query or other "
                    "parameter values");
    }
    if (resume->schema_version != run->catalog->version) {
      return Status::InvalidArgument(
          "continuation token predates a schema change; restart the query");
    }
    run->start = *resume;
    // A token at the start is the query from its beginning.
    if (resume->kind != ResumePoint::Kind::kStart) {
      run->ctx.resume = &run->start;
    }
  }
  if (run->exec.root && !RestartKept(run.get(), rule_set)) {
    run->exec = SelectExecution();
  }
  if (!run->exec.root) {
    PlannedSelect planned;
    if (reuse_plan) {
      LQ_ASSIGN_OR_RETURN(planned,
                          PlanPrepared(*run->query, run->ctx, rule_set));
    } else {
      LQ_ASSIGN_OR_RETURN(planned, PlanSelectRun(*run->bound, run->ctx,
                                                 rule_set, backward_rows));
    }
    if (run->ctx.resume) {
      LQ_RETURN_IF_ERROR(CheckTokenFitsPlan(*resume, planned.token_mode,
                                            planned.order_signature));
    }
    run->exec = StartSelect(std::move(planned), *run->bound, &run->ctx);
  }
  if (!resume) run->start = run->Point(ResumePoint::Kind::kStart, 0);
  return run;
}

Result<std::unique_ptr<Cursor>> DatabaseImpl::RunSelect(
    const std::shared_ptr<Session>& session,
    std::shared_ptr<const parser::Statement> stmt, const Params& params,
    Mode mode, std::shared_ptr<const BoundQuery>* cache) {
  LQ_ASSIGN_OR_RETURN(
      std::unique_ptr<SelectRun> run,
      StartSelectRun(session, std::move(stmt), params, nullptr, 0,
                     cache ? *cache : nullptr,
                     /*reuse_plan=*/cache != nullptr && mode == Mode::kRun,
                     /*count_rows=*/mode == Mode::kExplainAnalyze));
  if (cache) *cache = run->query;
  if (mode == Mode::kRun) {
    return std::unique_ptr<Cursor>(
        std::make_unique<SelectCursor>(this, std::move(run)));
  }
  if (mode == Mode::kExplainAnalyze) {
    if (run->ctx.correlated) run->ctx.correlated->account = true;
    Row row;
    while (run->exec.root->Next(&row)) {
    }
    LQ_RETURN_IF_ERROR(run->exec.root->status());
    if (auto* sort = const_cast<PlanNode*>(
            FindOnSpine(*run->exec.plan, PlanNode::Kind::kSort))) {
      sort->stats.spilled_runs = run->ctx.spilled_runs;
    }
  }
  std::string text = RenderPlan(*run->exec.plan, mode == Mode::kExplainAnalyze);
  if (mode == Mode::kExplainAnalyze && run->ctx.salted_store &&
      run->ctx.salted_store->bucket_seeks() > 0) {
    // The store reads of merged scans and point reads, over all buckets.
    text += "Bucket reads: " +
            std::to_string(run->ctx.salted_store->bucket_seeks()) +
            " (seeks and gets of single buckets)\n";
  }
  for (const auto& [name, plan] : run->ctx.derived_plans) {
    text += "Rows of " + name + ", made before the query:\n" +
            RenderPlan(*plan, mode == Mode::kExplainAnalyze, 1);
  }
  if (mode == Mode::kExplainAnalyze && run->ctx.correlated) {
    text += RenderCorrelatedRuns(*run->ctx.correlated);
  }
  return PlanCursor(std::move(text));
}

}  // namespace levelql
