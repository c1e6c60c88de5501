#include "parser/parse_state.h"

namespace levelql::parser {

int ParseState::NamedParam(const std::string& name) {
  for (const auto& [known, n] : named_params) {
    if (known == name) return n;
  }
  named_params.emplace_back(name, ++max_param);
  return max_param;
}

void Throw(Status::Code code, Iter where, std::string message) {
  throw ParseError{code, where, Position{}, std::move(message)};
}

void ThrowDepth(const ParseState& st, Position pos, bool stack) {
  throw ParseError{Status::Code::kLimitExceeded, nullptr, pos,
                   stack ? std::string("expression nesting exceeds the stack")
                         : "expression nesting exceeds the limit of " +
                               std::to_string(st.options.max_expression_depth)};
}

}  // namespace levelql::parser
