-- Transactions: a transfer between two accounts, all or nothing.
-- Run: build/tools/levelql -echo -f examples/transfer/transfer.sql
--
-- BEGIN ... COMMIT applies every statement between them at once; until
-- then nobody else sees them (the interactive prompt is levelql*> meanwhile).
-- ROLLBACK forgets them.
CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT, balance INTEGER);
CREATE TABLE transfers (src INTEGER, dst INTEGER, amount INTEGER);
INSERT INTO accounts VALUES (1, 'alice', 100), (2, 'bob', 50);

-- 30 from alice to bob.
BEGIN IMMEDIATE;
UPDATE accounts SET balance = balance - 30 WHERE id = 1 AND balance >= 30;
UPDATE accounts SET balance = balance + 30 WHERE id = 2;
INSERT INTO transfers VALUES (1, 2, 30);
SELECT * FROM accounts ORDER BY id;
COMMIT;

-- 10 from bob to account 9, which does not exist: the credit changes no
-- row, so the application rolls the debit back.
BEGIN;
UPDATE accounts SET balance = balance - 10 WHERE id = 2 AND balance >= 10;
SELECT * FROM accounts ORDER BY id;
UPDATE accounts SET balance = balance + 10 WHERE id = 9;
ROLLBACK;

SELECT * FROM accounts ORDER BY id;
SELECT * FROM transfers;
CHECK;
