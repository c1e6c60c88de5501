SELECT lower(a) || upper(b), length(c), abs(-d), coalesce(e, 0), ifnull(f, 1), nullif(g, 2), substr(h, 1, 2) FROM t
