// The dialect's tokens as Boost.Spirit X3 primitives, for grammar.cc.
//
// PRIVATE TO grammar.cc: it is the only file that may include this header,
// so that Spirit is compiled in one translation unit (compile time matters
// more than anything else in this project's build). The #error below
// enforces it.
//
// Each primitive skips blanks and comments, asks the lexer (lexer.h) to
// scan its token, and moves `first` only on success, so a token is scanned
// once per attempt with no backtracking inside it. Malformed tokens and
// constructs outside the dialect throw ParseError (parse_error.h). The
// get_info specializations at the end say what each primitive is called in
// "expected X" messages: keywords by their spelling, punctuation quoted,
// alternatives joined with " or ".
#ifndef LEVELQL_PARSER_GRAMMAR_TOKENS_H_
#define LEVELQL_PARSER_GRAMMAR_TOKENS_H_

#ifndef LEVELQL_PARSER_GRAMMAR_CC_
#error "parser/grammar_tokens.h is included by parser/grammar.cc only"
#endif

#include <boost/spirit/home/x3.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "parser/lexer.h"
#include "parser/parse_state.h"

namespace levelql::parser::grammar {

namespace x3 = boost::spirit::x3;

struct state_tag;  // the ParseState in X3 contexts

template <class Ctx>
ParseState& St(Ctx const& ctx) {
  return x3::get<state_tag>(ctx);
}

template <class A, class V>
void Assign(A& attr, V&& value) {
  if constexpr (!std::is_same_v<std::remove_const_t<A>, x3::unused_type>) {
    attr = std::forward<V>(value);
  }
}

template <class Derived, class Attr>
struct token_base : x3::parser<Derived> {
  using attribute_type = Attr;
  static bool const has_attribute = !std::is_same_v<Attr, x3::unused_type>;
};

struct skipper_parser : token_base<skipper_parser, x3::unused_type> {
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const&, RCtx&, A&) const {
    Iter p = SkipBlanks(first, last);
    bool moved = p != first;
    first = p;
    return moved;
  }
};

// A keyword, case-insensitive, not followed by an identifier character.
// With kPos its attribute is where it starts.
template <bool kPos>
struct keyword_parser
    : token_base<keyword_parser<kPos>,
                 std::conditional_t<kPos, Iter, x3::unused_type>> {
  constexpr explicit keyword_parser(const char* w)
      : word(w), size(std::char_traits<char>::length(w)) {}
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const&, RCtx&, A& attr) const {
    Iter p = SkipBlanks(first, last);
    Iter q = ScanKeyword(p, last, std::string_view(word, size));
    if (q == nullptr) return false;
    Assign(attr, p);
    first = q;
    return true;
  }
  const char* word;  // upper case
  size_t size;
};
using kw = keyword_parser<false>;
using kw_at = keyword_parser<true>;

struct punct_parser : token_base<punct_parser, x3::unused_type> {
  constexpr explicit punct_parser(char ch) : c(ch) {}
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const&, RCtx&, A&) const {
    Iter p = SkipBlanks(first, last);
    if (p == last || *p != c) return false;
    first = p + 1;
    return true;
  }
  char c;
};

// An identifier: a bare word that is not reserved (folded to lower case) or
// a "quoted" one (verbatim). With any_word, reserved words are accepted too.
struct ident_parser : token_base<ident_parser, Token> {
  constexpr explicit ident_parser(bool any) : any_word(any) {}
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const&, RCtx&, A& attr) const {
    Token t;
    t.where = SkipBlanks(first, last);
    Iter q = ScanIdentifier(t.where, last, any_word, &t.text);
    if (q == nullptr) return false;
    Assign(attr, std::move(t));
    first = q;
    return true;
  }
  bool any_word;
};

// A 'string' (its contents) as a Token, for aliases and collation names.
struct string_parser : token_base<string_parser, Token> {
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const&, RCtx&, A& attr) const {
    Iter p = SkipBlanks(first, last);
    if (p == last || *p != '\'') return false;
    Token t;
    t.where = p;
    Iter q = ScanQuoted(p, last, &t.text);
    if (q == nullptr) return false;
    Assign(attr, std::move(t));
    first = q;
    return true;
  }
};

// Literals: numbers, 'text', x'blob', NULL, TRUE, FALSE.
struct literal_parser : token_base<literal_parser, PExpr> {
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, A& attr) const {
    Iter p = SkipBlanks(first, last);
    Value value;
    bool big = false;
    const char* error = nullptr;
    Iter q = ScanLiteral(p, last, &value, &big, &error);
    if (error != nullptr) Throw(Status::Code::kSyntaxError, p, error);
    if (q == nullptr) return false;
    if constexpr (!std::is_same_v<std::remove_const_t<A>, x3::unused_type>) {
      attr = Leaf(St(ctx), ExprKind::kLiteral, p);
      attr.e->literal = std::move(value);
      attr.big = big;
    }
    first = q;
    return true;
  }
};

// Parameters: ?, ?NNN, :name.
struct param_parser : token_base<param_parser, PExpr> {
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, A& attr) const {
    Iter p = SkipBlanks(first, last);
    if (p == last || (*p != '?' && *p != ':')) return false;
    ParseState& st = St(ctx);
    Iter q = p + 1;
    while (q != last && (*p == '?' ? IsDigit(*q) : IsIdentChar(*q))) ++q;
    if (*p == ':' && q == p + 1) return false;
    PExpr v = Leaf(st, ExprKind::kParam, p);
    if (*p == ':') {
      v.e->name.assign(p + 1, q);
      v.e->param_index = st.NamedParam(v.e->name);
    } else if (q == p + 1) {
      v.e->param_index = ++st.max_param;
    } else {
      int n = 0;
      for (Iter r = p + 1; r != q && n <= 32766; ++r) n = n * 10 + (*r - '0');
      if (n < 1 || n > 32766) {
        Throw(Status::Code::kSyntaxError, p,
              "parameter number between 1 and 32766");
      }
      v.e->param_index = n;
      st.max_param = std::max(st.max_param, n);
    }
    Assign(attr, std::move(v));
    first = q;
    return true;
  }
};

// The binary operators of one precedence level.
template <OpLevel L>
struct binary_op_parser : token_base<binary_op_parser<L>, BinaryOp> {
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const&, RCtx&, A& attr) const {
    BinaryOp op;
    Iter q = ScanBinaryOp(L, SkipBlanks(first, last), last, &op);
    if (q == nullptr) return false;
    Assign(attr, op);
    first = q;
    return true;
  }
};

// Prefix + - ~ (kSign), or NOT (kNot).
template <bool kNot>
struct prefix_op_parser : token_base<prefix_op_parser<kNot>, UnaryTok> {
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const&, RCtx&, A& attr) const {
    Iter p = SkipBlanks(first, last);
    if constexpr (kNot) {
      Iter q = ScanKeyword(p, last, "NOT");
      if (q == nullptr) return false;
      Assign(attr, UnaryTok{UnaryOp::kNot, p});
      first = q;
    } else {
      if (p == last || (*p != '+' && *p != '-' && *p != '~')) return false;
      Assign(attr, UnaryTok{*p == '+'   ? UnaryOp::kPlus
                            : *p == '-' ? UnaryOp::kMinus
                                        : UnaryOp::kBitNot,
                            p});
      first = p + 1;
    }
    return true;
  }
};

// A declared type's base name; DOUBLE may be followed by PRECISION. A word
// that is no type of the dialect is NotSupported, unless it is reserved
// (then it is not a type name at all and the grammar goes on).
struct type_word_parser : token_base<type_word_parser, Type> {
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const&, RCtx&, A& attr) const {
    Iter p = SkipBlanks(first, last);
    if (p == last || !IsIdentStart(*p)) return false;
    Iter q = ScanWord(p, last);
    std::string w(q - p, ' ');
    for (size_t i = 0; i < w.size(); ++i) w[i] = Upper(p[i]);
    std::optional<Type> t = TypeFromWord(w);
    if (!t) {
      if (IsReservedWord(w)) return false;
      Throw(Status::Code::kNotSupported, p, "type " + w);
    }
    if (w == "DOUBLE") {
      if (Iter r = ScanKeyword(SkipBlanks(q, last), last, "PRECISION")) q = r;
    }
    Assign(attr, *t);
    first = q;
    return true;
  }
};

struct unsigned_parser : token_base<unsigned_parser, int64_t> {
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const&, RCtx&, A& attr) const {
    Iter p = SkipBlanks(first, last);
    int64_t v = 0;
    Iter q = p;
    for (; q != last && IsDigit(*q) && q - p < 18; ++q) v = v * 10 + (*q - '0');
    if (q == p || (q != last && IsIdentChar(*q))) return false;
    Assign(attr, v);
    first = q;
    return true;
  }
};

// PRAGMA values: a signed number, a string, or a word (as TEXT).
struct pragma_value_parser : token_base<pragma_value_parser, Value> {
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx,
             A& attr) const {
    Iter p = SkipBlanks(first, last);
    if (p == last) return false;
    Iter q = p;
    bool minus = false;
    if (*q == '+' || *q == '-') {
      minus = *q == '-';
      q = SkipBlanks(q + 1, last);
      if (q == last || !(IsDigit(*q) || *q == '.')) return false;
    }
    PExpr lit;
    if (literal_parser().parse(q, last, ctx, rctx, lit)) {
      Value v = std::move(lit.e->literal);
      if (minus) {
        if (lit.big) {
          v = Value::Int(INT64_MIN);
        } else if (v.type() == Type::kInteger && v.int_value() != INT64_MIN) {
          v = Value::Int(-v.int_value());
        } else {  // REAL, or -0x8000000000000000 which overflows to REAL
          v = Value::Real(-v.AsDouble());
        }
      }
      Assign(attr, std::move(v));
    } else {
      Token t;
      if (!ident_parser(true).parse(q, last, ctx, rctx, t)) return false;
      Assign(attr, Value::Text(std::move(t.text)));
    }
    first = q;
    return true;
  }
};

// Zero-width: where the next token starts.
struct here_parser : token_base<here_parser, Iter> {
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const&, RCtx&, A& attr) const {
    Assign(attr, SkipBlanks(first, last));
    return true;
  }
};

struct end_parser : token_base<end_parser, x3::unused_type> {
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const&, RCtx&, A&) const {
    return SkipBlanks(first, last) == last;
  }
};

// Where `subject` matches, the input is recognizable SQL outside the
// dialect: throws NotSupported naming `construct`. Otherwise fails without
// consuming anything.
template <class Subject>
struct reject_parser : token_base<reject_parser<Subject>, x3::unused_type> {
  constexpr reject_parser(Subject s, const char* c)
      : subject(s), construct(c) {}
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx, A&) const {
    It q = first;
    if (subject.parse(q, last, ctx, rctx, x3::unused)) {
      Throw(Status::Code::kNotSupported, SkipBlanks(first, last), construct);
    }
    return false;
  }
  Subject subject;
  const char* construct;
};

template <class P>
constexpr auto reject(P const& p, const char* construct) {
  using S = typename x3::extension::as_parser<P>::value_type;
  return reject_parser<S>(x3::as_parser(p), construct);
}

// Counts bracket nesting around `subject` against max_expression_depth,
// and stops recursion short of the thread's stack end (StackFloor).
template <class Subject>
struct nested_directive : x3::unary_parser<Subject, nested_directive<Subject>> {
  using base_type = x3::unary_parser<Subject, nested_directive<Subject>>;
  static bool const is_pass_through_unary = true;
  static bool const handles_container = Subject::handles_container;
  constexpr nested_directive(Subject const& s) : base_type(s) {}
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx,
             A& attr) const {
    ParseState& st = St(ctx);
    if (++st.depth > st.options.max_expression_depth) {
      ThrowDepth(st, st.Pos(SkipBlanks(first, last)));
    }
    if (reinterpret_cast<uintptr_t>(__builtin_frame_address(0)) <
        st.stack_floor) {
      ThrowDepth(st, st.Pos(SkipBlanks(first, last)), /*stack=*/true);
    }
    bool ok = this->subject.parse(first, last, ctx, rctx, attr);
    --st.depth;
    return ok;
  }
};

struct nested_gen {
  template <class S>
  constexpr nested_directive<typename x3::extension::as_parser<S>::value_type>
  operator[](S const& s) const {
    return {x3::as_parser(s)};
  }
};

}  // namespace levelql::parser::grammar

// What an expectation names in "expected X": keywords by their spelling,
// punctuation quoted, rules by name, alternatives joined with " or ".
namespace boost::spirit::x3 {
namespace lqg = levelql::parser::grammar;
template <bool P>
struct get_info<lqg::keyword_parser<P>> {
  using result_type = std::string;
  std::string operator()(lqg::keyword_parser<P> const& p) const {
    return p.word;
  }
};
template <>
struct get_info<lqg::punct_parser> {
  using result_type = std::string;
  std::string operator()(lqg::punct_parser const& p) const {
    return std::string("'") + p.c + "'";
  }
};
template <>
struct get_info<lqg::ident_parser> {
  using result_type = std::string;
  std::string operator()(lqg::ident_parser const&) const {
    return "identifier";
  }
};
template <>
struct get_info<lqg::end_parser> {
  using result_type = std::string;
  std::string operator()(lqg::end_parser const&) const {
    return "end of statement";
  }
};
// Zero-width (a position): names nothing an error could say was expected.
template <>
struct get_info<lqg::here_parser> {
  using result_type = std::string;
  std::string operator()(lqg::here_parser const&) const { return ""; }
};
template <class S>
struct get_info<lqg::reject_parser<S>> {
  using result_type = std::string;
  std::string operator()(lqg::reject_parser<S> const&) const { return ""; }
};
template <class S, class A>
struct get_info<action<S, A>> {
  using result_type = std::string;
  std::string operator()(action<S, A> const& p) const {
    return what(p.subject);
  }
};
template <class S>
struct get_info<lqg::nested_directive<S>> {
  using result_type = std::string;
  std::string operator()(lqg::nested_directive<S> const& p) const {
    return what(p.subject);
  }
};
template <class S>
struct get_info<raw_directive<S>> {
  using result_type = std::string;
  std::string operator()(raw_directive<S> const& p) const {
    return what(p.subject);
  }
};
template <class S>
struct get_info<plus<S>> {
  using result_type = std::string;
  std::string operator()(plus<S> const& p) const { return what(p.subject); }
};
template <class L, class R>
struct get_info<sequence<L, R>> {
  using result_type = std::string;
  std::string operator()(sequence<L, R> const& p) const { return what(p.left); }
};
template <class L, class R>
struct get_info<alternative<L, R>> {
  using result_type = std::string;
  std::string operator()(alternative<L, R> const& p) const {
    std::string l = what(p.left), r = what(p.right);
    if (l.empty() || r.empty() || l == r) return l.empty() ? r : l;
    return l + " or " + r;
  }
};
}  // namespace boost::spirit::x3

#endif  // LEVELQL_PARSER_GRAMMAR_TOKENS_H_
