-- MediaWiki's log_page_id_time: a page's log entries by time (PageHistoryCountHandler's
-- Last-Modified reads MAX(log_timestamp) of a page's entries, which revision deletions add to).
CREATE INDEX log_page_id_time ON ${schema}.logging (log_page, log_timestamp);
