// The bytes of index entries (indexes/row_format.h): the UNIQUE layout is a
// property of each entry, decided by EntryLayoutOf from the entry's own
// indexed components (KEY_FORMAT.md, "UNIQUE index entries", issue 12), and
// every entry the writer makes parses back to its row.
#include "indexes/row_format.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace levelql {
namespace {

using keys::Direction;

const Collation* Named(const char* name) {
  auto c = Collation::Get(name);
  EXPECT_TRUE(c.ok()) << name;
  return *c;
}

ColumnSchema Column(std::string name, Type type, bool is_list = false,
                    const char* collation = "binary") {
  ColumnSchema c;
  c.name = std::move(name);
  c.type = type;
  c.is_list = is_list;
  if (type == Type::kText) c.collation = Named(collation);
  return c;
}

// t (id INTEGER PRIMARY KEY, k INTEGER, tags TEXT[], note TEXT COLLATE nocase)
TableSchema Table() {
  TableSchema t;
  t.id = 5;
  t.name = "t";
  t.columns = {Column("id", Type::kInteger), Column("k", Type::kInteger),
               Column("tags", Type::kText, true),
               Column("note", Type::kText, false, "nocase")};
  t.primary_key = {{0, Direction::kAsc, nullptr}};
  return t;
}

IndexSchema Index(bool unique, std::vector<KeyColumn> columns,
                  std::vector<int> include = {}) {
  IndexSchema i;
  i.id = 6;
  i.name = "i";
  i.table = "t";
  i.unique = unique;
  i.columns = std::move(columns);
  i.include = std::move(include);
  return i;
}

Row MakeRow(int64_t id, Value k, std::vector<Value> tags, Value note) {
  return {Value::Int(id), std::move(k), Value::List(std::move(tags)),
          std::move(note)};
}

// "'A':value 'B':key": each entry's element and where its pk is.
std::string Layouts(const TableSchema& t, const IndexSchema& index,
                    const Row& row) {
  std::vector<rows::IndexEntry> entries;
  rows::IndexEntriesForRow(t, index, row, &entries);
  std::string out;
  for (const rows::IndexEntry& e : entries) {
    std::vector<Value> values;
    EXPECT_TRUE(rows::DecodeIndexKey(index, e.key, &values).ok());
    if (!out.empty()) out += " ";
    out += keys::KeyToString(values);
    out += e.unique_key ? ":value" : ":key";
  }
  return out;
}

TEST(RowFormatTest, UniqueLayoutIsChosenPerEntryNotPerRow) {
  const TableSchema t = Table();
  const IndexSchema unique = Index(true, {{2, Direction::kAsc, nullptr}});
  EXPECT_EQ(
      Layouts(t, unique,
              MakeRow(1, Value::Int(1), {Value::Text("A"), Value()}, Value())),
      "(NULL):key ('A'):value");
  EXPECT_EQ(Layouts(t, unique, MakeRow(1, Value::Int(1), {}, Value())),
            "(NULL):key");
  // A composite entry is unique only when none of its own components is.
  const IndexSchema composite = Index(
      true, {{1, Direction::kAsc, nullptr}, {2, Direction::kDesc, nullptr}});
  EXPECT_EQ(
      Layouts(t, composite,
              MakeRow(1, Value::Int(7), {Value::Text("A"), Value()}, Value())),
      "(7, 'A'):value (7, NULL):key");
  EXPECT_EQ(
      Layouts(t, composite, MakeRow(1, Value(), {Value::Text("A")}, Value())),
      "(NULL, 'A'):key");
  // A non-unique index keeps the pk in the key, NULL or not.
  const IndexSchema plain = Index(false, {{2, Direction::kAsc, nullptr}});
  EXPECT_EQ(
      Layouts(t, plain,
              MakeRow(1, Value::Int(1), {Value::Text("A"), Value()}, Value())),
      "(NULL):key ('A'):key");
}

TEST(RowFormatTest, EntryLayoutOfReadsOnlyTheIndexedComponents) {
  const IndexSchema unique = Index(
      true, {{1, Direction::kAsc, nullptr}, {2, Direction::kDesc, nullptr}});
  const IndexSchema plain = Index(
      false, {{1, Direction::kAsc, nullptr}, {2, Direction::kDesc, nullptr}});
  struct Case {
    std::vector<Value> values;
    const char* unique_layout;
    const char* plain_layout;
  } cases[] = {
      {{Value::Int(1), Value::Text("a")}, "value", "key"},
      {{Value(), Value::Text("a")}, "key", "key"},
      {{Value::Int(1), Value()}, "key", "key"},
      {{Value(), Value()}, "key", "key"},
  };
  for (const Case& c : cases) {
    std::string key = rows::IdPrefix(6);
    keys::EncodeValue(c.values[0], Direction::kAsc, &key);
    keys::EncodeValue(c.values[1], Direction::kDesc, &key);
    const size_t indexed_end = key.size();
    key += "\x15\x09";  // a pk component after them changes nothing
    for (const IndexSchema* index : {&unique, &plain}) {
      rows::EntryLayout layout;
      size_t end = 0;
      ASSERT_TRUE(rows::EntryLayoutOf(*index, key, &layout, &end).ok());
      EXPECT_EQ(
          layout == rows::EntryLayout::kPkInValue ? "value" : "key",
          std::string(index == &unique ? c.unique_layout : c.plain_layout))
          << keys::KeyToString(c.values);
      EXPECT_EQ(end, indexed_end);
    }
  }
  rows::EntryLayout layout;
  EXPECT_EQ(
      rows::EntryLayoutOf(unique, rows::IdPrefix(6) + "\x15", &layout).code(),
      Status::Code::kCorruption);
}

// Every entry the writer makes parses back to its row's pk and INCLUDE
// values, with the layout EntryLayoutOf gives it.
TEST(RowFormatTest, EveryWrittenEntryParsesBackToItsRow) {
  const TableSchema t = Table();
  const std::vector<IndexSchema> indexes = {
      Index(true, {{2, Direction::kAsc, nullptr}}, {3}),
      Index(true, {{1, Direction::kDesc, nullptr}, {2, Direction::kAsc}}, {3}),
      Index(true, {{3, Direction::kAsc, nullptr}}),
      Index(false, {{2, Direction::kDesc, nullptr}, {1, Direction::kAsc}},
            {1, 3}),
  };
  std::mt19937 rng(12);
  const std::string words[] = {"A", "b", "B", "", std::string("ab\0c", 4)};
  for (int n = 0; n < 500; ++n) {
    std::vector<Value> tags;
    for (int e = static_cast<int>(rng() % 4); e > 0; --e) {
      tags.push_back(rng() % 3 == 0 ? Value() : Value::Text(words[rng() % 5]));
    }
    Row row = MakeRow(static_cast<int64_t>(rng() % 1000) - 500,
                      rng() % 4 == 0 ? Value() : Value::Int(rng() % 3),
                      std::move(tags),
                      rng() % 4 == 0 ? Value() : Value::Text(words[rng() % 5]));
    if (rng() % 5 == 0) row[2] = Value();  // a NULL list
    for (const IndexSchema& index : indexes) {
      std::vector<rows::IndexEntry> entries;
      rows::IndexEntriesForRow(t, index, row, &entries);
      ASSERT_FALSE(entries.empty());
      // The value's tail: INCLUDE columns, then the original text of
      // collation-keyed columns.
      std::string include;
      for (int c : index.include) {
        keys::EncodeValue(row[c], Direction::kAsc, &include);
      }
      for (const KeyColumn& k : index.columns) {
        if (rows::KeepsOriginalText(t, k)) {
          keys::EncodeValue(row[k.column], Direction::kAsc, &include);
        }
      }
      for (const rows::IndexEntry& e : entries) {
        rows::EntryParts parts;
        ASSERT_TRUE(rows::ParseIndexEntry(index, e.key, e.value, &parts).ok());
        EXPECT_EQ(parts.layout == rows::EntryLayout::kPkInValue, e.unique_key);
        std::vector<Value> values;
        ASSERT_TRUE(rows::DecodeIndexKey(index, e.key, &values).ok());
        bool any_null = false;
        for (const Value& v : values) any_null |= v.is_null();
        EXPECT_EQ(e.unique_key, index.unique && !any_null);
        EXPECT_EQ(parts.pk, rows::PrimaryKeyBytes(t, row));
        EXPECT_EQ(parts.include, include);
        EXPECT_EQ(rows::IdPrefix(index.id) + std::string(parts.indexed) +
                      (e.unique_key ? "" : std::string(parts.pk)),
                  e.key);
        std::string pk;
        ASSERT_TRUE(
            rows::PrimaryKeyOfEntry(t, index, e.key, e.value, &pk).ok());
        EXPECT_EQ(pk, parts.pk);
      }
    }
  }
}

TEST(RowFormatTest, ParseIndexEntryRejectsBytesThatDoNotFitTheLayout) {
  const TableSchema t = Table();
  const IndexSchema unique = Index(true, {{2, Direction::kAsc, nullptr}});
  std::vector<rows::IndexEntry> entries;
  rows::IndexEntriesForRow(
      t, unique,
      MakeRow(1, Value::Int(1), {Value::Text("A"), Value()}, Value()),
      &entries);
  ASSERT_EQ(entries.size(), 2u);
  const rows::IndexEntry& null_entry = entries[0];  // pk in the key
  const rows::IndexEntry& a_entry = entries[1];     // pk in the value
  ASSERT_FALSE(null_entry.unique_key);
  ASSERT_TRUE(a_entry.unique_key);
  const std::string pk =
      rows::PrimaryKeyBytes(t, MakeRow(1, Value(), {}, Value()));
  rows::EntryParts parts;
  // 'A' written the v1 way (pk in the key): the rule says pk in the value.
  Status s = rows::ParseIndexEntry(unique, a_entry.key + pk, "", &parts);
  EXPECT_EQ(s.code(), Status::Code::kCorruption) << s.ToString();
  // NULL written in the unique layout: no pk after the NULL component.
  std::string value = "\x02" + pk;
  s = rows::ParseIndexEntry(unique, rows::IdPrefix(6) + "\x01", value, &parts);
  EXPECT_EQ(s.code(), Status::Code::kCorruption) << s.ToString();
  // A pk length past the end of the value, and a varint that never ends.
  EXPECT_FALSE(
      rows::ParseIndexEntry(unique, a_entry.key, "\x05\x15", &parts).ok());
  EXPECT_FALSE(rows::ParseIndexEntry(unique, a_entry.key, "\x85", &parts).ok());
  EXPECT_FALSE(rows::ParseIndexEntry(unique, a_entry.key, "", &parts).ok());
  // The entries as written parse.
  EXPECT_TRUE(
      rows::ParseIndexEntry(unique, a_entry.key, a_entry.value, &parts).ok());
  EXPECT_EQ(parts.pk, pk);
  EXPECT_TRUE(
      rows::ParseIndexEntry(unique, null_entry.key, null_entry.value, &parts)
          .ok());
  EXPECT_EQ(parts.pk, pk);
}

// DecodeRowColumns (what Fetch and TableScan read rows with) decodes the
// wanted columns, skips the others, and checks the bytes of both.
TEST(RowFormatTest, DecodeRowColumnsDecodesOnlyTheWantedColumns) {
  // t (id INTEGER, k INTEGER, tags TEXT[], note TEXT COLLATE nocase,
  //    PRIMARY KEY (note DESC, id)): `note` is keyed by its collation key,
  //    so its text comes from the value.
  TableSchema t = Table();
  t.primary_key = {{3, Direction::kDesc, Named("nocase")},
                   {0, Direction::kAsc, nullptr}};
  const Row row =
      MakeRow(7, Value::Int(-3), {Value::Text("x"), Value::Text("y")},
              Value::Text("Crème Brûlée"));
  const std::string key = rows::RowKey(t, row);
  const std::string value = rows::RowValue(t, row);
  const Value stale = Value::Text("stale");

  Row full;
  ASSERT_TRUE(rows::DecodeRow(t, key, value, &full).ok());
  EXPECT_EQ(full, row);

  for (int mask = 0; mask < 16; ++mask) {
    std::set<int> columns;
    for (int c = 0; c < 4; ++c) {
      if (mask & (1 << c)) columns.insert(c);
    }
    const std::vector<char> wanted = rows::DecodeMaskFor(t, columns);
    EXPECT_EQ(wanted.empty(), mask == 15) << mask;  // all: the plain walk
    Row out(4, stale);  // the width of a row: unwanted columns stay
    ASSERT_TRUE(rows::DecodeRowColumns(t, key, value, wanted, &out).ok())
        << mask;
    Row narrow;  // another width: unwanted columns are NULL
    ASSERT_TRUE(rows::DecodeRowColumns(t, key, value, wanted, &narrow).ok())
        << mask;
    ASSERT_EQ(narrow.size(), 4u);
    for (int c = 0; c < 4; ++c) {
      const bool wanted = mask & (1 << c);
      EXPECT_EQ(out[c], wanted ? row[c] : stale) << mask << " column " << c;
      EXPECT_EQ(narrow[c], wanted ? row[c] : Value()) << mask << " " << c;
    }
  }

  // A skipped column's bytes are still walked: damage in them, or after
  // them, is an error whichever columns are read.
  const std::vector<char> only_id = rows::DecodeMaskFor(t, {0});
  auto decode = [&](const std::string& k, const std::string& v) {
    Row out;
    return rows::DecodeRowColumns(t, k, v, only_id, &out).code();
  };
  EXPECT_EQ(decode(key, value.substr(0, value.size() - 1)),
            Status::Code::kCorruption);
  EXPECT_EQ(decode(key, value + "\x05"), Status::Code::kCorruption);
  EXPECT_EQ(decode(key + "\x05", value), Status::Code::kCorruption);
  EXPECT_EQ(decode(key, "\x7f" + value.substr(1)), Status::Code::kCorruption);
}

}  // namespace
}  // namespace levelql
