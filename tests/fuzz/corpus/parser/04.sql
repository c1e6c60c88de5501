CREATE UNIQUE INDEX IF NOT EXISTS by_email ON users (email COLLATE "icu:und-u-ks-level2" DESC, id) INCLUDE (name)
