UPDATE t SET a = a + 1, b = 'it''s' WHERE c LIKE 'a%' ESCAPE '!'
