// The SQL grammar of the levelql dialect (docs/DIALECT.md), written with
// Boost.Spirit X3. This is the only file that includes Spirit.
//
// A script is parsed in two passes. A hand-written lexical pass (Split) cuts
// it at `;` outside strings, quoted identifiers and comments, and reports an
// unterminated one where it starts. Each statement is then parsed by the X3
// grammar below. Tokens are small custom X3 parsers (keywords, identifiers,
// literals, operators), so a token is scanned once per attempt with no
// backtracking inside it, and a failed attempt never moves the input. Trees
// are built by semantic actions: each expression rule carries a PExpr (the
// subtree plus its height), binary levels fold left by wrapping the tree
// built so far, and prefix operators are collected iteratively, so only
// brackets make the parser recurse.
//
// Errors: `a > b` expectation points throw x3::expectation_failure, whose
// `which` names what was expected; actions and the token parsers throw
// Failure for malformed tokens, constructs outside the dialect
// (NotSupported) and limits. ParsePiece turns both into a Status; no exception
// leaves this file.
//
// Limits: the nesting of brackets (and of NOT used as an operand) is counted
// by the `nested` directive, and the height of every subtree is checked as it
// is built, so neither 100,000 parentheses nor 100,000 prefix minus signs
// can overflow the stack: both stop at max_expression_depth. The directive
// also stops recursion short of the thread's stack end (about 1.5 KB of
// stack per bracket level in a release build, so 1000 levels need 1.5 MB).
#include "parser/parser.h"

#include <pthread.h>

#include <algorithm>
#include <boost/spirit/home/x3.hpp>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>

namespace levelql::parser {
namespace {

namespace x3 = boost::spirit::x3;
using Iter = const char*;

// ---------------------------------------------------------------------------
// Characters and the lexical skeleton shared by the splitter, the grammar's
// skipper and error messages.

inline bool IsSpace(char c) {
  return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' ||
         c == '\v';
}
inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsHex(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
// Bytes >= 0x80 belong to identifiers, as in SQLite (UTF-8 names).
inline bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
inline bool IsIdentChar(char c) {
  return IsIdentStart(c) || IsDigit(c) || c == '$';
}
inline int Nibble(char c) {
  return IsDigit(c) ? c - '0' : (c | 0x20) - 'a' + 10;
}
inline char Lower(char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }
inline char Upper(char c) { return c >= 'a' && c <= 'z' ? c - 32 : c; }

// Skips blanks and comments. An unterminated block comment runs to `end`
// (Split has reported it before the grammar runs).
Iter SkipBlanksSlow(Iter p, Iter end) {
  for (;;) {
    while (p != end && IsSpace(*p)) ++p;
    if (end - p < 2) return p;
    if (p[0] == '-' && p[1] == '-') {
      p = static_cast<Iter>(std::memchr(p, '\n', end - p));
      if (p == nullptr) return end;
    } else if (p[0] == '/' && p[1] == '*') {
      Iter q = p + 2;
      while (end - q >= 2 && !(q[0] == '*' && q[1] == '/')) ++q;
      p = end - q >= 2 ? q + 2 : end;
    } else {
      return p;
    }
  }
}

// Most calls start at a token already; keep that case inline.
inline Iter SkipBlanks(Iter p, Iter end) {
  if (p != end && !IsSpace(*p) && *p != '-' && *p != '/') return p;
  return SkipBlanksSlow(p, end);
}

// Scans a quoted token starting at `p` (the opening quote); quotes inside
// are doubled. Returns the position after the closing quote, or null when it
// is missing. Appends the unescaped contents to `out` when given.
Iter ScanQuoted(Iter p, Iter end, std::string* out) {
  const char quote = *p++;
  for (;;) {
    Iter q = static_cast<Iter>(std::memchr(p, quote, end - p));
    if (q == nullptr) return nullptr;
    if (out) out->append(p, q);
    if (q + 1 != end && q[1] == quote) {
      if (out) out->push_back(quote);
      p = q + 2;
      continue;
    }
    return q + 1;
  }
}

// Maps a pointer into the script to 1-based line and column.
class SourceMap {
 public:
  explicit SourceMap(std::string_view text)
      : begin_(text.data()), end_(text.data() + text.size()) {
    line_starts_.push_back(0);
    for (Iter p = begin_;;) {
      p = static_cast<Iter>(std::memchr(p, '\n', end_ - p));
      if (p == nullptr) break;
      ++p;
      line_starts_.push_back(p - begin_);
    }
  }
  Iter begin() const { return begin_; }
  Iter end() const { return end_; }

  Position At(Iter p) const {
    size_t offset = p - begin_;
    size_t line =
        std::upper_bound(line_starts_.begin(), line_starts_.end(), offset) -
        line_starts_.begin();
    return Position{static_cast<int>(line),
                    static_cast<int>(offset - line_starts_[line - 1] + 1)};
  }
  // The line holding `p`, without its line break (\n or \r\n).
  std::string_view LineOf(Iter p) const {
    size_t line = At(p).line;
    Iter b = begin_ + line_starts_[line - 1];
    Iter e = end_;
    if (line < line_starts_.size()) {
      e = begin_ + line_starts_[line] - 1;  // the \n
      if (e != b && e[-1] == '\r') --e;
    }
    return std::string_view(b, e - b);
  }

 private:
  Iter begin_;
  Iter end_;
  std::vector<size_t> line_starts_;
};

std::string Place(Position pos) {
  return "at " + std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

// ---------------------------------------------------------------------------
// Parse state and failures.

// The lowest address the parser lets its recursion reach on this thread:
// the thread's stack bottom plus a margin for the frames between two checks,
// exception unwinding and sanitizer overhead. The level limit
// (max_expression_depth) is what normally stops deep input; this stops it
// where stacks are small or frames big (threads with small stacks, ASan).
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

struct ParseState {
  const SourceMap& map;
  const ParseOptions& options;
  uintptr_t stack_floor;  // see StackFloor
  int depth = 0;          // brackets open around the current position
  int max_param = 0;      // largest parameter number so far
  // :name -> its number: the next number at its first use (SQLite's rule).
  std::vector<std::pair<std::string, int>> named_params;
  Statement result;
  Position Pos(Iter p) const { return map.At(p); }
};

// Thrown by tokens and actions; ParsePiece turns it into a Status.
struct Failure {
  Status::Code code;
  Iter where = nullptr;  // the offending token, or null when `pos` is set
  Position pos;
  std::string message;  // SyntaxError: what was expected
};

[[noreturn]] void Throw(Status::Code code, Iter where, std::string message) {
  throw Failure{code, where, Position{}, std::move(message)};
}

[[noreturn]] void ThrowDepth(const ParseState& st, Position pos,
                             bool stack = false) {
  throw Failure{Status::Code::kLimitExceeded, nullptr, pos,
                stack ? std::string("expression nesting exceeds the stack")
                      : "expression nesting exceeds the limit of " +
                            std::to_string(st.options.max_expression_depth)};
}

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

// An expression under construction: the subtree, its height, and scratch
// space for the rule that builds it.
struct PExpr {
  ExprPtr e;
  int height = 0;
  bool big = false;      // the bare integer literal 9223372036854775808
  bool neg = false;      // NOT seen before BETWEEN / IN / LIKE / NULL
  Expr* hole = nullptr;  // innermost prefix operator awaiting its operand
};

PExpr Leaf(const ParseState& st, ExprKind kind, Iter where) {
  PExpr v;
  v.e = std::make_unique<Expr>();
  v.e->kind = kind;
  v.e->pos = st.Pos(where);
  v.height = 1;
  return v;
}

void Grow(const ParseState& st, PExpr& v, int height) {
  if (height <= v.height) return;
  v.height = height;
  if (height > st.options.max_expression_depth) ThrowDepth(st, v.e->pos);
}

// Makes the tree built so far the first operand of a new `kind` node.
Expr& Wrap(const ParseState& st, PExpr& v, ExprKind kind) {
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

void Append(const ParseState& st, PExpr& v, PExpr&& child) {
  v.e->args.push_back(std::move(child.e));
  Grow(st, v, child.height + 1);
}

// A name or string as written, with where it starts.
struct Token {
  std::string text;
  Iter where = nullptr;
};

struct UnaryTok {
  UnaryOp op = UnaryOp::kPlus;
  Iter where = nullptr;
};

// ---------------------------------------------------------------------------
// Reserved words: cannot be bare identifiers or aliases. Sorted.

constexpr std::string_view kReserved[] = {
    "ALL",     "ALTER",   "AND",     "ARRAY",     "AS",         "BETWEEN",
    "CASE",    "CAST",    "CHECK",   "COLLATE",   "CONSTRAINT", "CREATE",
    "CROSS",   "DEFAULT", "DELETE",  "DISTINCT",  "DROP",       "ELSE",
    "ESCAPE",  "EXCEPT",  "EXISTS",  "FALSE",     "FOREIGN",    "FROM",
    "FULL",    "GLOB",    "GROUP",   "HAVING",    "IF",         "IN",
    "INDEX",   "INNER",   "INSERT",  "INTERSECT", "INTO",       "IS",
    "ISNULL",  "JOIN",    "LEFT",    "LIKE",      "LIMIT",      "MATCH",
    "NATURAL", "NOT",     "NOTNULL", "NULL",      "OFFSET",     "ON",
    "OR",      "ORDER",   "OUTER",   "PRIMARY",   "REFERENCES", "REGEXP",
    "RIGHT",   "SELECT",  "SET",     "TABLE",     "THEN",       "TRUE",
    "UNION",   "UNIQUE",  "UPDATE",  "USING",     "VALUES",     "WHEN",
    "WHERE",   "WINDOW",  "WITH",
};

bool IsReservedUpper(std::string_view upper) {
  return std::binary_search(std::begin(kReserved), std::end(kReserved), upper);
}

bool IsReservedSpan(Iter p, size_t n) {
  char buf[12];
  if (n > sizeof(buf) || n < 2) return false;
  for (size_t i = 0; i < n; ++i) buf[i] = Upper(p[i]);
  return IsReservedUpper(std::string_view(buf, n));
}

// ---------------------------------------------------------------------------
// Tokens: custom X3 primitives. Each skips blanks first and moves `first`
// only on success.

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
    if (static_cast<size_t>(last - p) < size) return false;
    for (size_t i = 0; i < size; ++i) {
      if (Upper(p[i]) != word[i]) return false;
    }
    if (p + size != last && IsIdentChar(p[size])) return false;
    Assign(attr, p);
    first = p + size;
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
    Iter p = SkipBlanks(first, last);
    if (p == last) return false;
    Token t;
    t.where = p;
    Iter q;
    if (*p == '"') {
      q = ScanQuoted(p, last, &t.text);
      if (q == nullptr || t.text.empty()) return false;
    } else {
      if (!IsIdentStart(*p)) return false;
      q = p + 1;
      while (q != last && IsIdentChar(*q)) ++q;
      if (!any_word && IsReservedSpan(p, q - p)) return false;
      t.text.resize(q - p);
      for (size_t i = 0; i < t.text.size(); ++i) t.text[i] = Lower(p[i]);
    }
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

// Scans a number at `p`. Returns its end, or null when `p` does not start a
// well-formed number (a trailing identifier character makes it malformed,
// as in SQLite: `12abc`). Integers beyond int64 become REAL; `big` reports
// the one that is INT64_MIN's magnitude.
Iter ScanNumber(Iter p, Iter end, Value* out, bool* big) {
  *big = false;
  Iter q = p;
  if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
      IsHex(p[2])) {
    q = p + 2;
    uint64_t v = 0;
    int digits = 0;
    for (; q != end && IsHex(*q); ++q) {
      int d = Nibble(*q);
      if (v != 0 || d != 0) ++digits;
      v = v << 4 | d;
    }
    if (q != end && IsIdentChar(*q)) return nullptr;
    if (digits > 16) {
      Throw(Status::Code::kSyntaxError, p,
            "hexadecimal literal of at most 16 digits");
    }
    *out = Value::Int(static_cast<int64_t>(v));  // two's complement
    return q;
  }
  bool integer = true;
  while (q != end && IsDigit(*q)) ++q;
  if (q != end && *q == '.') {
    integer = false;
    ++q;
    while (q != end && IsDigit(*q)) ++q;
  }
  if (q != end && (*q == 'e' || *q == 'E')) {
    Iter r = q + 1;
    if (r != end && (*r == '+' || *r == '-')) ++r;
    if (r == end || !IsDigit(*r)) return nullptr;
    while (r != end && IsDigit(*r)) ++r;
    integer = false;
    q = r;
  }
  if (q != end && IsIdentChar(*q)) return nullptr;
  if (integer) {
    uint64_t v = 0;
    bool overflow = false;
    for (Iter r = p; r != q; ++r) {
      unsigned d = *r - '0';
      if (v > (std::numeric_limits<uint64_t>::max() - d) / 10) {
        overflow = true;
        break;
      }
      v = v * 10 + d;
    }
    if (!overflow && v <= static_cast<uint64_t>(INT64_MAX)) {
      *out = Value::Int(static_cast<int64_t>(v));
      return q;
    }
    *big = !overflow && v == static_cast<uint64_t>(INT64_MAX) + 1;
  }
  double d = 0;
  auto [ptr, ec] = std::from_chars(p, q, d);
  if (ec != std::errc() || ptr != q) {
    // Out of range: strtod gives +-HUGE_VAL or 0 like SQLite.
    d = std::strtod(std::string(p, q).c_str(), nullptr);
  }
  *out = Value::Real(d);
  return q;
}

// Literals: numbers, 'text', x'blob', NULL, TRUE, FALSE.
struct literal_parser : token_base<literal_parser, PExpr> {
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx&, A& attr) const {
    Iter p = SkipBlanks(first, last);
    if (p == last) return false;
    Value value;
    bool big = false;
    Iter q = nullptr;
    char c = *p;
    if (IsDigit(c) || (c == '.' && last - p > 1 && IsDigit(p[1]))) {
      q = ScanNumber(p, last, &value, &big);
    } else if (c == '\'') {
      std::string text;
      q = ScanQuoted(p, last, &text);
      value = Value::Text(std::move(text));
    } else if ((c == 'x' || c == 'X') && last - p > 1 && p[1] == '\'') {
      std::string hex;
      q = ScanQuoted(p + 1, last, &hex);
      if (q == nullptr) return false;
      std::string bytes;
      bool ok = hex.size() % 2 == 0;
      for (size_t i = 0; ok && i < hex.size(); i += 2) {
        ok = IsHex(hex[i]) && IsHex(hex[i + 1]);
        bytes.push_back(
            static_cast<char>(Nibble(hex[i]) << 4 | Nibble(hex[i + 1])));
      }
      if (!ok) {
        Throw(Status::Code::kSyntaxError, p,
              "blob literal of hexadecimal digit pairs");
      }
      value = Value::Blob(std::move(bytes));
    } else if (IsIdentStart(c)) {
      q = p;
      while (q != last && IsIdentChar(*q)) ++q;
      std::string_view w(p, q - p);
      auto is = [w](const char* k) {
        return w.size() == std::strlen(k) &&
               std::equal(w.begin(), w.end(), k,
                          [](char a, char b) { return Upper(a) == b; });
      };
      if (is("NULL")) {
        value = Value::Null();
      } else if (is("TRUE")) {
        value = Value::Bool(true);
      } else if (is("FALSE")) {
        value = Value::Bool(false);
      } else {
        return false;
      }
    }
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
    PExpr v = Leaf(st, ExprKind::kParam, p);
    if (*p == ':') {
      if (q == p + 1) return false;
      v.e->name.assign(p + 1, q);
      for (const auto& [name, n] : st.named_params) {
        if (name == v.e->name) v.e->param_index = n;
      }
      if (v.e->param_index == 0) {
        v.e->param_index = ++st.max_param;
        st.named_params.emplace_back(v.e->name, v.e->param_index);
      }
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

// Binary operators of one precedence level.
enum class OpLevel { kEquality, kCompare, kAdd, kMultiply, kConcat };

template <OpLevel L>
struct binary_op_parser : token_base<binary_op_parser<L>, BinaryOp> {
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const&, RCtx&, A& attr) const {
    Iter p = SkipBlanks(first, last);
    if (p == last) return false;
    char c = p[0];
    char d = last - p > 1 ? p[1] : '\0';
    BinaryOp op;
    int n = 1;
    switch (L) {
      case OpLevel::kEquality:
        if (c == '=') {
          op = BinaryOp::kEq;
          n = d == '=' ? 2 : 1;
        } else if ((c == '<' && d == '>') || (c == '!' && d == '=')) {
          op = BinaryOp::kNe;
          n = 2;
        } else {
          return false;
        }
        break;
      case OpLevel::kCompare:
        if (c != '<' && c != '>') return false;
        if (d == '>' || d == '<') return false;  // <> << >>
        n = d == '=' ? 2 : 1;
        op = c == '<' ? (n == 2 ? BinaryOp::kLe : BinaryOp::kLt)
                      : (n == 2 ? BinaryOp::kGe : BinaryOp::kGt);
        break;
      case OpLevel::kAdd:
        if (c != '+' && c != '-') return false;
        op = c == '+' ? BinaryOp::kAdd : BinaryOp::kSub;
        break;
      case OpLevel::kMultiply:
        if (c == '*') {
          op = BinaryOp::kMul;
        } else if (c == '/') {
          op = BinaryOp::kDiv;
        } else if (c == '%') {
          op = BinaryOp::kMod;
        } else {
          return false;
        }
        break;
      case OpLevel::kConcat:
        if (c != '|' || d != '|') return false;
        op = BinaryOp::kConcat;
        n = 2;
        break;
    }
    Assign(attr, op);
    first = p + n;
    return true;
  }
};

// Prefix + and - (kSign), or NOT (kNot).
template <bool kNot>
struct prefix_op_parser : token_base<prefix_op_parser<kNot>, UnaryTok> {
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx,
             A& attr) const {
    Iter p = SkipBlanks(first, last);
    if constexpr (kNot) {
      It q = first;
      if (!kw("NOT").parse(q, last, ctx, rctx, x3::unused)) return false;
      Assign(attr, UnaryTok{UnaryOp::kNot, p});
      first = q;
    } else {
      if (p == last || (*p != '+' && *p != '-')) return false;
      Assign(attr, UnaryTok{*p == '+' ? UnaryOp::kPlus : UnaryOp::kMinus, p});
      first = p + 1;
    }
    return true;
  }
};

// A declared type's base name.
struct type_word_parser : token_base<type_word_parser, Type> {
  template <class It, class Ctx, class RCtx, class A>
  bool parse(It& first, It const& last, Ctx const& ctx, RCtx& rctx,
             A& attr) const {
    Iter p = SkipBlanks(first, last);
    Iter q = p;
    while (q != last && IsIdentChar(*q)) ++q;
    if (q == p || !IsIdentStart(*p)) return false;
    std::string w(q - p, ' ');
    for (size_t i = 0; i < w.size(); ++i) w[i] = Upper(p[i]);
    Type t;
    if (w == "INTEGER" || w == "INT" || w == "BIGINT") {
      t = Type::kInteger;
    } else if (w == "REAL" || w == "FLOAT") {
      t = Type::kReal;
    } else if (w == "DOUBLE") {
      t = Type::kReal;
      kw("PRECISION").parse(q, last, ctx, rctx, x3::unused);
    } else if (w == "TEXT" || w == "VARCHAR") {
      t = Type::kText;
    } else if (w == "BLOB") {
      t = Type::kBlob;
    } else if (w == "BOOLEAN") {
      t = Type::kBoolean;
    } else if (w == "TIMESTAMP") {
      t = Type::kTimestamp;
    } else if (IsReservedUpper(w)) {
      return false;
    } else {
      Throw(Status::Code::kNotSupported, p, "type " + w);
    }
    Assign(attr, t);
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

// Counts bracket nesting around `subject` against max_expression_depth.
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

}  // namespace
}  // namespace levelql::parser

// What an expectation names in "expected X": keywords by their spelling,
// punctuation quoted, rules by name, alternatives joined with " or ".
namespace boost::spirit::x3 {
namespace lq = levelql::parser;
template <bool P>
struct get_info<lq::keyword_parser<P>> {
  using result_type = std::string;
  std::string operator()(lq::keyword_parser<P> const& p) const {
    return p.word;
  }
};
template <>
struct get_info<lq::punct_parser> {
  using result_type = std::string;
  std::string operator()(lq::punct_parser const& p) const {
    return std::string("'") + p.c + "'";
  }
};
template <>
struct get_info<lq::ident_parser> {
  using result_type = std::string;
  std::string operator()(lq::ident_parser const&) const { return "identifier"; }
};
template <>
struct get_info<lq::end_parser> {
  using result_type = std::string;
  std::string operator()(lq::end_parser const&) const {
    return "end of statement";
  }
};
template <class S>
struct get_info<lq::reject_parser<S>> {
  using result_type = std::string;
  std::string operator()(lq::reject_parser<S> const&) const { return ""; }
};
template <class S, class A>
struct get_info<action<S, A>> {
  using result_type = std::string;
  std::string operator()(action<S, A> const& p) const {
    return what(p.subject);
  }
};
template <class S>
struct get_info<lq::nested_directive<S>> {
  using result_type = std::string;
  std::string operator()(lq::nested_directive<S> const& p) const {
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

namespace levelql::parser {
namespace {

// ---------------------------------------------------------------------------
// Semantic actions.

using x3::_attr;
using x3::_val;

ExprPtr Convert(PExpr&& p) { return std::move(p.e); }
std::string Convert(Token&& t) { return std::move(t.text); }
template <class T>
T&& Convert(T&& t) {
  return std::forward<T>(t);
}

// Actions that fill a member M of the rule's value (_val) from the parsed
// attribute (_attr).
template <auto M>
constexpr auto set_to =
    [](auto& ctx) { _val(ctx).*M = Convert(std::move(_attr(ctx))); };
template <auto M>
constexpr auto push_to =
    [](auto& ctx) { (_val(ctx).*M).push_back(Convert(std::move(_attr(ctx)))); };
template <auto M>
constexpr auto flag = [](auto& ctx) { _val(ctx).*M = true; };
// Name N and its position P from a Token.
template <auto N, auto P>
constexpr auto set_name_pos = [](auto& ctx) {
  _val(ctx).*P = St(ctx).Pos(_attr(ctx).where);
  _val(ctx).*N = std::move(_attr(ctx).text);
};

constexpr auto take = [](auto& ctx) { _val(ctx) = std::move(_attr(ctx)); };
constexpr auto take_paren = [](auto& ctx) {
  _val(ctx) = std::move(_attr(ctx));
  _val(ctx).big = false;  // -(9223372036854775808) stays REAL
};
constexpr auto push_self = [](auto& ctx) {
  _val(ctx).push_back(Convert(std::move(_attr(ctx))));
};

// Binary operators: wrap the left operand, then append the right one.
constexpr auto fold_binary = [](BinaryOp op) {
  return [op](auto& ctx) {
    Wrap(St(ctx), _val(ctx), ExprKind::kBinary).binary_op = op;
    Append(St(ctx), _val(ctx), std::move(_attr(ctx)));
  };
};
constexpr auto open_bin = [](auto& ctx) {
  Wrap(St(ctx), _val(ctx), ExprKind::kBinary).binary_op = _attr(ctx);
};
constexpr auto push = [](auto& ctx) {
  Append(St(ctx), _val(ctx), std::move(_attr(ctx)));
};
constexpr auto push_in = [](auto& ctx) {
  ParseState& st = St(ctx);
  if (_val(ctx).e->args.size() > st.options.max_in_list) {
    throw Failure{Status::Code::kLimitExceeded, nullptr, _attr(ctx).e->pos,
                  "IN list exceeds the limit of " +
                      std::to_string(st.options.max_in_list) + " items"};
  }
  Append(st, _val(ctx), std::move(_attr(ctx)));
};
constexpr auto open_node = [](ExprKind kind) {
  return [kind](auto& ctx) { Wrap(St(ctx), _val(ctx), kind); };
};
constexpr auto set_neg = [](auto& ctx) { _val(ctx).neg = true; };
constexpr auto make_is_null = [](bool negated) {
  return [negated](auto& ctx) {
    _val(ctx).neg = _val(ctx).neg || negated;
    Wrap(St(ctx), _val(ctx), ExprKind::kIsNull);
  };
};

// Prefix operators build top-down: each new operator hangs below the
// previous one (`hole`) until the operand arrives.
constexpr auto open_unary = [](auto& ctx) {
  ParseState& st = St(ctx);
  PExpr& v = _val(ctx);
  auto node = std::make_unique<Expr>();
  node->kind = ExprKind::kUnary;
  node->unary_op = _attr(ctx).op;
  node->pos = st.Pos(_attr(ctx).where);
  Expr* raw = node.get();
  if (v.e == nullptr) {
    v.e = std::move(node);
  } else {
    v.hole->args.push_back(std::move(node));
  }
  v.hole = raw;
  if (++v.height > st.options.max_expression_depth) ThrowDepth(st, raw->pos);
};
// The one folding the parser does: - 9223372036854775808 is INT64_MIN (as
// in SQLite), since 9223372036854775808 alone does not fit an INTEGER.
constexpr auto close_unary = [](auto& ctx) {
  ParseState& st = St(ctx);
  PExpr& v = _val(ctx);
  PExpr& operand = _attr(ctx);
  if (v.e == nullptr) {
    v = std::move(operand);
    return;
  }
  if (v.hole->unary_op == UnaryOp::kMinus && operand.big) {
    v.hole->kind = ExprKind::kLiteral;
    v.hole->unary_op = UnaryOp::kPlus;
    v.hole->literal = Value::Int(INT64_MIN);
  } else {
    v.hole->args.push_back(std::move(operand.e));
    v.height += operand.height;
    if (v.height > st.options.max_expression_depth) ThrowDepth(st, v.e->pos);
  }
  v.hole = nullptr;
};

constexpr auto start_node = [](ExprKind kind) {
  return [kind](auto& ctx) { _val(ctx) = Leaf(St(ctx), kind, _attr(ctx)); };
};
constexpr auto start_column = [](auto& ctx) {
  _val(ctx) = Leaf(St(ctx), ExprKind::kColumn, _attr(ctx).where);
  _val(ctx).e->name = std::move(_attr(ctx).text);
};
constexpr auto qualify = [](auto& ctx) {
  Expr& e = *_val(ctx).e;
  e.qualifier = std::move(e.name);
  e.name = std::move(_attr(ctx).text);
};
constexpr auto make_call = [](auto& ctx) {
  Expr& e = *_val(ctx).e;
  e.kind = ExprKind::kFunction;
  for (char& c : e.name) c = Lower(c);
};
constexpr auto set_star = [](auto& ctx) { _val(ctx).e->star = true; };
constexpr auto set_distinct = [](auto& ctx) { _val(ctx).e->distinct = true; };
constexpr auto set_cast_type = [](auto& ctx) {
  _val(ctx).e->cast_type = _attr(ctx);
};

constexpr auto set_item_pos = [](auto& ctx) {
  _val(ctx).pos = St(ctx).Pos(_attr(ctx));
};
constexpr auto star_item = [](auto& ctx) { _val(ctx).text = "*"; };
constexpr auto set_item_text = [](auto& ctx) {
  _val(ctx).text.assign(_attr(ctx).begin(), _attr(ctx).end());
};

constexpr auto set_check = [](Check::Target target) {
  return [target](auto& ctx) {
    _val(ctx).target = target;
    _val(ctx).name = std::move(_attr(ctx).text);
  };
};
constexpr auto set_insert_select = [](auto& ctx) {
  _val(ctx).select = std::make_unique<Select>(std::move(_attr(ctx)));
};
constexpr auto set_explained = [](auto& ctx) {
  _val(ctx).statement = std::make_unique<Statement>();
  _val(ctx).statement->node = std::move(_attr(ctx));
};
constexpr auto set_explained_text = [](auto& ctx) {
  Statement& s = *_val(ctx).statement;
  s.text.assign(_attr(ctx).begin(), _attr(ctx).end());
  s.pos = St(ctx).Pos(_attr(ctx).begin());
};
constexpr auto assign_node = [](auto& ctx) {
  _val(ctx).node = std::move(_attr(ctx));
};
template <class T>
constexpr auto assign_empty = [](auto& ctx) { _val(ctx).node = T{}; };
constexpr auto take_statement = [](auto& ctx) {
  St(ctx).result = std::move(_attr(ctx));
};

// ---------------------------------------------------------------------------
// The grammar.

constexpr nested_gen nested{};
constexpr punct_parser ch_lparen('('), ch_rparen(')'), ch_comma(','),
    ch_dot('.'), ch_star('*'), ch_eq('='), ch_lbracket('['), ch_rbracket(']');
constexpr ident_parser ident_tok(false);
constexpr string_parser string_tok{};
constexpr literal_parser literal_tok{};
constexpr param_parser param_tok{};
constexpr binary_op_parser<OpLevel::kEquality> eq_op{};
constexpr binary_op_parser<OpLevel::kCompare> cmp_op{};
constexpr binary_op_parser<OpLevel::kAdd> add_op{};
constexpr binary_op_parser<OpLevel::kMultiply> mul_op{};
constexpr binary_op_parser<OpLevel::kConcat> concat_op{};
constexpr prefix_op_parser<false> sign_op{};
constexpr prefix_op_parser<true> not_op{};
constexpr type_word_parser type_word{};
constexpr unsigned_parser unsigned_tok{};
constexpr pragma_value_parser pragma_value{};
constexpr here_parser here{};
constexpr end_parser end_of_statement{};

const auto join_word = kw("JOIN") | kw("INNER") | kw("LEFT") | kw("RIGHT") |
                       kw("FULL") | kw("CROSS") | kw("NATURAL") | kw("OUTER");

x3::rule<struct expr_id, PExpr> const expr = "expression";
x3::rule<struct or_id, PExpr> const or_expr = "expression";
x3::rule<struct and_id, PExpr> const and_expr = "expression";
x3::rule<struct not_id, PExpr> const not_expr = "expression";
x3::rule<struct eq_id, PExpr> const eq_expr = "expression";
x3::rule<struct cmp_id, PExpr> const cmp_expr = "expression";
x3::rule<struct add_id, PExpr> const add_expr = "expression";
x3::rule<struct mul_id, PExpr> const mul_expr = "expression";
x3::rule<struct cat_id, PExpr> const cat_expr = "expression";
x3::rule<struct unary_id, PExpr> const unary_expr = "expression";
x3::rule<struct primary_id, PExpr> const primary = "expression";
x3::rule<struct cast_id, PExpr> const cast_expr = "CAST";
x3::rule<struct array_id, PExpr> const array_expr = "ARRAY";
x3::rule<struct column_or_call_id, PExpr> const column_or_call = "expression";
x3::rule<struct type_name_id, TypeName> const type_name = "type name";

auto const expr_def = or_expr;
auto const or_expr_def = and_expr[take] >>
                         *(kw("OR") > and_expr[fold_binary(BinaryOp::kOr)]);
auto const and_expr_def = not_expr[take] >>
                          *(kw("AND") > not_expr[fold_binary(BinaryOp::kAnd)]);
auto const not_expr_def = *not_op[open_unary] >> eq_expr[close_unary];

// The equality level: binary = == <> != and the postfix forms.
auto const operand_start = literal_tok | ident_tok | param_tok | ch_lparen |
                           sign_op | kw("NOT") | kw("DISTINCT") | kw("CAST") |
                           kw("ARRAY");
auto const null_tail = kw("NULL")[make_is_null(false)];
auto const between_tail = kw("BETWEEN")[open_node(ExprKind::kBetween)] >
                          nested[eq_expr][push] > kw("AND") > cmp_expr[push];
auto const in_item = nested[expr][push_in];
auto const in_tail = kw("IN")[open_node(ExprKind::kIn)] > ch_lparen >
                     (reject(kw("SELECT"), "subquery") |
                      -(in_item >> *(ch_comma > in_item))) > ch_rparen;
auto const like_tail = kw("LIKE")[open_node(ExprKind::kLike)] >
                       cmp_expr[push] >> -(kw("ESCAPE") > cmp_expr[push]);
auto const negatable_tail = between_tail | in_tail | like_tail;
auto const eq_tail =
    (eq_op[open_bin] > cmp_expr[push]) | negatable_tail |
    (kw("IS") > -kw("NOT")[set_neg] >
     (null_tail | reject(operand_start, "IS other than IS [NOT] NULL"))) |
    (kw("NOT")[set_neg] > (negatable_tail | null_tail)) |
    kw("ISNULL")[make_is_null(false)] | kw("NOTNULL")[make_is_null(true)];
auto const eq_expr_def = cmp_expr[take] >> *eq_tail;

auto const cmp_expr_def = add_expr[take] >>
                          *(cmp_op[open_bin] > add_expr[push]);
auto const add_expr_def = mul_expr[take] >>
                          *(add_op[open_bin] > mul_expr[push]);
auto const mul_expr_def = cat_expr[take] >>
                          *(mul_op[open_bin] > cat_expr[push]);
auto const cat_expr_def = unary_expr[take] >>
                          *(concat_op[open_bin] > unary_expr[push]);
auto const unary_expr_def = *sign_op[open_unary] >> primary[close_unary];

auto const call_args = nested[expr][push] >> *(ch_comma > nested[expr][push]);
auto const column_or_call_def =
    ident_tok[start_column] >>
    -((ch_dot >
       (ident_tok[qualify] | reject(ch_star, "table.* in a select list"))) |
      (ch_lparen[make_call] >
       (ch_star[set_star] |
        ((kw("DISTINCT")[set_distinct] | kw("ALL")) > call_args) | -call_args) >
       ch_rparen >> -reject(kw("OVER"), "window function") >>
       -reject(kw("FILTER"), "FILTER clause")));
auto const cast_expr_def = kw_at("CAST")[start_node(ExprKind::kCast)] >
                           ch_lparen > nested[expr][push] >
                           kw("AS") > type_name[set_cast_type] > ch_rparen;
auto const array_expr_def = kw_at("ARRAY")[start_node(ExprKind::kArray)] >
                            ch_lbracket >
                            -(nested[expr][push] >>
                              *(ch_comma > nested[expr][push])) > ch_rbracket;
// Reserved words cannot start column_or_call, so what follows it is tried
// only when it fails.
auto const primary_def = literal_tok[take] | column_or_call[take] |
                         (ch_lparen > (reject(kw("SELECT"), "subquery") |
                                       nested[expr][take_paren]) > ch_rparen) |
                         param_tok[take] | cast_expr[take] | array_expr[take] |
                         (&kw("NOT") >> nested[not_expr][take]);

auto const type_name_def = type_word[set_to<&TypeName::type>] >>
                           -(ch_lparen >
                             unsigned_tok[set_to<&TypeName::length>] >
                             -(ch_comma > unsigned_tok) > ch_rparen) >>
                           -(ch_lbracket >
                             ch_rbracket)[flag<&TypeName::is_list>];

BOOST_SPIRIT_DEFINE(expr, or_expr, and_expr, not_expr, eq_expr, cmp_expr,
                    add_expr, mul_expr, cat_expr, unary_expr, primary,
                    cast_expr, array_expr, column_or_call, type_name)

// Names.
x3::rule<struct table_name_id, Token> const table_name = "table name";
x3::rule<struct index_name_id, Token> const index_name = "index name";
x3::rule<struct column_name_id, Token> const column_name = "column name";
x3::rule<struct alias_name_id, Token> const alias_name = "alias";
x3::rule<struct collation_id, Token> const collation_name = "collation name";
auto const table_name_def = ident_tok;
auto const index_name_def = ident_tok;
auto const column_name_def = ident_tok;
auto const alias_name_def = ident_tok | string_tok;
auto const collation_name_def = ident_tok | string_tok;
BOOST_SPIRIT_DEFINE(table_name, index_name, column_name, alias_name,
                    collation_name)

// SELECT.
x3::rule<struct select_item_id, SelectItem> const select_item = "expression";
x3::rule<struct order_item_id, OrderItem> const order_item = "expression";
x3::rule<struct select_id, Select> const select_stmt = "SELECT";

auto const select_item_def =
    here[set_item_pos] >>
    (ch_star[star_item] |
     (x3::raw[expr[set_to<&SelectItem::expr>]][set_item_text] >>
      -((kw("AS") > alias_name[set_to<&SelectItem::alias>]) |
        ident_tok[set_to<&SelectItem::alias>])));
auto const order_item_def = expr[set_to<&OrderItem::expr>] >>
                            -(kw("ASC") | kw("DESC")[flag<&OrderItem::desc>]) >>
                            -reject(kw("NULLS"), "NULLS FIRST / NULLS LAST");
auto const from_table =
    (reject(ch_lparen, "subquery") |
     table_name[set_name_pos<&Select::table, &Select::table_pos>]) >>
    -((kw("AS") > ident_tok[set_to<&Select::alias>]) |
      ident_tok[set_to<&Select::alias>]) >>
    -reject(ch_comma | join_word, "JOIN");
auto const select_stmt_def =
    (kw("SELECT") >> -(kw("DISTINCT")[flag<&Select::distinct>] | kw("ALL"))) >
    (select_item[push_to<&Select::items>] >>
     *(ch_comma > select_item[push_to<&Select::items>])) > kw("FROM") >
    (from_table >> -(kw("WHERE") > expr[set_to<&Select::where>]) >>
     -(kw("ORDER") > kw("BY") > order_item[push_to<&Select::order_by>] >>
       *(ch_comma > order_item[push_to<&Select::order_by>])) >>
     -(kw("LIMIT") > expr[set_to<&Select::limit>] >>
       -((kw("OFFSET") > expr[set_to<&Select::offset>]) |
         reject(ch_comma, "LIMIT with a comma (use LIMIT n OFFSET m)"))));
BOOST_SPIRIT_DEFINE(select_item, order_item, select_stmt)

// INSERT, UPDATE, DELETE.
x3::rule<struct row_id, std::vector<ExprPtr>> const value_row = "'('";
x3::rule<struct insert_id, Insert> const insert_stmt = "INSERT";
x3::rule<struct assignment_id, Assignment> const assignment = "column name";
x3::rule<struct update_id, Update> const update_stmt = "UPDATE";
x3::rule<struct delete_id, Delete> const delete_stmt = "DELETE";

auto const value_row_def = ch_lparen >
                           (expr[push_self] >>
                            *(ch_comma > expr[push_self])) > ch_rparen;
auto const insert_stmt_def =
    (kw("INSERT") >> -reject(kw("OR"), "INSERT OR ...")) > kw("INTO") >
    (table_name[set_name_pos<&Insert::table, &Insert::table_pos>] >>
     -(ch_lparen > (column_name[push_to<&Insert::columns>] >>
                    *(ch_comma > column_name[push_to<&Insert::columns>])) >
       ch_rparen)) >
    (((kw("VALUES") > (value_row[push_to<&Insert::rows>] >>
                       *(ch_comma > value_row[push_to<&Insert::rows>]))) |
      select_stmt[set_insert_select] |
      reject(kw("DEFAULT"), "DEFAULT VALUES")) >>
     -reject(kw("ON"), "ON CONFLICT") >> -reject(kw("RETURNING"), "RETURNING"));
auto const assignment_def =
    column_name[set_name_pos<&Assignment::column, &Assignment::pos>] > ch_eq >
    expr[set_to<&Assignment::value>];
auto const update_stmt_def =
    (kw("UPDATE") >> -reject(kw("OR"), "UPDATE OR ...")) >
    table_name[set_name_pos<&Update::table, &Update::table_pos>] > kw("SET") >
    (assignment[push_to<&Update::assignments>] >>
     *(ch_comma > assignment[push_to<&Update::assignments>]) >>
     -(kw("WHERE") > expr[set_to<&Update::where>]) >>
     -reject(kw("FROM"), "UPDATE ... FROM") >>
     -reject(kw("RETURNING"), "RETURNING"));
auto const delete_stmt_def =
    kw("DELETE") > kw("FROM") >
    (table_name[set_name_pos<&Delete::table, &Delete::table_pos>] >>
     -(kw("WHERE") > expr[set_to<&Delete::where>]) >>
     -reject(kw("RETURNING"), "RETURNING"));
BOOST_SPIRIT_DEFINE(value_row, insert_stmt, assignment, update_stmt,
                    delete_stmt)

// CREATE and DROP.
x3::rule<struct default_id, PExpr> const default_value = "default value";
x3::rule<struct index_column_id, IndexColumn> const index_column =
    "column name";
x3::rule<struct column_def_id, ColumnDef> const column_def =
    "column definition";
x3::rule<struct create_table_id, CreateTable> const create_table = "TABLE";
x3::rule<struct create_index_id, CreateIndex> const create_index = "INDEX";
x3::rule<struct drop_table_id, DropTable> const drop_table = "TABLE";
x3::rule<struct drop_index_id, DropIndex> const drop_index = "INDEX";

auto const if_not_exists = kw("IF") > kw("NOT") > kw("EXISTS");
auto const if_exists = kw("IF") > kw("EXISTS");
auto const default_value_def =
    (ch_lparen > nested[expr][take_paren] > ch_rparen) |
    (*sign_op[open_unary] >>
     (literal_tok[close_unary] | array_expr[close_unary]));
auto const index_column_def =
    column_name[set_name_pos<&IndexColumn::name, &IndexColumn::pos>] >>
    -(kw("COLLATE") > collation_name[set_to<&IndexColumn::collation>]) >>
    -(kw("ASC") | kw("DESC")[flag<&IndexColumn::desc>]);
auto const column_constraint =
    ((kw("PRIMARY") > kw("KEY"))[flag<&ColumnDef::primary_key>] >>
     -(kw("ASC") | kw("DESC")[flag<&ColumnDef::primary_key_desc>]) >>
     -reject(kw("AUTOINCREMENT"), "AUTOINCREMENT")) |
    (kw("NOT") > kw("NULL"))[flag<&ColumnDef::not_null>] | kw("NULL") |
    kw("UNIQUE")[flag<&ColumnDef::unique>] |
    (kw("COLLATE") > collation_name[set_to<&ColumnDef::collation>]) |
    (kw("DEFAULT") > default_value[set_to<&ColumnDef::default_value>]) |
    reject(kw("CHECK"), "CHECK constraint") |
    reject(kw("REFERENCES"), "REFERENCES") |
    reject(kw("CONSTRAINT"), "named constraint") |
    reject(kw("GENERATED") | kw("AS"), "generated column");
auto const column_def_def =
    column_name[set_name_pos<&ColumnDef::name, &ColumnDef::pos>] >
    type_name[set_to<&ColumnDef::type>] >> *column_constraint;
auto const table_element =
    column_def[push_to<&CreateTable::columns>] |
    (kw("PRIMARY") > kw("KEY") > ch_lparen >
     (index_column[push_to<&CreateTable::primary_key>] >>
      *(ch_comma > index_column[push_to<&CreateTable::primary_key>])) >
     ch_rparen) |
    reject(kw("UNIQUE") | kw("CHECK") | kw("FOREIGN") | kw("CONSTRAINT"),
           "table constraint other than PRIMARY KEY");
auto const create_table_def =
    kw("TABLE") > -if_not_exists[flag<&CreateTable::if_not_exists>] >
    (table_name[set_to<&CreateTable::name>] >>
     -reject(kw("AS"), "CREATE TABLE ... AS SELECT")) > ch_lparen
    > (table_element >> *(ch_comma > table_element)) >
    (ch_rparen >> -reject(kw("WITHOUT"), "WITHOUT ROWID"));
auto const create_index_def =
    (-kw("UNIQUE")[flag<&CreateIndex::unique>] >> kw("INDEX")) >
    -if_not_exists[flag<&CreateIndex::if_not_exists>] >
    index_name[set_to<&CreateIndex::name>] >
    kw("ON") > table_name[set_to<&CreateIndex::table>] > ch_lparen >
    (index_column[push_to<&CreateIndex::columns>] >>
     *(ch_comma > index_column[push_to<&CreateIndex::columns>])) >
    (ch_rparen >>
     -(kw("INCLUDE") > ch_lparen >
       (column_name[push_to<&CreateIndex::include>] >>
        *(ch_comma > column_name[push_to<&CreateIndex::include>])) >
       ch_rparen) >>
     -reject(kw("WHERE"), "partial index"));
auto const drop_table_def = kw("TABLE") >
                            -if_exists[flag<&DropTable::if_exists>] >
                            table_name[set_to<&DropTable::name>];
auto const drop_index_def = kw("INDEX") >
                            -if_exists[flag<&DropIndex::if_exists>] >
                            index_name[set_to<&DropIndex::name>];
BOOST_SPIRIT_DEFINE(default_value, index_column, column_def, create_table,
                    create_index, drop_table, drop_index)

// The rest.
x3::rule<struct explain_id, Explain> const explain_stmt = "EXPLAIN";
x3::rule<struct analyze_id, Analyze> const analyze_stmt = "ANALYZE";
x3::rule<struct check_id, Check> const check_stmt = "CHECK";
x3::rule<struct begin_id> const begin_stmt = "BEGIN";
x3::rule<struct commit_id> const commit_stmt = "COMMIT";
x3::rule<struct rollback_id> const rollback_stmt = "ROLLBACK";
x3::rule<struct pragma_id, Pragma> const pragma_stmt = "PRAGMA";
x3::rule<struct statement_id, Statement> const statement = "statement";

auto const explain_stmt_def =
    (kw("EXPLAIN") >> -reject(kw("QUERY"), "EXPLAIN QUERY PLAN") >>
     -kw("ANALYZE")[flag<&Explain::analyze>]) >
    x3::raw[select_stmt[set_explained] | update_stmt[set_explained] |
            delete_stmt[set_explained]][set_explained_text];
auto const analyze_stmt_def =
    kw("ANALYZE") >> -table_name[set_to<&Analyze::table>];
auto const check_stmt_def =
    kw("CHECK") >>
    -((kw("TABLE") > table_name[set_check(Check::Target::kTable)]) |
      (kw("INDEX") > index_name[set_check(Check::Target::kIndex)]));
auto const begin_stmt_def = kw("BEGIN") >> -(kw("DEFERRED") | kw("IMMEDIATE") |
                                             kw("EXCLUSIVE")) >>
                            -kw("TRANSACTION");
auto const commit_stmt_def = (kw("COMMIT") | kw("END")) >> -kw("TRANSACTION");
auto const rollback_stmt_def = kw("ROLLBACK") >> -kw("TRANSACTION") >>
                               -reject(kw("TO"), "ROLLBACK TO SAVEPOINT");
auto const pragma_stmt_def =
    kw("PRAGMA") > ident_tok[set_to<&Pragma::name>] >>
    -((ch_eq > pragma_value[set_to<&Pragma::value>]) |
      (ch_lparen > pragma_value[set_to<&Pragma::value>] > ch_rparen));
auto const statement_def =
    select_stmt[assign_node] | insert_stmt[assign_node] |
    update_stmt[assign_node] | delete_stmt[assign_node] |
    (kw("CREATE") > (create_table[assign_node] | create_index[assign_node] |
                     reject(kw("VIEW"), "CREATE VIEW") |
                     reject(kw("TRIGGER"), "CREATE TRIGGER") |
                     reject(kw("TEMP") | kw("TEMPORARY"), "CREATE TEMP") |
                     reject(kw("VIRTUAL"), "CREATE VIRTUAL TABLE"))) |
    (kw("DROP") > (drop_table[assign_node] | drop_index[assign_node] |
                   reject(kw("VIEW"), "DROP VIEW") |
                   reject(kw("TRIGGER"), "DROP TRIGGER"))) |
    explain_stmt[assign_node] | analyze_stmt[assign_node] |
    check_stmt[assign_node] | begin_stmt[assign_empty<Begin>] |
    commit_stmt[assign_empty<Commit>] | rollback_stmt[assign_empty<Rollback>] |
    pragma_stmt[assign_node] | reject(kw("WITH"), "WITH") |
    reject(kw("REPLACE"), "REPLACE") | reject(kw("ALTER"), "ALTER TABLE") |
    reject(kw("VACUUM"), "VACUUM") |
    reject(kw("ATTACH") | kw("DETACH"), "ATTACH") |
    reject(kw("REINDEX"), "REINDEX") |
    reject(kw("SAVEPOINT") | kw("RELEASE"), "SAVEPOINT") |
    reject(kw("VALUES"), "VALUES as a statement");
BOOST_SPIRIT_DEFINE(explain_stmt, analyze_stmt, check_stmt, begin_stmt,
                    commit_stmt, rollback_stmt, pragma_stmt, statement)

// ---------------------------------------------------------------------------
// Error messages.

// The token at `p`, for "near ...".
std::string Near(Iter p, Iter end) {
  if (p == end) return "end of input";
  Iter q = p;
  if ((*p == 'x' || *p == 'X') && end - p > 1 && p[1] == '\'') {
    q = ScanQuoted(p + 1, end, nullptr);
    if (q == nullptr) q = end;
  } else if (IsIdentChar(*p) || *p == '.' || *p == '?' || *p == ':') {
    do {
      ++q;
    } while (q != end && (IsIdentChar(*q) || *q == '.'));
  } else if (*p == '\'' || *p == '"') {
    q = ScanQuoted(p, end, nullptr);
    if (q == nullptr) q = end;
  } else {
    static constexpr std::string_view kTwo[] = {"<=", ">=", "<>",
                                                "!=", "==", "||"};
    q = p + 1;
    for (std::string_view t : kTwo) {
      if (end - p >= 2 && std::string_view(p, 2) == t) q = p + 2;
    }
  }
  std::string tok;
  for (Iter r = p; r != q && r != p + 40; ++r) {
    if (static_cast<unsigned char>(*r) < 0x20) {
      static constexpr char kHex[] = "0123456789abcdef";
      tok += {'\\', 'x', kHex[*r >> 4], kHex[*r & 15]};
    } else {
      tok += *r;
    }
  }
  if (q - p > 40) tok += "...";
  return "\"" + tok + "\"";
}

// "\n<source line>\n<caret under p>", a window of the line when it is long.
std::string Excerpt(const SourceMap& map, Iter p) {
  std::string_view line = map.LineOf(p);
  size_t col = std::min<size_t>(p - line.data(), line.size());
  size_t from = col > 60 ? col - 60 : 0;
  size_t to = std::min(line.size(), col + 60);
  std::string out = "\n";
  if (from > 0) out += "...";
  for (char c : line.substr(from, to - from)) {
    out += static_cast<unsigned char>(c) < 0x20 && c != '\t' ? ' ' : c;
  }
  if (to < line.size()) out += "...";
  out += '\n';
  if (from > 0) out += "   ";
  for (size_t i = from; i < col; ++i) {
    char c = line[i];
    if ((static_cast<unsigned char>(c) & 0xC0) == 0x80) continue;  // UTF-8
    out += c == '\t' ? '\t' : ' ';
  }
  out += '^';
  return out;
}

// "a or b or c" -> "a, b or c".
std::string Tidy(std::string what) {
  for (size_t i = what.find(" or ");
       i != std::string::npos && what.find(" or ", i + 4) != std::string::npos;
       i = what.find(" or ", i)) {
    what.replace(i, 4, ", ");
  }
  return what;
}

// Keywords that start constructs outside the dialect, for syntax errors at
// places the grammar does not check explicitly.
const char* UnsupportedAt(Iter p, Iter end) {
  Iter q = p;
  while (q != end && IsIdentChar(*q)) ++q;
  std::string w(q - p, ' ');
  for (size_t i = 0; i < w.size(); ++i) w[i] = Upper(p[i]);
  static constexpr std::pair<std::string_view, const char*> kWords[] = {
      {"GROUP", "GROUP BY"},
      {"HAVING", "HAVING"},
      {"JOIN", "JOIN"},
      {"INNER", "JOIN"},
      {"LEFT", "JOIN"},
      {"RIGHT", "JOIN"},
      {"FULL", "JOIN"},
      {"CROSS", "JOIN"},
      {"NATURAL", "JOIN"},
      {"OUTER", "JOIN"},
      {"UNION", "UNION"},
      {"INTERSECT", "INTERSECT"},
      {"EXCEPT", "EXCEPT"},
      {"WINDOW", "window function"},
      {"OVER", "window function"},
      {"RETURNING", "RETURNING"},
      {"CASE", "CASE"},
      {"EXISTS", "EXISTS"},
      {"WITH", "WITH"},
      {"COLLATE", "COLLATE in an expression"},
      {"GLOB", "GLOB"},
      {"REGEXP", "REGEXP"},
      {"MATCH", "MATCH"},
  };
  for (const auto& [word, construct] : kWords) {
    if (w != word) continue;
    Iter next = SkipBlanks(q, end);
    if (w == "OVER" && (next == end || *next != '(')) return nullptr;
    return construct;
  }
  return nullptr;
}

Status SyntaxErrorAt(const SourceMap& map, Iter where, Iter end,
                     const std::string& expected) {
  Iter p = SkipBlanks(where, end);
  std::string place = Place(map.At(p));
  if (const char* construct = UnsupportedAt(p, end)) {
    return Status::NotSupported(place + ": " + construct);
  }
  return Status::SyntaxError(place + ": expected " + Tidy(expected) + " near " +
                             Near(p, end) + Excerpt(map, p));
}

struct Piece {
  Iter begin;
  Iter end;
};

Result<Statement> ParsePiece(const SourceMap& map, Piece piece,
                             const ParseOptions& options) {
  size_t size = piece.end - piece.begin;
  if (size > options.max_statement_length) {
    return Status::LimitExceeded("statement is " + std::to_string(size) +
                                 " bytes; the limit is " +
                                 std::to_string(options.max_statement_length));
  }
  ParseState st{map, options, StackFloor(), 0, 0, {}, Statement{}};
  Iter first = piece.begin;
  try {
    x3::phrase_parse(
        first, piece.end,
        x3::with<state_tag>(
            st)[x3::expect[statement[take_statement]] > end_of_statement],
        skipper_parser{});
  } catch (const x3::expectation_failure<Iter>& e) {
    return SyntaxErrorAt(map, e.where(), piece.end, e.which());
  } catch (const Failure& f) {
    Iter p = f.where ? SkipBlanks(f.where, piece.end) : nullptr;
    std::string place = Place(p ? map.At(p) : f.pos);
    if (f.code == Status::Code::kSyntaxError) {
      return Status::SyntaxError(place + ": expected " + f.message + " near " +
                                 Near(p, piece.end) + Excerpt(map, p));
    }
    return Status(f.code == Status::Code::kNotSupported
                      ? Status::NotSupported(place + ": " + f.message)
                      : Status::LimitExceeded(place + ": " + f.message));
  } catch (const std::bad_alloc&) {
    return Status::LimitExceeded("out of memory parsing a statement of " +
                                 std::to_string(size) + " bytes");
  }
  st.result.pos = map.At(piece.begin);
  st.result.text.assign(piece.begin, piece.end);
  return std::move(st.result);
}

// Cuts the script into statements at `;` outside strings, quoted
// identifiers and comments; each piece runs from its first token to the end
// of its last one.
Status Split(const SourceMap& map, std::vector<Piece>* pieces) {
  Iter p = map.begin();
  Iter end = map.end();
  Iter start = nullptr;
  Iter last = nullptr;
  for (;;) {
    // Blanks and comments (SkipBlanks would run an unterminated one out).
    while (p != end) {
      if (IsSpace(*p)) {
        ++p;
      } else if (*p == '-' && end - p >= 2 && p[1] == '-') {
        p = static_cast<Iter>(std::memchr(p, '\n', end - p));
        if (p == nullptr) p = end;
      } else if (*p == '/' && end - p >= 2 && p[1] == '*') {
        Iter q = p + 2;
        while (end - q >= 2 && !(q[0] == '*' && q[1] == '/')) ++q;
        if (end - q < 2) {
          return Status::SyntaxError(Place(map.At(p)) +
                                     ": unterminated block comment" +
                                     Excerpt(map, p));
        }
        p = q + 2;
      } else {
        break;
      }
    }
    if (p == end) break;
    char c = *p;
    if (c == ';') {
      if (start) pieces->push_back({start, last});
      start = nullptr;
      ++p;
      continue;
    }
    if (start == nullptr) start = p;
    if (c == '\'' || c == '"') {
      Iter q = ScanQuoted(p, end, nullptr);
      if (q == nullptr) {
        return Status::SyntaxError(Place(map.At(p)) +
                                   (c == '\''
                                        ? ": unterminated string literal"
                                        : ": unterminated quoted identifier") +
                                   Excerpt(map, p));
      }
      p = last = q;
      continue;
    }
    do {
      ++p;
    } while (p != end && IsIdentChar(*p) && IsIdentChar(p[-1]));
    last = p;
  }
  if (start) pieces->push_back({start, last});
  return Status::OK();
}

}  // namespace

bool IsReservedWord(std::string_view word) {
  return IsReservedSpan(word.data(), word.size());
}

Result<std::vector<Statement>> ParseScript(std::string_view sql,
                                           const ParseOptions& options) {
  SourceMap map(sql);
  std::vector<Piece> pieces;
  LQ_RETURN_IF_ERROR(Split(map, &pieces));
  std::vector<Statement> out;
  out.reserve(pieces.size());
  for (const Piece& piece : pieces) {
    LQ_ASSIGN_OR_RETURN(Statement s, ParsePiece(map, piece, options));
    out.push_back(std::move(s));
  }
  return out;
}

Result<Statement> ParseStatement(std::string_view sql,
                                 const ParseOptions& options) {
  SourceMap map(sql);
  std::vector<Piece> pieces;
  LQ_RETURN_IF_ERROR(Split(map, &pieces));
  if (pieces.empty()) {
    return SyntaxErrorAt(map, map.end(), map.end(), "statement");
  }
  if (pieces.size() > 1) {
    Iter p = pieces[1].begin;
    return Status::SyntaxError(Place(map.At(p)) +
                               ": expected one statement near " +
                               Near(p, map.end()) + Excerpt(map, p));
  }
  return ParsePiece(map, pieces[0], options);
}

bool IsComplete(std::string_view sql) {
  Iter p = sql.data();
  Iter end = p + sql.size();
  bool complete = false;
  while (p != end) {
    char c = *p;
    if (IsSpace(c)) {
      ++p;
    } else if (c == '-' && end - p >= 2 && p[1] == '-') {
      p = static_cast<Iter>(std::memchr(p, '\n', end - p));
      if (p == nullptr) break;
    } else if (c == '/' && end - p >= 2 && p[1] == '*') {
      Iter q = p + 2;
      while (end - q >= 2 && !(q[0] == '*' && q[1] == '/')) ++q;
      if (end - q < 2) return false;
      p = q + 2;
    } else if (c == '\'' || c == '"') {
      p = ScanQuoted(p, end, nullptr);
      if (p == nullptr) return false;
      complete = false;
    } else {
      complete = c == ';';
      ++p;
    }
  }
  return complete;
}

}  // namespace levelql::parser
