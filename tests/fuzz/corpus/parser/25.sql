-- comment
SELECT a
  FROM t;

;
