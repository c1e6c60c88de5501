/* block */ SELECT a /* ; */ FROM t -- trailing
