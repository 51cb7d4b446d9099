/*
 * Special page addressing as MediaWiki does it: `/wiki/Special:Name/sub` and
 * `/w/index.php?title=Special:Name/sub`, special page names case-insensitive; and `returnto`
 * targets, which only ever become paths under this wiki's article path (never an open redirect).
 */
import { ARTICLE_PATH, SCRIPT_PATH } from '../config.js';

export const SPECIAL_PAGES = [
  'UserLogin',
  'UserLogout',
  'BotPasswords',
  'RunJobs',
  'CreateAccount',
  'Search',
  'RecentChanges',
  'Contributions',
  'Log',
  'AllPages',
  'SpecialPages',
  'Version',
  'Random',
  'Watchlist',
  'Upload',
  'Categories',
  'Preferences',
  'ChangePassword',
  'ChangeEmail',
  'MovePage',
  'Undelete',
  'Block',
  'Export',
  'Import',
  'WhatLinksHere',
  'RecentChangesLinked',
] as const;
export type SpecialPageName = (typeof SPECIAL_PAGES)[number];

export interface SpecialTarget {
  /** The canonical name, or the name as asked when it is not one of ours. */
  name: string;
  known: boolean;
  /** Text after the first "/" in MediaWiki's DB-key form (underscores for spaces, as `$par` is); null without one. */
  subpage: string | null;
}

/** The title of a request path or `title` parameter in the Special namespace; null for any other title. */
export function parseSpecialTitle(title: string): SpecialTarget | null {
  const key = title.trim().replace(/ /g, '_');
  const colon = key.indexOf(':');
  if (colon < 0 || key.slice(0, colon).replace(/_/g, '').toLowerCase() !== 'special') return null;
  const rest = key.slice(colon + 1).replace(/^_+/, '');
  const slash = rest.indexOf('/');
  const asked = slash < 0 ? rest : rest.slice(0, slash);
  const subpage = slash < 0 ? null : rest.slice(slash + 1);
  const canonical = SPECIAL_PAGES.find((n) => n.toLowerCase() === asked.replace(/_/g, '').toLowerCase());
  return { name: canonical ?? asked, known: canonical !== undefined, subpage };
}

/** wfUrlencode: percent-encoding that keeps the characters MediaWiki leaves readable in titles. */
export function encodeTitle(title: string): string {
  return encodeURIComponent(title.replace(/ /g, '_')).replace(/%(3A|2F|3B|40|24|2C)/gi, (m) => decodeURIComponent(m));
}

/** `/w/index.php?title=<Title>&…` (an action or a revision of a page), as MediaWiki's Title::getLocalURL. */
export function indexPath(title: string, query: Record<string, string | number>): string {
  const q = Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return `${SCRIPT_PATH}/index.php?title=${encodeTitle(title)}${q.length ? `&${q.join('&')}` : ''}`;
}

/** `/wiki/<Title>` (path only: redirects stay on the host the browser used). */
export function articlePath(title: string, query?: URLSearchParams): string {
  const path = ARTICLE_PATH.replace('$1', encodeTitle(title));
  const q = query?.toString();
  return q ? `${path}?${q}` : path;
}

export function specialPath(name: SpecialPageName, subpage?: string): string {
  return articlePath(`Special:${name}${subpage !== undefined ? `/${subpage}` : ''}`);
}

/** `/w/index.php?title=Special:UserLogin&returnto=…` as MediaWiki sends anonymous visitors of a login-only page. */
export function loginPath(returnTo: string, warning?: string): string {
  const q = new URLSearchParams({ title: 'Special:UserLogin', returnto: returnTo, returntoquery: '' });
  if (warning) q.set('warning', warning);
  return `${SCRIPT_PATH}/index.php?${q}`;
}

/**
 * Where a successful login goes: the `returnto` title (with `returntoquery`), or the Main Page.
 * Titles with control characters or of absurd length fall back to the Main Page as invalid titles do,
 * and so do titles starting with "/": "/wiki///host" is harmless, but nothing should look like a
 * protocol-relative URL.
 */
export function returnToPath(returnTo: string, returnToQuery: string): string {
  const title = returnTo.trim();
  // eslint-disable-next-line no-control-regex
  if (!title || title.length > 255 || title.startsWith('/') || /[\u0000-\u001f\u007f]/.test(title)) return articlePath('Main Page');
  return articlePath(title, new URLSearchParams(returnToQuery));
}
