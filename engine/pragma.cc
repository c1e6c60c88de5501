// PRAGMA of DatabaseImpl: the connection settings (planner rules, the sort
// memory budget, the statement timeout, the busy timeout).
#include "engine/database_impl.h"

namespace levelql {

Result<std::unique_ptr<Cursor>> DatabaseImpl::RunPragma(
    const parser::Pragma& pragma) {
  std::lock_guard<std::mutex> lock(settings_mu_);
  if (pragma.name == "disable_rules") {
    if (pragma.value) {
      LQ_ASSIGN_OR_RETURN(settings_.rules,
                          RuleSet::Disabling(pragma.value->ToString()));
    }
    return std::unique_ptr<Cursor>(std::make_unique<ValuesCursor>(
        std::vector<std::string>{"disable_rules"},
        std::vector<Row>{{Value::Text(settings_.rules.DisabledNames())}}));
  }
  if (pragma.name == "sort_memory_bytes") {
    if (pragma.value) {
      if (pragma.value->type() != Type::kInteger ||
          pragma.value->int_value() < 1024) {
        return Status::InvalidArgument(
            "PRAGMA sort_memory_bytes takes an integer >= 1024");
      }
      settings_.sort_memory_bytes = pragma.value->int_value();
    }
    return std::unique_ptr<Cursor>(std::make_unique<ValuesCursor>(
        std::vector<std::string>{"sort_memory_bytes"},
        std::vector<Row>{{Value::Int(settings_.sort_memory_bytes)}}));
  }
  if (pragma.name == "statement_timeout_ms") {
    if (pragma.value) {
      if (pragma.value->type() != Type::kInteger ||
          pragma.value->int_value() < 0) {
        return Status::InvalidArgument(
            "PRAGMA statement_timeout_ms takes an integer >= 0 (0: none)");
      }
      settings_.statement_timeout_ms = pragma.value->int_value();
    }
    return std::unique_ptr<Cursor>(std::make_unique<ValuesCursor>(
        std::vector<std::string>{"statement_timeout_ms"},
        std::vector<Row>{{Value::Int(settings_.statement_timeout_ms)}}));
  }
  if (pragma.name == "busy_timeout") {
    if (pragma.value) {
      if (pragma.value->type() != Type::kInteger ||
          pragma.value->int_value() < 0) {
        return Status::InvalidArgument(
            "PRAGMA busy_timeout takes an integer >= 0 (milliseconds a writer "
            "waits for another; 0: fail at once)");
      }
      settings_.busy_timeout_ms = pragma.value->int_value();
    }
    return std::unique_ptr<Cursor>(std::make_unique<ValuesCursor>(
        std::vector<std::string>{"busy_timeout"},
        std::vector<Row>{{Value::Int(settings_.busy_timeout_ms)}}));
  }
  return Status::NotSupported("PRAGMA " + pragma.name +
                              " (known: busy_timeout, disable_rules, "
                              "sort_memory_bytes, statement_timeout_ms)");
}

}  // namespace levelql
