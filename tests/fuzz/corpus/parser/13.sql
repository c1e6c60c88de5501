SELECT ALL * FROM tab0 WHERE NOT + ( - + col0 ) + - col3 NOT IN ( + 61 )
