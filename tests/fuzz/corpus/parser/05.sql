CREATE INDEX idx_tab2_0 ON tab2 (col3,col1)
