-- The words a query's prefix is expanded into (see search.expandedTerms),
-- kept by Bindery as it indexes pages: fts5vocab, which this replaces,
-- counted each word's pages as it read it. The words already indexed are
-- copied from the index's columns of text, those longer than its longest
-- prefix (3 characters).
CREATE TABLE IF NOT EXISTS `search_words` (`word` text NOT NULL PRIMARY KEY) WITHOUT ROWID;
CREATE VIRTUAL TABLE temp.`search_vocab_col` USING fts5vocab(main, search_fts, 'col');
INSERT OR IGNORE INTO `search_words` (`word`) SELECT DISTINCT `term` FROM temp.`search_vocab_col` WHERE `col` <> 'scope' AND length(`term`) > 3;
DROP TABLE temp.`search_vocab_col`;
DROP TABLE IF EXISTS `search_vocab`;
