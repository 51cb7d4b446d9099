/*
 * The Main Page a fresh wiki starts with (as MediaWiki's installer writes one, by "MediaWiki
 * default"): about this wiki and how to begin, in the site's own name.
 */
export const MAIN_PAGE_TITLE = 'Main_Page';
export const MAIN_PAGE_AUTHOR = 'MediaWiki default';
/** The auth service creates "MediaWiki default" as user 1 (services/auth/migrations/002_system_user.sql). */
export const MAIN_PAGE_AUTHOR_ID = 1;
export const MAIN_PAGE_TEXT = [
  "'''Welcome to {{SITENAME}}.''' This wiki has just been set up. This page is the first one its readers see: make it about your wiki ([{{fullurl:Main Page|action=edit}} edit it]).",
  '',
  '== Getting started ==',
  '* [[Special:CreateAccount|Create an account]] or [[Special:UserLogin|log in]], then start a page: type its name in the search box and follow the red link.',
  '* [[Special:RecentChanges|Recent changes]] show what is being written; [[Special:Upload|upload a file]] to show it on a page.',
  '* Bots and tools made for MediaWiki work here unchanged: the action API is at <code>{{SERVER}}{{SCRIPTPATH}}/api.php</code>, the REST API at <code>{{SERVER}}{{SCRIPTPATH}}/rest.php/v1/</code>.',
  "* The markup is MediaWiki's: [https://www.mediawiki.org/wiki/Special:MyLanguage/Help:Formatting Help:Formatting] explains it.",
].join('\n');
