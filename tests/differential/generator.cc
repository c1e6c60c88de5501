#include "tests/differential/generator.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace levelql::difftest {
namespace {

// Short strings that collide, share prefixes, differ only in case, hold
// LIKE wildcards, look like numbers, or are UTF-8 without case.
const std::vector<std::string>& TextPool() {
  static const std::vector<std::string> pool = {
      "",   "a",      "b",    "ab",    "abc", "abd", "abcd", "B",    "Ab",
      "AB", "aB",     "ba",   "bb",    "a%",  "a_b", "%x",   "_",    "z",
      "zz", "he",     "help", "hello", " a",  "a ",  "!a",   "a!%",  "0",
      "1",  "10",     "9",    "-3",    "1.5", "007", "1e3",  "2abc", "中国",
      "中", "中国好", "€5",   "→a",    "x'y", "Z",   "bA",   "abc%"};
  return pool;
}

constexpr double kMaxIntBound = 1e15;  // products stay far from 2^63

int64_t HugeInt(Rng& rng) {
  static const std::vector<int64_t> huge = {
      9007199254740992LL,    9007199254740993LL,    -9007199254740993LL,
      1000000000000000007LL, 4611686018427387904LL, -4611686018427387904LL,
      123456789012345LL};
  return rng.Pick(huge);
}

}  // namespace

namespace {

// Whether LEVELQL_GEN names `item` (or "all").
bool GenSwitchOn(const std::string& item) {
  const char* env = std::getenv("LEVELQL_GEN");
  std::string list = env ? env : "";
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t comma = list.find(',', pos);
    if (comma == std::string::npos) comma = list.size();
    std::string word = list.substr(pos, comma - pos);
    if (word == item || word == "all") return true;
    pos = comma + 1;
  }
  return false;
}

}  // namespace

std::string RulesOffForOpenBugs() {
  // While the OFFSET-below-sort bug was open (FINDINGS.md, regression
  // tests/sql/regressions/offset_skip_below_sort.test) this returned
  // GenSwitchOn("offset_skip") ? "" : "offset_skip". LEVELQL_GEN_OFF=
  // push_not_rule steps around push_not turning NOT (list = x) into
  // list <> x, which is no longer "NOT (some element equals x)".
  return GenSwitchedOff("push_not_rule") ? "push_not" : "";
}

std::string WithOpenBugRulesOff(const std::string& rules) {
  std::string open = RulesOffForOpenBugs();
  if (rules == "all" || open.empty()) return rules;
  return rules.empty() ? open : rules + "," + open;
}

GenConfig GenConfig::FromEnv() {
  GenConfig c;
  auto on = [](const char* name) { return GenSwitchOn(name); };
  c.column_unique |= on("column_unique");
  c.nocase_through_expressions |= on("nocase_through_expressions");
  c.cast_text_to_integer |= on("cast_text_to_integer");
  return c;
}

GenConfig GenConfig::ForOracles() {
  GenConfig c;
  c.column_unique = true;
  c.nocase_through_expressions = true;
  c.cast_text_to_integer = true;
  c.list_columns = !GenSwitchedOff("list_columns");
  c.list_after_first_key_column =
      !GenSwitchedOff("list_after_first_key_column");
  c.unique_list_indexes = !GenSwitchedOff("unique_list_indexes");
  c.icu_collations = !GenSwitchedOff("icu_collations");
  c.constant_order_terms = !GenSwitchedOff("constant_order_terms");
  return c;
}

bool GenSwitchedOff(const std::string& item) {
  const char* env = std::getenv("LEVELQL_GEN_OFF");
  std::string list = env ? env : "";
  size_t pos = 0;
  while (pos < list.size()) {
    size_t comma = list.find(',', pos);
    if (comma == std::string::npos) comma = list.size();
    if (list.substr(pos, comma - pos) == item) return true;
    pos = comma + 1;
  }
  return false;
}

Generator::Generator(uint64_t seed, GenConfig config)
    : rng_(seed), config_(config) {}

Value Generator::RandomText(bool) {
  if (rng_.Percent(70)) return Value::Text(rng_.Pick(TextPool()));
  static const char kAlphabet[] = "abAB_%1 z";
  std::string s;
  int n = static_cast<int>(rng_.Range(0, 5));
  for (int i = 0; i < n; ++i)
    s += kAlphabet[rng_.Uniform(sizeof(kAlphabet) - 1)];
  return Value::Text(s);
}

Domain Generator::RandomDomain(const Column& c, bool key) {
  Domain d;
  static const Domain::Kind kKinds[] = {
      Domain::Kind::kSmall, Domain::Kind::kMedium, Domain::Kind::kWide};
  d.kind = kKinds[rng_.Uniform(3)];
  if (key) {
    d.kind = rng_.Percent(60) ? Domain::Kind::kSequence : Domain::Kind::kWide;
  } else if (rng_.OneIn(6)) {
    d.kind = Domain::Kind::kSequence;
  } else if (c.type == ColType::kInt && rng_.OneIn(12)) {
    d.kind = Domain::Kind::kHuge;
  }
  static const int kNullPercents[] = {0, 5, 20, 50};
  d.null_percent = c.not_null ? 0 : kNullPercents[rng_.Uniform(4)];
  d.next = rng_.Range(-50, 1000);
  switch (d.kind) {
    case Domain::Kind::kSmall:
      d.bound = 10;
      break;
    case Domain::Kind::kMedium:
      d.bound = 1000;
      break;
    case Domain::Kind::kWide:
      d.bound = 1e6;  // (a REAL one also draws a few huge values: Aggregate)
      break;
    case Domain::Kind::kSequence:
      d.bound = 1e6;
      break;
    case Domain::Kind::kHuge:
      d.bound = 4.7e18;
      break;
  }
  // Updates add or subtract small amounts; leave room for them.
  d.bound = d.bound * 2 + 1000;
  int hot = static_cast<int>(rng_.Range(0, 3));
  for (int i = 0; i < hot; ++i) d.hot.push_back(FreshValue(c, d));
  return d;
}

Value Generator::FreshElement(const Column& c, Domain&) {
  if (rng_.OneIn(6)) return Value::Null();
  if (c.type == ColType::kText) {
    static const std::vector<std::string> few = {"A", "B",  "C",
                                                 "a", "ab", "中"};
    return Value::Text(rng_.Pick(few));
  }
  return Value::Int(rng_.Range(0, 6));
}

Value Generator::FreshValue(const Column& c, Domain& d) {
  using K = Domain::Kind;
  if (c.list) {
    // Short lists over a few elements: rows share elements, and some lists
    // are empty or hold a NULL.
    std::vector<Value> elements;
    for (int i = static_cast<int>(rng_.Range(0, 3)); i > 0; --i) {
      elements.push_back(FreshElement(c, d));
    }
    return Value::List(std::move(elements));
  }
  switch (c.type) {
    case ColType::kInt:
      switch (d.kind) {
        case K::kSmall:
          return Value::Int(rng_.Range(0, 9));
        case K::kMedium:
          return Value::Int(rng_.Range(-100, 100));
        case K::kWide:
          return Value::Int(rng_.Range(-1000000, 1000000));
        case K::kSequence:
          d.next += rng_.Range(1, 3);
          return Value::Int(d.next);
        case K::kHuge:
          return Value::Int(rng_.Percent(40) ? HugeInt(rng_)
                                             : rng_.Range(-5, 5));
      }
      break;
    case ColType::kReal:
      switch (d.kind) {
        case K::kSmall:
          return Value::Real(static_cast<double>(rng_.Range(-20, 20)) / 4);
        case K::kMedium:
          return Value::Real(static_cast<double>(rng_.Range(-2000, 2000)) / 2);
        case K::kWide:
          if (rng_.OneIn(8)) {
            static const std::vector<double> odd = {
                0.1, 1e15, -1e-5, 1e100, 2.0, 9007199254740993.0};
            return Value::Real(rng_.Pick(odd));
          }
          return Value::Real(
              static_cast<double>(rng_.Range(-8000000, 8000000)) / 8);
        case K::kSequence:
        case K::kHuge:
          d.next += rng_.Range(1, 3);
          return Value::Real(static_cast<double>(d.next) / 2);
      }
      break;
    case ColType::kText:
      if (d.kind == K::kSequence) {
        d.next += rng_.Range(1, 3);
        return Value::Text((rng_.OneIn(2) ? "k" : "K") +
                           std::to_string(d.next));
      }
      if (d.kind == K::kSmall) {
        static const std::vector<std::string> few = {"a", "b", "B", "ab", ""};
        return Value::Text(rng_.Pick(few));
      }
      return RandomText(c.nocase);
  }
  return Value::Null();
}

TableDef Generator::RandomTable(const std::string& name) {
  TableDef t;
  t.name = name;
  int ncols = static_cast<int>(rng_.Range(2, 6));
  int pk_cols = rng_.Percent(30) ? 0 : (rng_.Percent(60) ? 1 : 2);
  for (int i = 0; i < ncols; ++i) {
    Column c;
    c.name = std::string(1, static_cast<char>('a' + i));
    int r = static_cast<int>(rng_.Uniform(10));
    c.type = r < 5 ? ColType::kInt : r < 7 ? ColType::kReal : ColType::kText;
    c.not_null = rng_.OneIn(6);
    t.cols.push_back(c);
  }
  // Key columns come first in the column list about half the time.
  std::vector<int> order(ncols);
  for (int i = 0; i < ncols; ++i) order[i] = i;
  if (rng_.OneIn(2)) rng_.Shuffle(&order);
  for (int i = 0; i < pk_cols && i < ncols; ++i) {
    t.pk.push_back(order[i]);
    t.pk_desc.push_back(rng_.OneIn(4));
    Column& c = t.cols[order[i]];
    c.not_null = true;
    if (c.type == ColType::kReal && rng_.OneIn(2)) c.type = ColType::kInt;
  }
  // nocase only where a key breaks ties between 'a' and 'A' (ORDER BY must
  // fix the order of the rows it returns).
  for (Column& c : t.cols) {
    if (c.type == ColType::kText && !t.pk.empty() && rng_.OneIn(3)) {
      c.nocase = true;
    }
  }
  // A one-column TEXT key, half the time collated and written on its column:
  // `a TEXT COLLATE nocase PRIMARY KEY`.
  if (t.pk.size() == 1 && t.cols[t.pk[0]].type == ColType::kText) {
    if (rng_.OneIn(2)) t.cols[t.pk[0]].nocase = true;
    t.pk_on_column = !t.pk_desc[0] && rng_.OneIn(2);
  }
  AddOracleOnlyColumns(&t);
  ncols = static_cast<int>(t.cols.size());
  TableState st;
  for (int i = 0; i < ncols; ++i) {
    bool key = std::find(t.pk.begin(), t.pk.end(), i) != t.pk.end();
    Domain d = RandomDomain(t.cols[i], key && t.pk.size() == 1);
    if (key && t.pk.size() == 2 && i == t.pk[1]) {
      d = RandomDomain(t.cols[i], true);
    }
    if (config_.column_unique && !key && d.kind == Domain::Kind::kSequence &&
        (!t.cols[i].list || config_.unique_list_indexes) && rng_.OneIn(2)) {
      t.cols[i].unique = true;
    }
    if (!key && !t.cols[i].list && rng_.OneIn(5)) {
      Domain copy = d;
      copy.null_percent = 0;
      t.cols[i].default_value = FreshValue(t.cols[i], copy);
    }
    st.domains.push_back(d);
  }
  tables_.push_back(t);
  state_.push_back(st);
  unique_indexes_.emplace_back();
  indexes_.emplace_back();
  return t;
}

void Generator::AddOracleOnlyColumns(TableDef* t) {
  if (config_.icu_collations) {
    // Collated texts, keys among them: search folds case and accents,
    // icu:de orders by the German collator.
    for (Column& c : t->cols) {
      if (c.nocase && rng_.OneIn(2))
        c.collation = rng_.OneIn(2) ? "search" : "icu:de";
    }
  }
  if (config_.list_columns && rng_.OneIn(2)) {
    Column c;
    c.name = std::string(1, static_cast<char>('a' + t->cols.size()));
    c.type = rng_.OneIn(2) ? ColType::kText : ColType::kInt;
    c.list = true;
    t->cols.push_back(c);
  }
}

int Generator::PickColumn(int table, bool allow_list) {
  const TableDef& t = tables_[table];
  std::vector<int> cols;
  for (size_t i = 0; i < t.cols.size(); ++i) {
    if (allow_list || !t.cols[i].list) cols.push_back(static_cast<int>(i));
  }
  return cols.empty() ? 0 : rng_.Pick(cols);
}

bool Generator::IsUniqueish(int table, int col) const {
  Domain::Kind k = state_[table].domains[col].kind;
  return k == Domain::Kind::kSequence || k == Domain::Kind::kWide;
}

bool Generator::InUniqueKey(int table, int col) const {
  const TableDef& t = tables_[table];
  if (t.cols[col].unique) return true;
  if (std::find(t.pk.begin(), t.pk.end(), col) != t.pk.end()) return true;
  for (const IndexDef& ix : unique_indexes_[table]) {
    if (std::find(ix.cols.begin(), ix.cols.end(), col) != ix.cols.end()) {
      return true;
    }
  }
  return false;
}

bool Generator::IsUniqueColumn(int table, int col) const {
  const TableDef& t = tables_[table];
  if (t.cols[col].unique || (t.pk.size() == 1 && t.pk[0] == col)) return true;
  for (const IndexDef& ix : unique_indexes_[table]) {
    if (ix.cols.size() == 1 && ix.cols[0] == col) return true;
  }
  return false;
}

IndexDef Generator::RandomIndex(int table, const std::string& name) {
  const TableDef& t = tables_[table];
  IndexDef ix;
  ix.name = name;
  int ncols = static_cast<int>(t.cols.size());
  std::vector<int> lists, scalars;
  for (int i = 0; i < ncols; ++i)
    (t.cols[i].list ? lists : scalars).push_back(i);
  if (!lists.empty() && rng_.OneIn(2)) {
    // A list column first, in the middle or last of a key of up to three
    // columns; a fourth of these UNIQUE (lists hold NULLs and repeat
    // elements, so some writes must fail).
    rng_.Shuffle(&scalars);
    int n = static_cast<int>(
        rng_.Range(1, std::min<int64_t>(3, 1 + scalars.size())));
    int pos = static_cast<int>(rng_.Uniform(n));
    if (!config_.list_after_first_key_column) pos = 0;
    for (int i = 0, s = 0; i < n; ++i) {
      ix.cols.push_back(i == pos ? rng_.Pick(lists) : scalars[s++]);
      ix.desc.push_back(rng_.OneIn(3));
    }
    ix.unique = rng_.OneIn(4) && config_.unique_list_indexes;
    if (ix.unique) unique_indexes_[table].push_back(ix);
    indexes_[table].push_back(ix);
    return ix;
  }
  // Half are single-column: the building blocks of intersections.
  int n =
      rng_.OneIn(2) ? 1 : static_cast<int>(rng_.Range(1, std::min(3, ncols)));
  std::vector<int> cols(ncols);
  for (int i = 0; i < ncols; ++i) cols[i] = i;
  rng_.Shuffle(&cols);
  bool uniqueish = false;
  for (int i = 0; i < n; ++i) {
    ix.cols.push_back(cols[i]);
    ix.desc.push_back(rng_.OneIn(3));
    uniqueish |= IsUniqueish(table, cols[i]);
  }
  // UNIQUE where the data allows it, and now and then where it may not
  // (both engines must then refuse the index or the write).
  ix.unique = (uniqueish && rng_.Percent(40)) || rng_.OneIn(25);
  auto is_list = [&t](int c) { return t.cols[c].list; };
  if (std::any_of(ix.cols.begin(), ix.cols.end(), is_list)) {
    if (!config_.list_after_first_key_column) {
      // The first list column moves to the front; other lists go.
      auto first = std::find_if(ix.cols.begin(), ix.cols.end(), is_list);
      std::rotate(ix.cols.begin(), first, first + 1);
      ix.cols.erase(std::remove_if(ix.cols.begin() + 1, ix.cols.end(), is_list),
                    ix.cols.end());
      ix.desc.resize(ix.cols.size());
    }
    ix.unique = ix.unique && config_.unique_list_indexes;
  }
  if (rng_.Percent(30)) {
    for (int i = n; i < ncols && ix.include.size() < 2; ++i) {
      if (rng_.OneIn(2) && !t.cols[cols[i]].list) ix.include.push_back(cols[i]);
    }
  }
  if (ix.unique) unique_indexes_[table].push_back(ix);
  indexes_[table].push_back(ix);
  return ix;
}

Value Generator::RandomValue(int table, int col) {
  const Column& c = tables_[table].cols[col];
  Domain& d = state_[table].domains[col];
  if (d.null_percent && rng_.Percent(d.null_percent)) return Value::Null();
  if (!d.hot.empty() && d.kind != Domain::Kind::kSequence && rng_.Percent(35)) {
    return rng_.Pick(d.hot);
  }
  return FreshValue(c, d);
}

std::vector<Value> Generator::RandomRow(int table) {
  const TableDef& t = tables_[table];
  TableState& st = state_[table];
  std::vector<Value> row;
  for (size_t i = 0; i < t.cols.size(); ++i) {
    row.push_back(RandomValue(table, static_cast<int>(i)));
  }
  if (!t.pk.empty()) {
    // Now and then reuse a key: both engines must refuse the duplicate.
    if (!st.keys.empty() && rng_.Percent(3)) {
      const std::vector<Value>& key = rng_.Pick(st.keys);
      for (size_t i = 0; i < t.pk.size(); ++i) row[t.pk[i]] = key[i];
    } else if (st.keys.size() < 200) {
      std::vector<Value> key;
      for (int k : t.pk) key.push_back(row[k]);
      st.keys.push_back(key);
    }
  }
  return row;
}

Step Generator::RandomInsert(int table) {
  const TableDef& t = tables_[table];
  Step s;
  s.kind = Step::Kind::kInsert;
  s.table = table;
  int n = static_cast<int>(rng_.Range(1, config_.max_insert_rows));
  for (int i = 0; i < n; ++i) s.rows.push_back(RandomRow(table));
  state_[table].rows_bound += n;
  if (rng_.Percent(15)) {
    // Name only some columns: the others take their DEFAULT or NULL.
    for (size_t c = 0; c < t.cols.size(); ++c) {
      bool key = std::find(t.pk.begin(), t.pk.end(), static_cast<int>(c)) !=
                 t.pk.end();
      if (key || rng_.OneIn(2)) s.columns.push_back(static_cast<int>(c));
    }
    if (s.columns.empty()) s.columns.push_back(0);
    for (auto& row : s.rows) {
      std::vector<Value> named;
      for (int c : s.columns) named.push_back(row[c]);
      row = std::move(named);
    }
  }
  return s;
}

Step Generator::RandomInsertSelect(int table) {
  const TableDef& t = tables_[table];
  Step s;
  s.kind = Step::Kind::kInsertSelect;
  s.table = table;
  s.query.table = table;
  state_[table].rows_bound *= 2;
  // Copies of the table's own rows; key and UNIQUE columns are shifted so
  // that most copies do not collide.
  int64_t shift = rng_.Range(1, 9) * 10000000;
  for (size_t c = 0; c < t.cols.size(); ++c) {
    Expr e = Expr::Col(static_cast<int>(c));
    if (InUniqueKey(table, static_cast<int>(c)) && !t.cols[c].list &&
        !rng_.OneIn(10)) {
      switch (t.cols[c].type) {
        case ColType::kInt:
          e = Expr::Binary("+", e, Expr::Lit(Value::Int(shift)));
          break;
        case ColType::kReal:
          e = Expr::Binary("+", e, Expr::Lit(Value::Real(0.125)));
          break;
        case ColType::kText:
          e = Expr::Binary("||", e,
                           Expr::Lit(Value::Text("+" + std::to_string(shift))));
          break;
      }
    }
    s.query.items.push_back(std::move(e));
  }
  s.query.where = RandomPredicate(table, static_cast<int>(rng_.Range(0, 2)));
  return s;
}

Expr Generator::UpdateValue(int table, int col) {
  const Column& c = tables_[table].cols[col];
  // Key columns get constants: SQLite checks uniqueness row by row, so
  // `SET k = k + 1` can fail there on a transient duplicate that a
  // statement-level check accepts (KNOWN_DIFFERENCES.md).
  if (InUniqueKey(table, col) || c.list || rng_.Percent(40)) {
    return Expr::Lit(RandomValue(table, col));
  }
  Expr self = Expr::Col(col);
  switch (c.type) {
    case ColType::kInt:
      switch (rng_.Uniform(5)) {
        case 0:
          return Expr::Binary("+", self,
                              Expr::Lit(Value::Int(rng_.Range(1, 9))));
        case 1:
          return Expr::Binary("-", self,
                              Expr::Lit(Value::Int(rng_.Range(1, 9))));
        case 2:
          return Expr::Binary("%", self,
                              Expr::Lit(Value::Int(rng_.Range(2, 7))));
        case 3:
          return Expr::Binary("/", self, Expr::Lit(Value::Int(2)));
        default:
          return Expr::Unary("-", self);
      }
    case ColType::kReal:
      switch (rng_.Uniform(4)) {
        case 0:
          return Expr::Binary("+", self, Expr::Lit(Value::Real(0.5)));
        case 1:
          return Expr::Binary("*", self, Expr::Lit(Value::Real(0.5)));
        case 2: {
          std::vector<int> ints = ColumnsOf(table, ColType::kInt, true);
          if (!ints.empty()) {
            return Expr::Binary("*", Expr::Col(rng_.Pick(ints)),
                                Expr::Lit(Value::Real(0.25)));
          }
          return Expr::Unary("-", self);
        }
        default:
          return Expr::Unary("-", self);
      }
    case ColType::kText:
      switch (rng_.Uniform(4)) {
        case 0:
          return Expr::Binary("||", self, Expr::Lit(Value::Text("x")));
        case 1:
          return Expr::Func("substr", {self, Expr::Lit(Value::Int(2))});
        case 2:
          return Expr::Func(rng_.OneIn(2) ? "upper" : "lower", {self});
        default: {
          std::vector<int> ints = ColumnsOf(table, ColType::kInt, true);
          if (!ints.empty()) {
            Expr e;
            e.kind = Expr::Kind::kCast;
            e.op = "TEXT";
            e.kids.push_back(Expr::Col(rng_.Pick(ints)));
            return e;
          }
          return self;
        }
      }
  }
  return self;
}

Step Generator::RandomUpdate(int table) {
  const TableDef& t = tables_[table];
  Step s;
  s.kind = Step::Kind::kUpdate;
  s.table = table;
  int n = rng_.OneIn(3) ? 2 : 1;
  std::vector<int> used;
  for (int i = 0; i < n; ++i) {
    int col = static_cast<int>(rng_.Uniform(t.cols.size()));
    if (std::find(used.begin(), used.end(), col) != used.end()) continue;
    used.push_back(col);
    s.sets.emplace_back(col, UpdateValue(table, col));
  }
  if (!rng_.OneIn(8))
    s.where = RandomPredicate(table, static_cast<int>(rng_.Range(0, 2)));
  return s;
}

Step Generator::RandomDelete(int table) {
  Step s;
  s.kind = Step::Kind::kDelete;
  s.table = table;
  if (!rng_.OneIn(25))
    s.where = RandomPredicate(table, static_cast<int>(rng_.Range(0, 2)));
  return s;
}

Step Generator::RandomWrite(int table) {
  int r = static_cast<int>(rng_.Uniform(20));
  if (r < 11) return RandomInsert(table);
  if (r < 12) return RandomInsertSelect(table);
  if (r < 16) return RandomUpdate(table);
  return RandomDelete(table);
}

}  // namespace levelql::difftest
