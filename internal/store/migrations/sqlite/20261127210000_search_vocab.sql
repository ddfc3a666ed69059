-- The words of the search index, read to expand a prefix of a query into
-- the words that start with it (see search.expandedTerms). A view of the
-- FTS5 index: it holds nothing itself.
CREATE VIRTUAL TABLE IF NOT EXISTS `search_vocab` USING fts5vocab(search_fts, 'row');
