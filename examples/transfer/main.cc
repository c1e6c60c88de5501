// Transactions: a transfer between two accounts, all or nothing (issue 15).
//
// Database::Begin() gives a Transaction. Its statements read one snapshot
// plus the transaction's own writes; nobody else sees those writes until
// Commit(), which applies them in one atomic batch; Rollback() - or
// dropping the Transaction - forgets them. A transfer debits one account,
// credits the other and records a ledger line: if any step finds a
// problem, none of it happens.
#include <iostream>
#include <memory>
#include <string>

#include "common/example.h"
#include "levelql/database.h"

using example::Check;
using example::PrintRows;
using example::Show;
using levelql::Status;
using levelql::Value;

namespace {

// Moves `amount` from account `from` to account `to`, or changes nothing.
Status Transfer(levelql::Database& db, int64_t from, int64_t to,
                int64_t amount) {
  // IMMEDIATE takes the database's writer slot now (a second writer waits
  // for it up to Options::busy_timeout_ms), so the debit cannot fail later
  // because another writer committed first.
  auto txn = db.Begin(levelql::TransactionMode::kImmediate);
  if (!txn.ok()) return txn.status();
  // The WHERE clause checks the funds; the row count says whether it did.
  levelql::Params debit_params;
  debit_params.named = {{"amount", Value::Int(amount)},
                        {"id", Value::Int(from)}};
  auto debit = (*txn)->Execute(
      "UPDATE accounts SET balance = balance - :amount "
      "WHERE id = :id AND balance >= :amount",
      debit_params);
  if (!debit.ok()) return debit.status();
  if (debit->rows_affected != 1) {
    return Status::InvalidArgument("account " + std::to_string(from) +
                                   " has no such funds");
  }  // returning drops the Transaction: rolled back
  auto credit =
      (*txn)->Execute("UPDATE accounts SET balance = balance + ? WHERE id = ?",
                      {Value::Int(amount), Value::Int(to)});
  if (!credit.ok()) return credit.status();
  if (credit->rows_affected != 1) {
    // The debit above is undone too.
    return Status::InvalidArgument("no account " + std::to_string(to));
  }
  auto ledger = (*txn)->Execute(
      "INSERT INTO transfers (src, dst, amount) VALUES (?, ?, ?)",
      {Value::Int(from), Value::Int(to), Value::Int(amount)});
  if (!ledger.ok()) return ledger.status();

  // Inside, the transaction sees its writes; outside, nobody does yet.
  const char* kBalances = "SELECT id, balance FROM accounts ORDER BY id";
  std::cout << "  inside the transaction:\n";
  PrintRows(*Check((*txn)->Query(kBalances)));
  std::cout << "  everyone else, before COMMIT:\n";
  PrintRows(*Check(db.Query(kBalances)));
  return (*txn)->Commit();
}

void Try(levelql::Database& db, int64_t from, int64_t to, int64_t amount) {
  std::cout << "transfer " << amount << " from " << from << " to " << to
            << "\n";
  Status s = Transfer(db, from, to, amount);
  std::cout << "  -> " << (s.ok() ? "committed" : s.ToString()) << "\n";
}

}  // namespace

int main() {
  std::unique_ptr<levelql::Database> db =
      Check(levelql::Database::Open(":memory:"));
  Check(db->Execute(R"sql(
    CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT, balance INTEGER);
    CREATE TABLE transfers (src INTEGER, dst INTEGER, amount INTEGER);
    INSERT INTO accounts VALUES (1, 'alice', 100), (2, 'bob', 50);
  )sql"));

  Try(*db, 1, 2, 30);   // fine
  Try(*db, 2, 1, 500);  // bob has 80: nothing happens
  Try(*db, 1, 9, 10);   // no account 9: alice's debit is rolled back

  Show(*db, "SELECT * FROM accounts ORDER BY id");
  Show(*db, "SELECT src, dst, amount FROM transfers");
  Show(*db, "SELECT sum(balance) FROM accounts");
  Check(db->Execute("CHECK"));
  std::cout << "CHECK: consistent\n";
  return 0;
}
