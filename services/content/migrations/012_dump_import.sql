-- XML dumps (ImportService): the export's <origin> (the first revision holding a content row)
-- and the import's check that a dump's page id is free of archived revisions.
CREATE INDEX rev_content_id ON ${schema}.revision (rev_content_id);
CREATE INDEX ar_page_id ON ${schema}.archive (ar_page_id);
