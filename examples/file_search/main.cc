// Story 2 of DESIGN.md: search files by several conditions at once.
//
// A composite index (owner, created) answers "owner = ? AND created BETWEEN
// ? AND ?" with one range scan; the LIKE conditions are checked on the rows
// that scan fetches. Text is UTF-8 throughout: a LIKE prefix in Chinese is
// still a prefix of the key.
#include <iostream>
#include <memory>

#include "common/example.h"
#include "levelql/database.h"

using example::Check;
using levelql::Params;
using levelql::Value;

int main() {
  std::unique_ptr<levelql::Database> db =
      Check(levelql::Database::Open(":memory:"));
  Check(db->Execute(R"sql(
    CREATE TABLE files (
      id INTEGER PRIMARY KEY, created INTEGER, name TEXT, category TEXT,
      owner INTEGER);
    CREATE INDEX files_by_owner_created ON files (owner, created);
    CREATE INDEX files_by_name ON files (name);
    CREATE INDEX files_by_category ON files (category);
  )sql"));

  // Rows can also be inserted one statement at a time, with parameters.
  std::unique_ptr<levelql::Statement> insert =
      Check(db->Prepare("INSERT INTO files VALUES (?, ?, ?, ?, ?)"));
  struct File {
    int id, created;
    const char* name;
    const char* category;
    int owner;
  };
  const File kFiles[] = {
      {1, 20120902, "中国好声音第1期", "综艺", 1},
      {2, 20120904, "中国好声音第2期", "综艺", 1},
      {3, 20120906, "中国好声音外卡赛", "综艺", 1},
      {4, 20120908, "中国好声音第3期", "综艺", 1},
      {5, 20120910, "中国好声音第4期", "综艺", 1},
      {6, 20120912, "中国好声音选手采访", "综艺花絮", 2},
      {7, 20120914, "中国好声音第5期", "综艺", 1},
      {8, 20120916, "中国好声音录制花絮", "综艺花絮", 2},
      {9, 20120918, "张玮独家专访", "花絮", 3},
      {10, 20120920, "加多宝凉茶广告", "综艺广告", 4},
  };
  for (const File& f : kFiles) {
    Check(insert->Execute({Value::Int(f.id), Value::Int(f.created),
                           Value::Text(f.name), Value::Text(f.category),
                           Value::Int(f.owner)}));
  }

  // The story's query, with named parameters: expect 1, 2, 3, 4, 5, 7.
  const char* kSearch =
      "SELECT id, created, name FROM files WHERE owner = :owner "
      "AND created BETWEEN :from AND :to "
      "AND name LIKE :name AND category LIKE :category";
  Params params;
  params.named["owner"] = Value::Int(1);
  params.named["from"] = Value::Int(20120901);
  params.named["to"] = Value::Int(20121001);
  params.named["name"] = Value::Text("中国好声音%");
  params.named["category"] = Value::Text("综艺%");
  example::Show(*db, kSearch, params);
  // One range scan over (owner, created); the Filter re-checks the rest.
  example::ShowPlan(*db, kSearch, params);

  // Each condition alone picks its own index.
  std::cout << "\n";
  example::Show(*db,
                "SELECT id, name FROM files WHERE name LIKE '中国好声音%' "
                "AND category = '综艺花絮'");
  example::ShowPlan(*db,
                    "SELECT id, name FROM files WHERE name LIKE '中国好声音%' "
                    "AND category = '综艺花絮'");
  std::cout << "\n";
  example::Show(*db,
                "SELECT id, name, category FROM files WHERE category LIKE "
                "'综艺%' AND owner > 1");
  example::ShowPlan(*db,
                    "SELECT id, name, category FROM files WHERE category LIKE "
                    "'综艺%' AND owner > 1");
  return 0;
}
