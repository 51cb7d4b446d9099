-- Interwiki links of each page (MediaWiki's iwlinks): prop=iwlinks and list=iwbacklinks. Filled
-- by the link update with the other link tables; pages rendered before this migration get their
-- rows at their next refreshLinks.
CREATE TABLE ${schema}.iwlinks (
  iwl_from bigint NOT NULL REFERENCES ${schema}.page (page_id) ON DELETE CASCADE,
  iwl_prefix text NOT NULL,                -- the interwiki prefix, as written ("wikipedia")
  iwl_title text NOT NULL,                 -- the title there, DB key form without the fragment
  PRIMARY KEY (iwl_from, iwl_prefix, iwl_title)
);
CREATE INDEX iwl_prefix_title_from ON ${schema}.iwlinks (iwl_prefix COLLATE "C", iwl_title COLLATE "C", iwl_from);
