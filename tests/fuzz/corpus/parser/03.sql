CREATE TABLE actions (userid INTEGER, stamp TIMESTAMP, category TEXT[], ok BOOLEAN DEFAULT TRUE, data BLOB DEFAULT x'00ff', PRIMARY KEY (userid, stamp DESC))
