PRAGMA sort_memory = 1048576; PRAGMA disable_rule = 'index_union'; PRAGMA x(on)
