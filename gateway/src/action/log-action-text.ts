/*
 * LogFormatter::getActionText (HTML, the logged-out audience) for the recent changes feed: the
 * `logentry-<type>-<action>` message with the performer's user link as $1, the name as $2 (for
 * GENDER), the target's page link as $3, and the type's own parameters from $4 as its formatter
 * gives them (move: the new title's link; protect: ProtectLogFormatter's description).
 * The message is escaped first and the link parameters put in raw (Message::rawParam).
 */
import { englishMessage, replaceMessageParams } from '../i18n/messages.js';
import { userTimeAndDate as formatTime } from './blockinfo.js';
import { escapeHtml } from './errors.js';
import { wfUrlencode } from './query/encoding.js';
import { ARTICLE_PATH, SCRIPT_PATH } from '../config.js';

export interface LogRow {
  logType: string;
  logAction: string;
  /** The log entry's parameters as list=logevents shows them. */
  logParamsJson: string;
  user: string;
  anon: boolean;
  /** Prefixed title of the log entry's target. */
  title: string;
}

/** What a linked title is (Linker::link makes a red link of a missing one, marks redirects). */
export type PageKind = 'missing' | 'page' | 'redirect';
export type Exists = (title: string) => PageKind;

/** Linker::link of a prefixed title (no fragment), with a query, extra classes and an HTML label. */
function link(title: string, exists: Exists, labelHtml: string, classes: string[] = [], query = ''): string {
  const key = wfUrlencode(title.replace(/ /g, '_'));
  const kind = exists(title);
  if (kind !== 'missing') {
    const cls = [...(kind === 'redirect' ? ['mw-redirect'] : []), ...classes];
    const href = query ? `${SCRIPT_PATH}/index.php?title=${key}&${query}` : ARTICLE_PATH.replace('$1', key);
    return `<a href="${escapeHtml(href)}"${cls.length ? ` class="${cls.join(' ')}"` : ''} title="${escapeHtml(title)}">${labelHtml}</a>`;
  }
  const href = `${SCRIPT_PATH}/index.php?title=${key}${query ? `&${query}` : ''}&action=edit&redlink=1`;
  return `<a href="${escapeHtml(href)}" class="${['new', ...classes].join(' ')}" title="${escapeHtml(`${title} (page does not exist)`)}">${labelHtml}</a>`;
}

export function pageLink(title: string, exists: Exists, query = ''): string {
  return link(title, exists, escapeHtml(title), [], query);
}

/** Linker::userLink: a registered user's page, an anonymous one's contributions. */
export function userLink(name: string, anon: boolean, exists: Exists): string {
  const label = `<bdi>${escapeHtml(name)}</bdi>`;
  if (anon) return link(`Special:Contributions/${name}`, () => 'page', label, ['mw-userlink', 'mw-anonuserlink']);
  return link(`User:${name}`, exists, label, ['mw-userlink']);
}

/** The titles a row's action text links to (their existence is asked for once per feed). */
export function linkedTitles(row: LogRow): string[] {
  const out = [row.title];
  if (!row.anon) out.push(`User:${row.user}`);
  const params = parseParams(row.logParamsJson);
  if (row.logType === 'move' && typeof params.target_title === 'string') out.push(params.target_title);
  return out;
}

function parseParams(json: string): Record<string, unknown> {
  try {
    const v = JSON.parse(json || '{}') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const msg = (key: string): string => englishMessage(key) ?? `⧼${key}⧽`;

/** ProtectLogFormatter::createProtectDescription. */
function protectDescription(details: unknown): string {
  if (!Array.isArray(details)) return '';
  const parts = details.map((d: { type?: string; level?: string; expiry?: string }) => {
    const expiry = !d.expiry || d.expiry === 'infinity' || d.expiry === 'infinite' ? msg('protect-expiry-indefinite') : replaceMessageParams(msg('protect-expiring-local'), [formatTime(d.expiry)]);
    const level = englishMessage(`protect-level-${d.level ?? ''}`) ?? replaceMessageParams(msg('protect-fallback'), [d.level ?? '']);
    return replaceMessageParams(msg('protect-summary-desc'), [escapeHtml(msg(`restriction-${d.type ?? ''}`)), escapeHtml(level), escapeHtml(expiry)]);
  });
  return parts.join(' ');
}

/** {{GENDER:…|x}} (no gender preferences here: the neutral form) and {{PLURAL:n|one|more}}. */
export function expandMagic(text: string, args: readonly string[]): string {
  return text.replace(/\{\{(GENDER|PLURAL):([^|}]*)((?:\|[^|}]*)*)\}\}/g, (_m, fn: string, arg: string, forms: string) => {
    const f = forms.split('|').slice(1);
    if (fn === 'GENDER') return f[f.length - 1] ?? '';
    const n = Number(arg.replace(/^\$(\d+)$/, (_x, i: string) => args[Number(i) - 1] ?? ''));
    return (n === 1 ? f[0] : (f[1] ?? f[0])) ?? '';
  });
}

/** The action text of a log row, as HTML. */
export function logActionText(row: LogRow, exists: Exists): string {
  const params = parseParams(row.logParamsJson);
  let key = `logentry-${row.logType}-${row.logAction}`;
  // MoveLogFormatter: the old title links without following the redirect left behind.
  const raw: string[] = [userLink(row.user, row.anon, exists), escapeHtml(row.user), pageLink(row.title, exists, row.logType === 'move' ? 'redirect=no' : '')];
  if (row.logType === 'move') {
    if (params.suppressredirect === true || params.suppressredirect === '') key += '-noredirect';
    raw.push(typeof params.target_title === 'string' ? pageLink(params.target_title, exists) : '');
  } else if (row.logType === 'protect' && row.logAction !== 'unprotect') {
    if (params.cascade === true || params.cascade === '') key += '-cascade';
    raw.push(protectDescription(params.details));
  }
  const text = englishMessage(key);
  if (text === undefined) return escapeHtml(`(${key})`);
  // Message::escaped: the message's own text is escaped, the raw parameters are not.
  const escaped = escapeHtml(expandMagic(text, raw));
  return escaped.replace(/\$(\d+)/g, (m, i: string) => raw[Number(i) - 1] ?? m);
}
