-- What action=edit records beyond 001: the bot flag of an edit. MediaWiki keeps it in
-- recentchanges (rc_bot); there is no recentchanges table yet, so it lives on the revision.
ALTER TABLE ${schema}.revision ADD COLUMN rev_bot boolean NOT NULL DEFAULT false;

-- Change tags an administrator defined (ctd_user_defined) are the only ones `tags=` may apply;
-- software tags (mw-undo, mw-replace, …) are registered by the first edit that gets them.
CREATE INDEX change_tag_def_user_defined ON ${schema}.change_tag_def (ctd_name) WHERE ctd_user_defined;
