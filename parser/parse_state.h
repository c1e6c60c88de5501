// The state of parsing one statement, and the helpers the grammar's actions
// use to build expression trees under the nesting limit.
//
// Only grammar.cc (the X3 grammar) uses this file; nothing here needs
// Spirit. Expression rules carry a PExpr: the subtree built so far plus its
// height. Binary levels fold left by wrapping that subtree (Wrap, Append),
// and every height is checked against ParseOptions::max_expression_depth as
// it grows, so no input can build a tree deeper than the limit. Failures
// are thrown as ParseError (parse_error.h) and caught where the grammar is
// invoked. A ParseState belongs to one parse on one thread.
#ifndef LEVELQL_PARSER_PARSE_STATE_H_
#define LEVELQL_PARSER_PARSE_STATE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/stack_floor.h"
#include "parser/ast.h"
#include "parser/lexer.h"
#include "parser/parse_error.h"
#include "parser/parser.h"

namespace levelql::parser {

struct ParseState {
  const SourceMap& map;
  const ParseOptions& options;
  uintptr_t stack_floor;  // base/stack_floor.h
  int depth = 0;          // brackets open around the current position
  int max_param = 0;      // largest parameter number so far
  // :name -> its number: the next number at its first use (SQLite's rule).
  std::vector<std::pair<std::string, int>> named_params;
  Statement result;

  Position Pos(Iter p) const { return map.At(p); }
  // The number of parameter `:name`: the one it got at its first use, else
  // the next free number.
  int NamedParam(const std::string& name);
};

// Throws a ParseError of `code` at the token at `where`.
[[noreturn]] void Throw(Status::Code code, Iter where, std::string message);
// Throws LimitExceeded for nesting beyond max_expression_depth at `pos`, or
// beyond the stack (StackFloor) when `stack`.
[[noreturn]] void ThrowDepth(const ParseState& st, Position pos,
                             bool stack = false);

// An expression under construction: the subtree, its height, and scratch
// space for the rule that builds it.
struct PExpr {
  ExprPtr e;
  int height = 0;
  bool big = false;      // the bare integer literal 9223372036854775808
  bool neg = false;      // NOT seen before BETWEEN / IN / LIKE / NULL
  Expr* hole = nullptr;  // innermost prefix operator awaiting its operand
};

// A one-node tree of `kind` for the token at `where`.
inline PExpr Leaf(const ParseState& st, ExprKind kind, Iter where) {
  PExpr v;
  v.e = std::make_unique<Expr>();
  v.e->kind = kind;
  v.e->pos = st.Pos(where);
  v.height = 1;
  return v;
}

inline void Grow(const ParseState& st, PExpr& v, int height) {
  if (height <= v.height) return;
  v.height = height;
  if (height > st.options.max_expression_depth) ThrowDepth(st, v.e->pos);
}

// Makes the tree built so far the first operand of a new `kind` node.
inline Expr& Wrap(const ParseState& st, PExpr& v, ExprKind kind) {
  auto node = std::make_unique<Expr>();
  node->kind = kind;
  node->pos = v.e->pos;
  node->negated = v.neg;
  node->args.reserve(kind == ExprKind::kBetween ? 3 : 2);
  node->args.push_back(std::move(v.e));
  v.e = std::move(node);
  v.neg = v.big = false;
  Grow(st, v, v.height + 1);
  return *v.e;
}

// Adds `child` as the next operand of the node at the top of `v`.
inline void Append(const ParseState& st, PExpr& v, PExpr&& child) {
  v.e->args.push_back(std::move(child.e));
  Grow(st, v, child.height + 1);
}

// A name or string as written, with where it starts.
struct Token {
  std::string text;
  Iter where = nullptr;
};

// A prefix operator (+, -, NOT) and where it stands.
struct UnaryTok {
  UnaryOp op = UnaryOp::kPlus;
  Iter where = nullptr;
};

}  // namespace levelql::parser

#endif  // LEVELQL_PARSER_PARSE_STATE_H_
