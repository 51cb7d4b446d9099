-- list=allpages: titles in binary order, as MediaWiki compares page_title (varbinary), whatever
-- the database's default collation.
CREATE INDEX page_ns_title_binary ON ${schema}.page (page_namespace, page_title COLLATE "C");
