-- Position of the content change feed this service has applied (the feed arrives with the search issue).
CREATE TABLE ${schema}.feed_cursor (id int PRIMARY KEY CHECK (id = 1), position bigint NOT NULL DEFAULT 0, updated_at timestamptz NOT NULL DEFAULT now());
INSERT INTO ${schema}.feed_cursor (id) VALUES (1);
