/*
 * The Main Page MediaWiki's installer writes: messages "mainpagetext" + "\n\n" + "mainpagedocfooter"
 * in English (Installer::createMainpage), as the reference wiki serves it.
 */
export const MAIN_PAGE_TITLE = 'Main_Page';
export const MAIN_PAGE_AUTHOR = 'MediaWiki default';
/** The auth service creates "MediaWiki default" as user 1 (services/auth/migrations/002_system_user.sql). */
export const MAIN_PAGE_AUTHOR_ID = 1;
export const MAIN_PAGE_TEXT =
  "<strong>MediaWiki has been installed.</strong>\n\nConsult the [https://www.mediawiki.org/wiki/Special:MyLanguage/Help:Contents User's Guide] for information on using the wiki software.\n\n== Getting started ==\n* [https://www.mediawiki.org/wiki/Special:MyLanguage/Manual:Configuration_settings Configuration settings list]\n* [https://www.mediawiki.org/wiki/Special:MyLanguage/Manual:FAQ MediaWiki FAQ]\n* [https://lists.wikimedia.org/postorius/lists/mediawiki-announce.lists.wikimedia.org/ MediaWiki release mailing list]\n* [https://www.mediawiki.org/wiki/Special:MyLanguage/Localisation#Translation_resources Localise MediaWiki for your language]\n* [https://www.mediawiki.org/wiki/Special:MyLanguage/Manual:Combating_spam Learn how to combat spam on your wiki]";
