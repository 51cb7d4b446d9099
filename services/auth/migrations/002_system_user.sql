-- MediaWiki's system user "MediaWiki default" (User::newSystemUser), author of the Main Page the
-- content service creates at first start. It has no password (an empty hash never verifies), and
-- takes id 1 because migrations run before any account can be created; services/content refers
-- to it by that id (MAIN_PAGE_AUTHOR_ID).
INSERT INTO ${schema}.users (id, name, password_hash) VALUES (1, 'MediaWiki default', '') ON CONFLICT DO NOTHING;
SELECT setval(pg_get_serial_sequence('${schema}.users', 'id'), GREATEST((SELECT max(id) FROM ${schema}.users), 1));
