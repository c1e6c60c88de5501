#include "engine/catalog/catalog.h"

#include <algorithm>
#include <map>
#include <set>

#include "engine/exec/value_ops.h"
#include "engine/plan/continuation.h"
#include "indexes/row_format.h"
#include "indexes/salt.h"
#include "parser/parse_error.h"
#include "parser/parser.h"

namespace levelql {
namespace {

std::string Where(const parser::Position& pos) {
  return parser::Place(pos) + ": ";
}

Result<const Collation*> CollationFor(const std::string& name,
                                      const parser::Position& pos) {
  Result<const Collation*> c = Collation::Get(name);
  if (!c.ok()) {
    return Status::InvalidArgument(Where(pos) + c.status().message());
  }
  return c;
}

// DEFAULT takes a literal, possibly signed.
Result<Value> DefaultLiteral(const parser::Expr& e) {
  if (e.kind == parser::ExprKind::kLiteral) return e.literal;
  if (e.kind == parser::ExprKind::kUnary && e.args.size() == 1) {
    LQ_ASSIGN_OR_RETURN(Value v, DefaultLiteral(*e.args[0]));
    if (e.unary_op == parser::UnaryOp::kMinus) return Negate(v);
    if (e.unary_op == parser::UnaryOp::kPlus) return v;
  }
  if (e.kind == parser::ExprKind::kArray) {
    std::vector<Value> elements;
    for (const auto& a : e.args) {
      LQ_ASSIGN_OR_RETURN(Value v, DefaultLiteral(*a));
      elements.push_back(std::move(v));
    }
    return Value::List(std::move(elements));
  }
  return Status::NotSupported(Where(e.pos) + "DEFAULT must be a literal");
}

void EncodeRecord(int64_t id, const std::string& sql, std::string* out) {
  keys::EncodeValue(Value::Int(id), keys::Direction::kAsc, out);
  keys::EncodeValue(Value::Text(sql), keys::Direction::kAsc, out);
}

Status DecodeRecord(std::string_view in, int64_t* id, std::string* sql,
                    std::string_view* rest) {
  Value v;
  LQ_RETURN_IF_ERROR(keys::DecodeValue(&in, keys::Direction::kAsc, &v));
  if (v.type() != Type::kInteger) return Status::Corruption("bad catalog id");
  *id = v.int_value();
  LQ_RETURN_IF_ERROR(keys::DecodeValue(&in, keys::Direction::kAsc, &v));
  if (v.type() != Type::kText) return Status::Corruption("bad catalog sql");
  *sql = v.text();
  *rest = in;
  return Status::OK();
}

std::string JoinVersions(const std::vector<std::string>& versions) {
  std::string out;
  for (size_t i = 0; i < versions.size(); ++i) {
    if (i) out += '\n';
    out += versions[i];
  }
  return out;
}

}  // namespace

uint64_t SchemaVersion(const CatalogState& state) {
  uint64_t h = 0;
  for (const auto& [name, table] : state.tables) {
    h = Fingerprint(table->sql, h ^ static_cast<uint64_t>(table->id));
    // By id: a table's indexes are listed in the order they were made in a
    // session and in the order they are stored after a reopen, and the
    // same schema must give the same version (continuation tokens hold it).
    std::vector<const IndexSchema*> indexes;
    for (const auto& index : table->indexes) indexes.push_back(index.get());
    std::sort(indexes.begin(), indexes.end(),
              [](const IndexSchema* a, const IndexSchema* b) {
                return a->id < b->id;
              });
    for (const IndexSchema* index : indexes) {
      h = Fingerprint(index->sql, h ^ static_cast<uint64_t>(index->id));
    }
  }
  for (const auto& [name, view] : state.views) h = Fingerprint(view->sql, h);
  return h;
}

namespace {

// WITH (name = value, ...) of CREATE TABLE: salt_buckets is the only option.
Status ApplyTableOptions(const parser::CreateTable& create,
                         TableSchema* table) {
  for (const parser::TableOption& option : create.options) {
    if (option.name != "salt_buckets") {
      return Status::InvalidArgument(Where(option.pos) + "unknown option " +
                                     option.name + " of table " + create.name +
                                     " (the table option is salt_buckets)");
    }
    if (table->salt_buckets != 0) {
      return Status::InvalidArgument(Where(option.pos) +
                                     "salt_buckets given twice for table " +
                                     create.name);
    }
    const Value& v = option.value;
    if (v.type() != Type::kInteger || v.int_value() < rows::kMinSaltBuckets ||
        v.int_value() > rows::kMaxSaltBuckets) {
      return Status::InvalidArgument(
          Where(option.pos) + "salt_buckets of table " + create.name +
          " must be an integer from " + std::to_string(rows::kMinSaltBuckets) +
          " to " + std::to_string(rows::kMaxSaltBuckets) + ", not " +
          v.ToSqlLiteral());
    }
    table->salt_buckets = static_cast<int>(v.int_value());
  }
  return Status::OK();
}

}  // namespace

std::shared_ptr<const SaltLayout> SaltLayoutOf(const CatalogState& state) {
  auto layout = std::make_shared<SaltLayout>();
  for (const auto& [name, table] : state.tables) {
    if (table->salt_buckets == 0) continue;
    layout->Add(table->id, {table->salt_buckets, true});
    for (const auto& index : table->indexes) {
      layout->Add(index->id, {table->salt_buckets, false});
    }
  }
  return layout;
}

Result<std::shared_ptr<TableSchema>> MakeTableSchema(
    const parser::CreateTable& create, int64_t id, const std::string& sql) {
  if (create.columns.size() > kMaxColumns) {
    return Status::LimitExceeded("table " + create.name + " has " +
                                 std::to_string(create.columns.size()) +
                                 " columns; the limit is " +
                                 std::to_string(kMaxColumns));
  }
  auto table = std::make_shared<TableSchema>();
  table->id = id;
  table->name = create.name;
  table->sql = sql;
  std::set<std::string> names;
  std::vector<parser::IndexColumn> pk = create.primary_key;
  for (const parser::ColumnDef& def : create.columns) {
    if (!names.insert(def.name).second) {
      return Status::InvalidArgument(Where(def.pos) + "duplicate column " +
                                     def.name + " in table " + create.name);
    }
    ColumnSchema c;
    c.name = def.name;
    c.type = def.type.type;
    c.is_list = def.type.is_list;
    c.unique = def.unique && !def.primary_key;
    c.not_null = def.not_null || def.primary_key;
    if (c.type == Type::kText || !def.collation.empty()) {
      if (c.type != Type::kText && !def.collation.empty()) {
        return Status::TypeError(Where(def.pos) + "COLLATE applies to TEXT, " +
                                 "not to " + std::string(TypeName(c.type)) +
                                 " column " + def.name);
      }
      LQ_ASSIGN_OR_RETURN(c.collation, CollationFor(def.collation, def.pos));
    }
    if (def.default_value) {
      LQ_ASSIGN_OR_RETURN(Value v, DefaultLiteral(*def.default_value));
      LQ_ASSIGN_OR_RETURN(c.default_value,
                          CoerceForColumn(v, c.type, c.is_list, c.name));
    }
    if (def.primary_key) {
      if (!create.primary_key.empty() || !pk.empty()) {
        return Status::InvalidArgument(Where(def.pos) + "table " + create.name +
                                       " has more than one primary key");
      }
      parser::IndexColumn k;
      k.name = def.name;
      k.pos = def.pos;
      k.desc = def.primary_key_desc;
      pk.push_back(k);
    }
    table->columns.push_back(std::move(c));
  }
  if (table->columns.empty()) {
    return Status::InvalidArgument("table " + create.name + " has no columns");
  }
  LQ_RETURN_IF_ERROR(ApplyTableOptions(create, table.get()));
  if (pk.empty()) table->AddHiddenRowid();
  for (const parser::IndexColumn& k : pk) {
    int col = table->FindColumn(k.name);
    if (col < 0) {
      return Status::InvalidArgument(Where(k.pos) + "no column " + k.name +
                                     " in table " + create.name);
    }
    ColumnSchema& c = table->columns[col];
    if (c.is_list) {
      return Status::NotSupported(Where(k.pos) + "a list column (" + k.name +
                                  ") in a primary key");
    }
    if (table->IsPrimaryKeyColumn(col)) {
      return Status::InvalidArgument(Where(k.pos) + "column " + k.name +
                                     " appears twice in the primary key");
    }
    c.not_null = true;
    const Collation* coll = c.collation;
    if (!k.collation.empty()) {
      LQ_ASSIGN_OR_RETURN(coll, CollationFor(k.collation, k.pos));
      c.collation = coll;
    }
    table->primary_key.push_back(
        {col, k.desc ? keys::Direction::kDesc : keys::Direction::kAsc, coll});
  }
  for (const KeyColumn& k : table->primary_key) {
    const ColumnSchema& c = table->columns[k.column];
    table->collation_versions.push_back(c.type == Type::kText && k.collation &&
                                                !k.collation->is_binary()
                                            ? k.collation->Version()
                                            : "");
  }
  return table;
}

Result<std::shared_ptr<IndexSchema>> MakeIndexSchema(
    const parser::CreateIndex& create, const TableSchema& table, int64_t id,
    const std::string& sql) {
  auto index = std::make_shared<IndexSchema>();
  index->id = id;
  index->name = create.name;
  index->table = table.name;
  index->unique = create.unique;
  index->sql = sql;
  index->ranked = create.ranked;
  index->salt_buckets = table.salt_buckets;
  std::set<int> used;
  for (const parser::IndexColumn& k : create.columns) {
    int col = table.FindColumn(k.name);
    if (col < 0 || table.columns[col].hidden) {
      return Status::InvalidArgument(Where(k.pos) + "no column " + k.name +
                                     " in table " + table.name);
    }
    if (!used.insert(col).second) {
      return Status::InvalidArgument(Where(k.pos) + "column " + k.name +
                                     " appears twice in index " + create.name);
    }
    const ColumnSchema& c = table.columns[col];
    const Collation* coll = c.collation;
    if (!k.collation.empty()) {
      if (c.type != Type::kText) {
        return Status::TypeError(Where(k.pos) + "COLLATE applies to TEXT, " +
                                 "not to " + std::string(TypeName(c.type)) +
                                 " column " + k.name);
      }
      LQ_ASSIGN_OR_RETURN(coll, CollationFor(k.collation, k.pos));
    }
    if (c.is_list) index->multi_valued = true;
    index->columns.push_back(
        {col, k.desc ? keys::Direction::kDesc : keys::Direction::kAsc, coll});
    index->collation_versions.push_back(
        c.type == Type::kText && coll && !coll->is_binary() ? coll->Version()
                                                            : "");
  }
  for (const std::string& name : create.include) {
    int col = table.FindColumn(name);
    if (col < 0) {
      return Status::InvalidArgument("no column " + name + " in table " +
                                     table.name + " (INCLUDE of index " +
                                     create.name + ")");
    }
    index->include.push_back(col);
  }
  return index;
}

std::string TableRecordKey(const std::string& name) {
  return std::string(kTablePrefix) + name;
}

std::string BuildingKey(const std::string& index) {
  return std::string(kBuildingPrefix) + index;
}

std::string ReindexKey(const std::string& name) {
  return std::string(kReindexPrefix) + name;
}

std::string RebuildingKey(const std::string& name) {
  return std::string(kRebuildingPrefix) + name;
}

std::string GarbageKey(int64_t id) {
  std::string key(kGarbagePrefix);
  keys::EncodeValue(Value::Int(id), keys::Direction::kAsc, &key);
  return key;
}

std::string IndexRecordKey(const std::string& name) {
  return std::string(kIndexPrefix) + name;
}

void PutTableRecord(const TableSchema& table, WriteBatch* batch) {
  std::string value;
  EncodeRecord(table.id, table.sql, &value);
  keys::EncodeValue(Value::Text(JoinVersions(table.collation_versions)),
                    keys::Direction::kAsc, &value);
  batch->Put(TableRecordKey(table.name), std::move(value));
}

std::string ViewRecordKey(const std::string& name) {
  return std::string(kViewPrefix) + name;
}

Result<std::shared_ptr<ViewSchema>> MakeViewSchema(
    const parser::CreateView& create, const std::string& sql) {
  auto view = std::make_shared<ViewSchema>();
  view->name = create.name;
  view->sql = sql;
  view->columns = create.columns;
  view->select = create.select;
  for (size_t i = 0; i < view->columns.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (view->columns[i] == view->columns[j]) {
        return Status::InvalidArgument("view " + view->name + " names column " +
                                       view->columns[i] + " twice");
      }
    }
  }
  return view;
}

void PutViewRecord(const ViewSchema& view, WriteBatch* batch) {
  std::string value;
  keys::EncodeValue(Value::Text(view.sql), keys::Direction::kAsc, &value);
  batch->Put(ViewRecordKey(view.name), std::move(value));
}

void PutIndexRecord(const IndexSchema& index, WriteBatch* batch) {
  std::string value;
  EncodeRecord(index.id, index.sql, &value);
  keys::EncodeValue(Value::Text(JoinVersions(index.collation_versions)),
                    keys::Direction::kAsc, &value);
  if (index.ranked) {
    keys::EncodeValue(Value::Int(index.rank_id), keys::Direction::kAsc, &value);
  }
  batch->Put(IndexRecordKey(index.name), std::move(value));
}

void PutNextId(int64_t next_id, WriteBatch* batch) {
  std::string value;
  keys::EncodeValue(Value::Int(next_id), keys::Direction::kAsc, &value);
  batch->Put(std::string(kNextIdKey), std::move(value));
}

namespace {

// Reads the metadata keys under `prefix`: name -> value.
Result<std::map<std::string, std::string>> ReadMarkers(
    KvStore* store, std::string_view prefix) {
  std::map<std::string, std::string> out;
  auto it = store->NewIterator(nullptr);
  for (SeekPrefix(it.get(), prefix);
       it->Valid() && it->key().substr(0, prefix.size()) == prefix;
       it->Next()) {
    out[std::string(it->key().substr(prefix.size()))] =
        std::string(it->value());
  }
  LQ_RETURN_IF_ERROR(it->status());
  return out;
}

std::string VersionMismatch(const std::string& what, const std::string& stored,
                            const std::string& now) {
  return what + " made with collation version '" + stored +
         "', this build has '" + now + "'";
}

}  // namespace

Result<CatalogState> LoadCatalog(KvStore* store, bool read_only) {
  CatalogState state;
  std::string format;
  Status s = store->Get(nullptr, kFormatKey, &format);
  if (s.code() == Status::Code::kNotFound) {
    if (read_only) return Status::InvalidArgument("database is empty");
    WriteBatch batch;
    batch.Put(std::string(kFormatKey), std::string(kFormatVersion));
    batch.Put(std::string(kIcuKey), IcuVersion());
    state.token_key = NewTokenKey();
    batch.Put(std::string(kTokenKeyKey), state.token_key);
    PutNextId(1, &batch);
    // Two processes creating one shared database at once: the first wins,
    // the other reads what it wrote.
    batch.ExpectValue(std::string(kFormatKey), std::nullopt);
    s = store->Write(batch, true);
    if (s.code() == Status::Code::kBusy && store->shared()) {
      return LoadCatalog(store, read_only);
    }
    LQ_RETURN_IF_ERROR(s);
    return state;
  }
  LQ_RETURN_IF_ERROR(s);
  // Format 1 is read and upgraded in place (metadata only): what its keys
  // cannot answer correctly under format 2 is marked for REINDEX.
  // Format 2 differs from 3 only by what it cannot hold (salted tables):
  // its number is raised in place.
  const bool format1 = format == "1";
  const bool format2 = format == "2";
  const bool format3 = format == "3";
  const bool format4 = format == "4";
  if (format != kFormatVersion && !format1 && !format2 && !format3 &&
      !format4) {
    return Status::NotSupported("database format version " + format +
                                " is not supported by this build (it reads "
                                "versions 1 to " +
                                std::string(kFormatVersion) + ")");
  }
  std::string icu;
  s = store->Get(nullptr, kIcuKey, &icu);
  if (!s.ok() && s.code() != Status::Code::kNotFound) return s;
  WriteBatch upgrade;
  // Format 3 differs from 4 only by what it cannot hold (views), and 4
  // from 5 by what it cannot hold (row values shorter than their table,
  // once ALTER TABLE ADD COLUMN ran).
  if (format1 || format2 || format3 || format4)
    upgrade.Put(std::string(kFormatKey), std::string(kFormatVersion));

  s = store->Get(nullptr, kTokenKeyKey, &state.token_key);
  if (s.code() == Status::Code::kNotFound ||
      (s.ok() && state.token_key.size() != kTokenKeyBytes)) {
    // Databases made before tokens were authenticated get their secret now
    // (a read-only one for this session only).
    state.token_key = NewTokenKey();
    upgrade.Put(std::string(kTokenKeyKey), state.token_key);
  } else {
    LQ_RETURN_IF_ERROR(s);
  }
  std::string epoch;
  s = store->Get(nullptr, kEpochKey, &epoch);
  if (s.ok()) {
    state.epoch = std::move(epoch);
  } else if (s.code() != Status::Code::kNotFound) {
    return s;
  }
  std::string next;
  LQ_RETURN_IF_ERROR(store->Get(nullptr, kNextIdKey, &next));
  std::string_view in = next;
  Value v;
  LQ_RETURN_IF_ERROR(keys::DecodeValue(&in, keys::Direction::kAsc, &v));
  state.next_id = v.int_value();
  LQ_ASSIGN_OR_RETURN(auto reindex, ReadMarkers(store, kReindexPrefix));

  // Tables first, then their indexes.
  std::map<std::string, std::shared_ptr<TableSchema>> tables;
  auto it = store->NewIterator(nullptr);
  for (SeekPrefix(it.get(), kTablePrefix);
       it->Valid() && it->key().substr(0, kTablePrefix.size()) == kTablePrefix;
       it->Next()) {
    int64_t id;
    std::string sql;
    std::string_view rest;
    LQ_RETURN_IF_ERROR(DecodeRecord(it->value(), &id, &sql, &rest));
    LQ_ASSIGN_OR_RETURN(parser::Statement stmt, parser::ParseStatement(sql));
    auto* create = std::get_if<parser::CreateTable>(&stmt.node);
    if (!create) return Status::Corruption("catalog record is not a table");
    LQ_ASSIGN_OR_RETURN(auto table, MakeTableSchema(*create, id, sql));
    const std::string now = JoinVersions(table->collation_versions);
    if (rest.empty()) {
      // Format 1 did not pin the primary key's collation versions; they are
      // this build's when the database was made with this ICU.
      if (now.find_first_not_of('\n') != std::string::npos &&
          icu != IcuVersion()) {
        table->needs_reindex = "its primary key was made by ICU " + icu +
                               " before collation versions were recorded";
      } else {
        PutTableRecord(*table, &upgrade);
      }
    } else {
      Value versions;
      LQ_RETURN_IF_ERROR(
          keys::DecodeValue(&rest, keys::Direction::kAsc, &versions));
      if (versions.type() != Type::kText) {
        return Status::Corruption("bad collation versions of table " +
                                  table->name);
      }
      if (versions.text() != now) {
        table->needs_reindex =
            VersionMismatch("its primary key was", versions.text(), now);
      }
    }
    tables[table->name] = table;
  }
  LQ_RETURN_IF_ERROR(it->status());
  for (SeekPrefix(it.get(), kIndexPrefix);
       it->Valid() && it->key().substr(0, kIndexPrefix.size()) == kIndexPrefix;
       it->Next()) {
    int64_t id;
    std::string sql;
    std::string_view rest;
    LQ_RETURN_IF_ERROR(DecodeRecord(it->value(), &id, &sql, &rest));
    Value versions;
    LQ_RETURN_IF_ERROR(
        keys::DecodeValue(&rest, keys::Direction::kAsc, &versions));
    LQ_ASSIGN_OR_RETURN(parser::Statement stmt, parser::ParseStatement(sql));
    auto* create = std::get_if<parser::CreateIndex>(&stmt.node);
    std::string marker;
    Value rank_id = Value::Int(0);  // WITH (ranked): its count range
    if (!rest.empty()) {
      LQ_RETURN_IF_ERROR(
          keys::DecodeValue(&rest, keys::Direction::kAsc, &rank_id));
      if (rank_id.type() != Type::kInteger) {
        return Status::Corruption("bad rank id in an index record");
      }
    }
    if (create &&
        store->Get(nullptr, BuildingKey(create->name), &marker).ok()) {
      std::vector<int64_t> ids = {id};
      if (rank_id.int_value() > 0) ids.push_back(rank_id.int_value());
      state.unfinished_indexes.emplace_back(create->name, std::move(ids));
      continue;
    }
    if (!create) return Status::Corruption("catalog record is not an index");
    auto t = tables.find(create->table);
    if (t == tables.end()) {
      return Status::Corruption("index " + create->name +
                                " belongs to missing table " + create->table);
    }
    LQ_ASSIGN_OR_RETURN(auto index,
                        MakeIndexSchema(*create, *t->second, id, sql));
    index->rank_id = rank_id.int_value();
    if (index->ranked && index->rank_id <= 0) {
      return Status::Corruption("ranked index " + index->name +
                                " has no count range");
    }
    std::string now = JoinVersions(index->collation_versions);
    if (auto r = reindex.find(index->name); r != reindex.end()) {
      index->needs_reindex = r->second;
    } else if (now != versions.text()) {
      index->needs_reindex =
          VersionMismatch("its keys were", versions.text(), now);
    } else if (format1) {
      // Format 2 decides a UNIQUE entry's layout per entry (format 1: per
      // row, so entries of lists holding a NULL may be laid out wrong), and
      // keys an index column in the index's COLLATE (format 1: in the
      // column's).
      bool own_collation = false, original_text = false;
      for (const KeyColumn& k : index->columns) {
        const ColumnSchema& c = t->second->columns[k.column];
        own_collation |= c.type == Type::kText && k.collation != c.collation;
        original_text |= rows::KeepsOriginalText(*t->second, k);
      }
      if (original_text) {
        index->needs_reindex =
            "an index on a collated column made by format 1, whose entries "
            "lack the original text format 2 reads";
      } else if (index->unique && index->multi_valued) {
        index->needs_reindex =
            "a UNIQUE index over a list column made by format 1, whose entry "
            "layout format 2 changed";
      } else if (own_collation) {
        index->needs_reindex =
            "an index with its own COLLATE made by format 1, which keyed it "
            "in the column's collation";
      }
      if (!index->needs_reindex.empty()) {
        upgrade.Put(ReindexKey(index->name), index->needs_reindex);
      }
    }
    if (!t->second->needs_reindex.empty() && index->needs_reindex.empty()) {
      index->needs_reindex = "its table " + t->second->name + " needs REINDEX";
    }
    t->second->indexes.push_back(index);
    state.index_table[index->name] = t->second->name;
  }
  LQ_RETURN_IF_ERROR(it->status());
  for (auto& [name, table] : tables) state.tables[name] = table;
  for (SeekPrefix(it.get(), kViewPrefix);
       it->Valid() && it->key().substr(0, kViewPrefix.size()) == kViewPrefix;
       it->Next()) {
    std::string_view in = it->value();
    Value sql;
    LQ_RETURN_IF_ERROR(keys::DecodeValue(&in, keys::Direction::kAsc, &sql));
    if (sql.type() != Type::kText) {
      return Status::Corruption("bad view record");
    }
    LQ_ASSIGN_OR_RETURN(parser::Statement stmt,
                        parser::ParseStatement(sql.text()));
    auto* create = std::get_if<parser::CreateView>(&stmt.node);
    if (!create) return Status::Corruption("catalog record is not a view");
    LQ_ASSIGN_OR_RETURN(auto view, MakeViewSchema(*create, sql.text()));
    state.views[view->name] = std::move(view);
  }
  LQ_RETURN_IF_ERROR(it->status());
  for (SeekPrefix(it.get(), kStatsPrefix);
       it->Valid() && it->key().substr(0, kStatsPrefix.size()) == kStatsPrefix;
       it->Next()) {
    std::string name(it->key().substr(kStatsPrefix.size()));
    LQ_ASSIGN_OR_RETURN(TableStats stats, DecodeStats(it->value()));
    state.stats[name] = std::make_shared<const TableStats>(std::move(stats));
  }
  LQ_RETURN_IF_ERROR(it->status());
  if (!read_only && !upgrade.empty()) {
    LQ_RETURN_IF_ERROR(store->Write(upgrade, true));
  }
  state.version = SchemaVersion(state);
  state.salt_layout = SaltLayoutOf(state);
  return state;
}

}  // namespace levelql
