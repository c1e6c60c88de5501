SELECT "Quoted ""Name""", 0x1f, 1e10, .5, 1.5E-3, TRUE, FALSE, NULL FROM "T" x
