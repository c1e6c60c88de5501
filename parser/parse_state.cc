#include "parser/parse_state.h"

#include <pthread.h>

namespace levelql::parser {

uintptr_t StackFloor() {
  constexpr uintptr_t kMargin = 256 << 10;
  thread_local uintptr_t floor = [] {
    pthread_attr_t attr;
    void* low = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      pthread_attr_getstack(&attr, &low, &size);
      pthread_attr_destroy(&attr);
    }
    return size > 2 * kMargin ? reinterpret_cast<uintptr_t>(low) + kMargin
                              : uintptr_t{0};
  }();
  return floor;
}

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
