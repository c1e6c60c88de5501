// The SQL grammar of the levelql dialect (docs/DIALECT.md), written with
// Boost.Spirit X3. This file and grammar_tokens.h (included here only) are
// the only ones that include Spirit, so it is compiled once.
//
// The statement text comes from the lexer's ScanScript (lexer.h), which has
// already cut the script at `;` and reported unterminated strings and
// comments. Tokens are custom X3 primitives over the lexer's scanners
// (grammar_tokens.h). Trees are built by semantic actions: each expression
// rule carries a PExpr (parse_state.h: the subtree plus its height), binary
// levels fold left by wrapping the tree built so far, and prefix operators
// are collected iteratively, so only brackets make the parser recurse.
//
// Errors: `a > b` expectation points throw x3::expectation_failure, whose
// `which` names what was expected; actions and the token parsers throw
// ParseError for malformed tokens, constructs outside the dialect
// (NotSupported) and limits. ParseOneStatement turns both into a Status
// with parse_error.h; no exception leaves this file.
//
// Limits: the nesting of brackets (and of NOT used as an operand) is counted
// by the `nested` directive, and the height of every subtree is checked as it
// is built, so neither 100,000 parentheses nor 100,000 prefix minus signs
// can overflow the stack: both stop at max_expression_depth. The directive
// also stops recursion short of the thread's stack end (about 1.5 KB of
// stack per bracket level in a release build, so 1000 levels need 1.5 MB).
#define LEVELQL_PARSER_GRAMMAR_CC_
#include "parser/grammar.h"

#include <new>

#include "parser/grammar_tokens.h"
#include "parser/parse_error.h"
#include "parser/parse_state.h"

namespace levelql::parser::grammar {
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
    throw ParseError{Status::Code::kLimitExceeded, nullptr, _attr(ctx).e->pos,
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
// in SQLite), since 9223372036854775808 alone does not fit an INTEGER; so
// is -(9223372036854775808): parentheses keep `big`.
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

constexpr auto wrap_collate = [](auto& ctx) {
  Wrap(St(ctx), _val(ctx), ExprKind::kCollate).name =
      Convert(std::move(_attr(ctx)));
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
// The SELECT of a subquery, an EXISTS or an IN, into the node made for it.
constexpr auto set_subquery = [](auto& ctx) {
  _val(ctx).e->subquery = std::make_shared<Select>(std::move(_attr(ctx)));
};
// `x IN t` (SQLite's shorthand): x IN (SELECT * FROM t).
constexpr auto set_in_table = [](auto& ctx) {
  auto select = std::make_shared<Select>();
  const Position pos = St(ctx).Pos(_attr(ctx).where);
  SelectItem star;
  star.text = "*";
  star.pos = pos;
  select->items.push_back(std::move(star));
  select->table = std::move(_attr(ctx).text);
  select->table_pos = pos;
  _val(ctx).e->subquery = std::move(select);
};
constexpr auto set_distinct = [](auto& ctx) { _val(ctx).e->distinct = true; };
template <auto H>
constexpr auto set_not_indexed =
    [](auto& ctx) { (_val(ctx).*H).not_indexed = true; };
template <auto H>
constexpr auto set_indexed_by = [](auto& ctx) {
  (_val(ctx).*H).pos = St(ctx).Pos(_attr(ctx).where);
  (_val(ctx).*H).index = std::move(_attr(ctx).text);
};
template <OnConflict C>
constexpr auto set_conflict = [](auto& ctx) { _val(ctx).on_conflict = C; };
constexpr auto set_case_operand = [](auto& ctx) {
  _val(ctx).e->case_operand = true;
};
constexpr auto set_case_else = [](auto& ctx) { _val(ctx).e->case_else = true; };
constexpr auto set_cast_type = [](auto& ctx) {
  _val(ctx).e->cast_type = _attr(ctx);
};

constexpr auto star_item = [](auto& ctx) { _val(ctx).text = "*"; };
constexpr auto table_star_item = [](auto& ctx) {
  _val(ctx).star_table = std::move(_attr(ctx).text);
  _val(ctx).text = _val(ctx).star_table + ".*";
};
constexpr auto set_item_text = [](auto& ctx) {
  _val(ctx).text.assign(_attr(ctx).begin(), _attr(ctx).end());
};

constexpr auto set_check = [](Check::Target target) {
  return [target](auto& ctx) {
    _val(ctx).target = target;
    _val(ctx).name = std::move(_attr(ctx).text);
  };
};
constexpr auto set_begin = [](Begin::Mode mode) {
  return [mode](auto& ctx) { _val(ctx).mode = mode; };
};
// A SELECT held by member M (a subquery in FROM, a compound's term, a
// view's query).
template <auto M>
constexpr auto set_select = [](auto& ctx) {
  _val(ctx).*M = std::make_shared<Select>(std::move(_attr(ctx)));
};
// Position P from `here`.
template <auto P>
constexpr auto set_pos =
    [](auto& ctx) { _val(ctx).*P = St(ctx).Pos(_attr(ctx)); };
constexpr auto set_compound = [](CompoundOp op) {
  return [op](auto& ctx) { _val(ctx).op = op; };
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
constexpr binary_op_parser<OpLevel::kBit> bit_op{};
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

// A SELECT in brackets is an expression (a subquery), so the expression
// rules and the SELECT rule refer to each other.
x3::rule<struct select_id, Select> const select_stmt = "SELECT";
x3::rule<struct collation_id, Token> const collation_name = "collation name";
// What starts a SELECT in brackets (a subquery): SELECT, or its WITH.
auto const select_start = &(kw("SELECT") | kw("WITH"));
x3::rule<struct expr_id, PExpr> const expr = "expression";
x3::rule<struct or_id, PExpr> const or_expr = "expression";
x3::rule<struct and_id, PExpr> const and_expr = "expression";
x3::rule<struct not_id, PExpr> const not_expr = "expression";
x3::rule<struct eq_id, PExpr> const eq_expr = "expression";
x3::rule<struct cmp_id, PExpr> const cmp_expr = "expression";
x3::rule<struct bit_id, PExpr> const bit_expr = "expression";
x3::rule<struct add_id, PExpr> const add_expr = "expression";
x3::rule<struct mul_id, PExpr> const mul_expr = "expression";
x3::rule<struct cat_id, PExpr> const cat_expr = "expression";
x3::rule<struct unary_id, PExpr> const unary_expr = "expression";
x3::rule<struct primary_id, PExpr> const primary = "expression";
x3::rule<struct cast_id, PExpr> const cast_expr = "CAST";
x3::rule<struct case_id, PExpr> const case_expr = "CASE";
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
                           kw("ARRAY") | kw("CASE") | kw("EXISTS");
auto const null_tail = kw("NULL")[make_is_null(false)];
auto const between_tail = kw("BETWEEN")[open_node(ExprKind::kBetween)] >
                          nested[eq_expr][push] > kw("AND") > cmp_expr[push];
auto const in_item = nested[expr][push_in];
auto const in_tail = kw("IN")[open_node(ExprKind::kIn)] >
                     ((ch_lparen >
                       ((select_start >> nested[select_stmt][set_subquery]) |
                        -(in_item >> *(ch_comma > in_item))) > ch_rparen) |
                      ident_tok[set_in_table]);
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

auto const cmp_expr_def = bit_expr[take] >>
                          *(cmp_op[open_bin] > bit_expr[push]);
auto const bit_expr_def = add_expr[take] >>
                          *(bit_op[open_bin] > add_expr[push]);
auto const add_expr_def = mul_expr[take] >>
                          *(add_op[open_bin] > mul_expr[push]);
auto const mul_expr_def = cat_expr[take] >>
                          *(mul_op[open_bin] > cat_expr[push]);
auto const cat_expr_def = unary_expr[take] >>
                          *(concat_op[open_bin] > unary_expr[push]);
// `x COLLATE c` binds tighter than every binary operator, looser than the
// prefix ones (SQLite's precedence).
auto const unary_expr_def = *sign_op[open_unary] >> primary[close_unary] >>
                            *(kw("COLLATE") > collation_name[wrap_collate]);

auto const call_args = nested[expr][push] >> *(ch_comma > nested[expr][push]);
auto const column_or_call_def =
    ident_tok[start_column] >>
    -((ch_dot > ident_tok[qualify]) |
      (ch_lparen[make_call] >
       (ch_star[set_star] |
        ((kw("DISTINCT")[set_distinct] | kw("ALL")) > call_args) | -call_args) >
       ch_rparen >> -reject(kw("OVER"), "window function") >>
       -reject(kw("FILTER"), "FILTER clause")));
auto const cast_expr_def = kw_at("CAST")[start_node(ExprKind::kCast)] >
                           ch_lparen > nested[expr][push] >
                           kw("AS") > type_name[set_cast_type] > ch_rparen;
auto const case_when = kw("WHEN") > nested[expr][push] >
                       kw("THEN") > nested[expr][push];
auto const case_expr_def = kw_at("CASE")[start_node(ExprKind::kCase)] >
                           -(!kw("WHEN") >>
                             nested[expr][push][set_case_operand]) > +case_when
                           > -(kw("ELSE") > nested[expr][push][set_case_else]) >
                           kw("END");
auto const array_expr_def = kw_at("ARRAY")[start_node(ExprKind::kArray)] >
                            ch_lbracket >
                            -(nested[expr][push] >>
                              *(ch_comma > nested[expr][push])) > ch_rbracket;
auto const exists_expr = kw_at("EXISTS")[start_node(ExprKind::kExists)] >
                         ch_lparen > nested[select_stmt][set_subquery] >
                         ch_rparen;
// Reserved words cannot start column_or_call, so what follows it is tried
// only when it fails.
auto const primary_def =
    literal_tok[take] | column_or_call[take] |
    (ch_lparen > ((here[start_node(ExprKind::kSubquery)] >> select_start >>
                   nested[select_stmt][set_subquery]) |
                  nested[expr][take]) > -reject(ch_comma, "row value") >
     ch_rparen) |
    param_tok[take] | cast_expr[take] | array_expr[take] | case_expr[take] |
    exists_expr | (&kw("NOT") >> nested[not_expr][take]);

auto const type_name_def = type_word[set_to<&TypeName::type>] >>
                           -(ch_lparen >
                             unsigned_tok[set_to<&TypeName::length>] >
                             -(ch_comma > unsigned_tok) > ch_rparen) >>
                           -(ch_lbracket >
                             ch_rbracket)[flag<&TypeName::is_list>];

BOOST_SPIRIT_DEFINE(expr, or_expr, and_expr, not_expr, eq_expr, cmp_expr,
                    bit_expr, add_expr, mul_expr, cat_expr, unary_expr, primary,
                    cast_expr, case_expr, array_expr, column_or_call, type_name)

// Names.
x3::rule<struct table_name_id, Token> const table_name = "table name";
x3::rule<struct index_name_id, Token> const index_name = "index name";
x3::rule<struct column_name_id, Token> const column_name = "column name";
x3::rule<struct alias_name_id, Token> const alias_name = "alias";
auto const table_name_def = ident_tok;
auto const index_name_def = ident_tok;
auto const column_name_def = ident_tok;
auto const alias_name_def = ident_tok | string_tok;
auto const collation_name_def = ident_tok | string_tok;
BOOST_SPIRIT_DEFINE(table_name, index_name, column_name, alias_name,
                    collation_name)

// SELECT.
x3::rule<struct select_item_id, SelectItem> const select_item = "expression";
x3::rule<struct join_id, JoinTable> const join_table = "table name";
x3::rule<struct order_item_id, OrderItem> const order_item = "expression";
x3::rule<struct select_core_id, Select> const select_core = "SELECT";
x3::rule<struct compound_term_id, CompoundTerm> const compound_term = "UNION";
x3::rule<struct common_table_id, CommonTable> const common_table = "table name";

auto const select_item_def =
    here[set_pos<&SelectItem::pos>] >>
    (ch_star[star_item] |
     (&(ident_tok >> ch_dot >> ch_star) >> ident_tok[table_star_item] >>
      ch_dot >> ch_star) |
     (x3::raw[expr[set_to<&SelectItem::expr>]][set_item_text] >>
      -((kw("AS") > alias_name[set_to<&SelectItem::alias>]) |
        ident_tok[set_to<&SelectItem::alias>])));
auto const order_item_def = expr[set_to<&OrderItem::expr>] >>
                            -(kw("ASC") | kw("DESC")[flag<&OrderItem::desc>]) >>
                            -reject(kw("NULLS"), "NULLS FIRST / NULLS LAST");
// Inner, LEFT, RIGHT and FULL joins: NATURAL joins, and USING, are
// refused by name.
auto const join_start =
    ch_comma | (kw("CROSS") > kw("JOIN")) | (-kw("INNER") >> kw("JOIN")) |
    (kw("LEFT") > -kw("OUTER") > kw("JOIN"))[flag<&JoinTable::left>] |
    (kw("RIGHT") > -kw("OUTER") > kw("JOIN"))[flag<&JoinTable::right>] |
    (kw("FULL") > -kw("OUTER") > kw("JOIN"))[flag<&JoinTable::full>] |
    reject(kw("OUTER"), "outer join") | reject(kw("NATURAL"), "NATURAL JOIN");
// `INDEXED BY i` or `NOT INDEXED` after a table (and its alias).
template <auto H>
auto const index_hint = (kw("NOT") > kw("INDEXED")[set_not_indexed<H>]) |
                        (kw("INDEXED") > kw("BY") >
                         index_name[set_indexed_by<H>]);
// An alias, which is not the INDEXED of INDEXED BY.
auto const alias_word = !(kw("INDEXED") >> kw("BY")) >> ident_tok;
auto const join_table_def =
    join_start >
    ((here[set_pos<&JoinTable::pos>] >> ch_lparen >> select_start >
      nested[select_stmt][set_select<&JoinTable::subquery>] > ch_rparen) |
     reject(ch_lparen, "bracketed join after the first table") |
     table_name[set_name_pos<&JoinTable::table, &JoinTable::pos>]) >>
    -((kw("AS") > ident_tok[set_to<&JoinTable::alias>]) |
      alias_word[set_to<&JoinTable::alias>]) >>
    -index_hint<&JoinTable::hint> >>
    -(kw("ON") > expr[set_to<&JoinTable::on>]) >>
    -reject(kw("USING"), "JOIN ... USING");
auto const from_named =
    table_name[set_name_pos<&Select::table, &Select::table_pos>] >>
    -((kw("AS") > ident_tok[set_to<&Select::alias>]) |
      alias_word[set_to<&Select::alias>]) >>
    -index_hint<&Select::hint>;
// A subquery in FROM, with its alias (optional, as in SQLite).
auto const from_subquery =
    here[set_pos<&Select::table_pos>] >> ch_lparen >> select_start >
    nested[select_stmt][set_select<&Select::from_subquery>] > ch_rparen >>
    -((kw("AS") > ident_tok[set_to<&Select::alias>]) |
      alias_word[set_to<&Select::alias>]);
// Inner joins associate: `FROM (a CROSS JOIN b), c` is `FROM a CROSS JOIN
// b, c` (SQLite's sqllogictest writes its joins so). A SELECT there is a
// subquery (a derived table).
auto const from_table = (from_subquery |
                         (ch_lparen > from_named >>
                          *join_table[push_to<&Select::joins>] > ch_rparen) |
                         from_named) >>
                        *join_table[push_to<&Select::joins>];
// FROM may be left out (one row, no table); when what follows the items
// starts no clause (nor ends a subquery), FROM is what was expected there.
auto const from_clause = (!(kw("WHERE") | kw("GROUP") | kw("HAVING") |
                            kw("ORDER") | kw("LIMIT") | kw("UNION") |
                            kw("INTERSECT") | kw("EXCEPT") | end_of_statement |
                            ch_rparen)) > kw("FROM") > from_table;
// One SELECT of a compound: no ORDER BY or LIMIT of its own.
auto const select_core_body =
    (kw("SELECT") >> -(kw("DISTINCT")[flag<&Select::distinct>] | kw("ALL"))) >
    (select_item[push_to<&Select::items>] >>
     *(ch_comma > select_item[push_to<&Select::items>])) >>
    (-from_clause >> -(kw("WHERE") > expr[set_to<&Select::where>]) >>
     -(kw("GROUP") > kw("BY") > expr[push_to<&Select::group_by>] >>
       *(ch_comma > expr[push_to<&Select::group_by>])) >>
     -(kw("HAVING") > expr[set_to<&Select::having>]));
auto const select_core_def = select_core_body;
auto const compound_op =
    (kw("UNION") >> (kw("ALL")[set_compound(CompoundOp::kUnionAll)] |
                     x3::eps[set_compound(CompoundOp::kUnion)])) |
    kw("INTERSECT")[set_compound(CompoundOp::kIntersect)] |
    kw("EXCEPT")[set_compound(CompoundOp::kExcept)];
auto const compound_term_def = here[set_pos<&CompoundTerm::pos>] >>
                               compound_op >
                               select_core[set_select<&CompoundTerm::select>];
// WITH name [(columns)] AS (SELECT ...), ...
auto const common_table_def =
    here[set_pos<&CommonTable::pos>] >>
    table_name[set_to<&CommonTable::name>] >>
    -(ch_lparen > (column_name[push_to<&CommonTable::columns>] >>
                   *(ch_comma > column_name[push_to<&CommonTable::columns>])) >
      ch_rparen) > kw("AS") >
    -reject(kw("MATERIALIZED") | kw("NOT"), "MATERIALIZED") > ch_lparen
    > nested[select_stmt][set_select<&CommonTable::select>] > ch_rparen;
auto const with_clause = kw("WITH") >
                         -kw("RECURSIVE")[flag<&Select::recursive>] >
                         (common_table[push_to<&Select::with>] >>
                          *(ch_comma > common_table[push_to<&Select::with>]));
auto const select_stmt_def =
    -with_clause >> select_core_body >>
    *compound_term[push_to<&Select::compound>] >>
    -(kw("ORDER") > kw("BY") > order_item[push_to<&Select::order_by>] >>
      *(ch_comma > order_item[push_to<&Select::order_by>])) >>
    -(kw("LIMIT") > expr[set_to<&Select::limit>] >>
      -((kw("OFFSET") > expr[set_to<&Select::offset>]) |
        reject(ch_comma, "LIMIT with a comma (use LIMIT n OFFSET m)")));
BOOST_SPIRIT_DEFINE(select_item, order_item, select_stmt, join_table,
                    select_core, compound_term, common_table)

// INSERT, UPDATE, DELETE.
x3::rule<struct row_id, std::vector<ExprPtr>> const value_row = "'('";
x3::rule<struct insert_id, Insert> const insert_stmt = "INSERT";
x3::rule<struct assignment_id, Assignment> const assignment = "column name";
x3::rule<struct update_id, Update> const update_stmt = "UPDATE";
x3::rule<struct delete_id, Delete> const delete_stmt = "DELETE";

auto const value_row_def = ch_lparen >
                           (expr[push_self] >>
                            *(ch_comma > expr[push_self])) > ch_rparen;
auto const conflict_clause =
    kw("OR") > (kw("REPLACE")[set_conflict<OnConflict::kReplace>] |
                kw("IGNORE")[set_conflict<OnConflict::kIgnore>] | kw("ABORT") |
                reject(kw("FAIL"), "INSERT OR FAIL") |
                reject(kw("ROLLBACK"), "INSERT OR ROLLBACK"));
// WITH ... before INSERT, UPDATE or DELETE (T): its common tables are seen
// by the statement's SELECTs and subqueries.
template <class T>
auto const with_prefix = kw("WITH") > -kw("RECURSIVE")[flag<&T::recursive>] >
                         (common_table[push_to<&T::with>] >>
                          *(ch_comma > common_table[push_to<&T::with>]));
auto const insert_stmt_def =
    -with_prefix<Insert> >>
    ((kw("INSERT") >> -conflict_clause) |
     kw("REPLACE")[set_conflict<OnConflict::kReplace>]) > kw("INTO") >
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
    -with_prefix<Update> >>
    (kw("UPDATE") >> -reject(kw("OR"), "UPDATE OR ...")) >
    table_name[set_name_pos<&Update::table, &Update::table_pos>] >
    -reject(kw("INDEXED") | kw("NOT"), "index hint in UPDATE") > kw("SET") >
    (assignment[push_to<&Update::assignments>] >>
     *(ch_comma > assignment[push_to<&Update::assignments>]) >>
     -(kw("WHERE") > expr[set_to<&Update::where>]) >>
     -reject(kw("FROM"), "UPDATE ... FROM") >>
     -reject(kw("RETURNING"), "RETURNING"));
auto const delete_stmt_def =
    -with_prefix<Delete> >> kw("DELETE") > kw("FROM") >
    (table_name[set_name_pos<&Delete::table, &Delete::table_pos>] >>
     -reject(kw("INDEXED") | kw("NOT"), "index hint in DELETE") >>
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
x3::rule<struct table_option_id, TableOption> const table_option =
    "table option";
x3::rule<struct create_index_id, CreateIndex> const create_index = "INDEX";
x3::rule<struct drop_table_id, DropTable> const drop_table = "TABLE";
x3::rule<struct drop_index_id, DropIndex> const drop_index = "INDEX";
x3::rule<struct create_view_id, CreateView> const create_view = "VIEW";
x3::rule<struct drop_view_id, DropView> const drop_view = "VIEW";
x3::rule<struct alter_table_id, AlterTable> const alter_table = "ALTER TABLE";

auto const if_not_exists = kw("IF") > kw("NOT") > kw("EXISTS");
auto const if_exists = kw("IF") > kw("EXISTS");
auto const default_value_def =
    (ch_lparen > nested[expr][take] > ch_rparen) |
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
    (ch_rparen >> -reject(kw("WITHOUT"), "WITHOUT ROWID")) >>
    -(kw("WITH") > ch_lparen >
      (table_option[push_to<&CreateTable::options>] >>
       *(ch_comma > table_option[push_to<&CreateTable::options>])) > ch_rparen);
auto const table_option_def =
    column_name[set_name_pos<&TableOption::name, &TableOption::pos>] > ch_eq >
    pragma_value[set_to<&TableOption::value>];
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
     -(kw("WITH") > ch_lparen > kw("RANKED")[flag<&CreateIndex::ranked>] >
       ch_rparen) >>
     -reject(kw("WHERE"), "partial index"));
auto const drop_table_def = kw("TABLE") >
                            -if_exists[flag<&DropTable::if_exists>] >
                            table_name[set_to<&DropTable::name>];
auto const drop_index_def = kw("INDEX") >
                            -if_exists[flag<&DropIndex::if_exists>] >
                            index_name[set_to<&DropIndex::name>];
auto const create_view_def =
    kw("VIEW") > -if_not_exists[flag<&CreateView::if_not_exists>] >
    table_name[set_to<&CreateView::name>] >
    -(ch_lparen > (column_name[push_to<&CreateView::columns>] >>
                   *(ch_comma > column_name[push_to<&CreateView::columns>])) >
      ch_rparen) > kw("AS") > select_stmt[set_select<&CreateView::select>];
auto const drop_view_def = kw("VIEW") > -if_exists[flag<&DropView::if_exists>] >
                           table_name[set_to<&DropView::name>];
template <AlterTable::Action A>
constexpr auto set_action = [](auto& ctx) { _val(ctx).action = A; };
auto const alter_table_def =
    kw("ALTER") > kw("TABLE") > table_name[set_to<&AlterTable::name>] >
    ((kw("ADD") > -kw("COLUMN") > column_def[set_to<&AlterTable::column>]) |
     (kw("RENAME") > ((kw("TO")[set_action<AlterTable::Action::kRenameTable>] >
                       table_name[set_to<&AlterTable::to>]) |
                      ((-kw("COLUMN") >> column_name[set_to<&AlterTable::from>])
                           [set_action<AlterTable::Action::kRenameColumn>] >
                       kw("TO") > column_name[set_to<&AlterTable::to>]))) |
     (kw("DROP")[set_action<AlterTable::Action::kDropColumn>] > -kw("COLUMN") >
      column_name[set_to<&AlterTable::from>]));
BOOST_SPIRIT_DEFINE(default_value, index_column, column_def, create_table,
                    table_option, create_index, drop_table, drop_index,
                    create_view, drop_view, alter_table)

// The rest.
x3::rule<struct explain_id, Explain> const explain_stmt = "EXPLAIN";
x3::rule<struct analyze_id, Analyze> const analyze_stmt = "ANALYZE";
x3::rule<struct check_id, Check> const check_stmt = "CHECK";
x3::rule<struct reindex_id, Reindex> const reindex_stmt = "REINDEX";
x3::rule<struct begin_id, Begin> const begin_stmt = "BEGIN";
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
auto const reindex_stmt_def =
    kw("REINDEX") >> -table_name[set_to<&Reindex::name>];
auto const begin_stmt_def =
    kw("BEGIN") >> -(kw("DEFERRED")[set_begin(Begin::Mode::kDeferred)] |
                     kw("IMMEDIATE")[set_begin(Begin::Mode::kImmediate)] |
                     kw("EXCLUSIVE")[set_begin(Begin::Mode::kExclusive)]) >>
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
    (kw("CREATE") >
     (create_table[assign_node] | create_index[assign_node] |
      create_view[assign_node] | reject(kw("TRIGGER"), "CREATE TRIGGER") |
      reject(kw("TEMP") | kw("TEMPORARY"), "CREATE TEMP") |
      reject(kw("VIRTUAL"), "CREATE VIRTUAL TABLE"))) |
    (kw("DROP") >
     (drop_table[assign_node] | drop_index[assign_node] |
      drop_view[assign_node] | reject(kw("TRIGGER"), "DROP TRIGGER"))) |
    explain_stmt[assign_node] | analyze_stmt[assign_node] |
    check_stmt[assign_node] | reindex_stmt[assign_node] |
    begin_stmt[assign_node] | commit_stmt[assign_empty<Commit>] |
    rollback_stmt[assign_empty<Rollback>] | pragma_stmt[assign_node] |
    alter_table[assign_node] | reject(kw("VACUUM"), "VACUUM") |
    reject(kw("ATTACH") | kw("DETACH"), "ATTACH") |
    reject(kw("SAVEPOINT") | kw("RELEASE"), "SAVEPOINT") |
    reject(kw("VALUES"), "VALUES as a statement");
BOOST_SPIRIT_DEFINE(explain_stmt, analyze_stmt, check_stmt, reindex_stmt,
                    begin_stmt, commit_stmt, rollback_stmt, pragma_stmt,
                    statement)

}  // namespace
}  // namespace levelql::parser::grammar

namespace levelql::parser {

Result<Statement> ParseOneStatement(const SourceMap& map, Iter begin, Iter end,
                                    const ParseOptions& options) {
  namespace x3 = boost::spirit::x3;
  size_t size = end - begin;
  if (size > options.max_statement_length) {
    return Status::LimitExceeded("statement is " + std::to_string(size) +
                                 " bytes; the limit is " +
                                 std::to_string(options.max_statement_length));
  }
  ParseState st{map, options, StackFloor(), 0, 0, {}, Statement{}};
  Iter first = begin;
  try {
    x3::phrase_parse(
        first, end,
        x3::with<grammar::state_tag>(
            st)[x3::expect[grammar::statement[grammar::take_statement]] >
                grammar::end_of_statement],
        grammar::skipper_parser{});
  } catch (const x3::expectation_failure<Iter>& e) {
    return ExpectationStatus(map, e.where(), end, e.which());
  } catch (const ParseError& error) {
    return ParseErrorStatus(map, error, end);
  } catch (const std::bad_alloc&) {
    return Status::LimitExceeded("out of memory parsing a statement of " +
                                 std::to_string(size) + " bytes");
  }
  st.result.pos = map.At(begin);
  st.result.text.assign(begin, end);
  return std::move(st.result);
}

}  // namespace levelql::parser
