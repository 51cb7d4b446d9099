/*
 * What the article actions and the special pages share: the title a request names (through the
 * content service's title rules), the tabs of a page, MediaWiki's date and size formats, links
 * to users and pages, and the text of a service's refusal.
 */
import { ServiceError } from '@quire/kit';
import type { PageRecord } from '../clients/types.js';
import { ApiUsageError } from '../action/types.js';
import { isoFromMw } from '../validation/typedefs.js';
import { html, messageBox, SafeHtml, type SkinLink } from './html.js';
import { articlePath, indexPath, specialPath } from './paths.js';
import { send, type PageRequest } from './request.js';
import { currentClock, shifted } from './user-clock.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const two = (n: number) => String(n).padStart(2, '0');

/** The date part in the reader's format (Language::userDate): "27 November 2026". */
export function formatDay(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const clock = currentClock();
  const t = shifted(d, clock);
  const [day, month, year] = [t.getUTCDate(), MONTHS[t.getUTCMonth()], t.getUTCFullYear()];
  if (clock.format === 'mdy') return `${month} ${day}, ${year}`;
  if (clock.format === 'ymd') return `${year} ${month} ${day}`;
  if (clock.format === 'ISO 8601') return `${year}-${two(t.getUTCMonth() + 1)}-${two(day)}`;
  return `${day} ${month} ${year}`;
}

/** The time part in the reader's zone (Language::userTime): "13:45" ("13:45:07" in ISO 8601). */
export function formatClock(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const clock = currentClock();
  const t = shifted(d, clock);
  return `${two(t.getUTCHours())}:${two(t.getUTCMinutes())}${clock.format === 'ISO 8601' ? `:${two(t.getUTCSeconds())}` : ''}`;
}

/** Time and date in the reader's format and zone (Language::userTimeAndDate): "13:45, 27 November 2026". */
export function formatTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  if (currentClock().format === 'ISO 8601') return `${formatDay(iso)}T${formatClock(iso)}`;
  return `${formatClock(iso)}, ${formatDay(iso)}`;
}

/** "27 November 2026, at 13:45" (the footer's "last edited", lastmodifiedat). */
export function formatDateAt(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${formatDay(iso)}, at ${formatClock(iso)}`;
}

/** TS_MW (yyyymmddhhmmss) of an ISO time, as wpEdittime/wpStarttime carry it. */
export function mwTimestamp(iso: string): string {
  return iso.replace(/[-:TZ]/g, '').slice(0, 14);
}

/** ISO 8601 of a TS_MW value; "" when it is not one. */
export function isoFromMwTimestamp(ts: string): string {
  return /^\d{14}$/.test(ts) ? isoFromMw(ts) : '';
}

/** ChangesList::showCharacterDifference: (+12) in green, (−3) in red. */
export function sizeDiff(diff: number): SafeHtml {
  const cls = diff > 0 ? 'mw-plusminus-pos' : diff < 0 ? 'mw-plusminus-neg' : 'mw-plusminus-null';
  return html`<span class="${cls}">(${diff > 0 ? `+${diff}` : diff < 0 ? `\u2212${-diff}` : '0'})</span>`;
}

/** Linker::userLink + userToolLinks: the name, then (talk | contributions). */
export function userLinks(name: string, anonymous = false): SafeHtml {
  const user = anonymous
    ? html`<a href="${specialPath('Contributions', name)}" class="mw-userlink mw-anonuserlink">${name}</a>`
    : html`<a href="${articlePath(`User:${name}`)}" class="mw-userlink">${name}</a>`;
  return html`${user} <span class="mw-usertoollinks">(<a href="${articlePath(`User talk:${name}`)}">talk</a> | <a href="${specialPath('Contributions', name)}">contribs</a>)</span>`;
}

/** An edit summary as MediaWiki shows it in lists: the formatted comment in parentheses, or nothing. */
export function summaryHtml(formatted: string): SafeHtml {
  return formatted ? html`<span class="comment">(${new SafeHtml(formatted)})</span>` : html``;
}

/** The text of a refusal: a service's MediaWiki message, an API usage error's, or a generic one. */
export function errorText(e: unknown): string {
  if (e instanceof ServiceError || e instanceof ApiUsageError) return e.message;
  throw e;
}

/** The MediaWiki code of a refusal ("" for others). */
export function errorCode(e: unknown): string {
  if (e instanceof ServiceError) return e.mwCode;
  if (e instanceof ApiUsageError) return e.code;
  return '';
}

/** The page a title names, as the content service normalizes it; null (after answering 400) for an invalid title. */
export async function resolveTitle(p: PageRequest, asked: string): Promise<PageRecord | null> {
  const r = await p.deps.clients.content.resolvePages({ titles: [asked] });
  const page = r.pages[0];
  if (r.invalid.length > 0 || !page) {
    send(p, {
      title: 'Bad title',
      status: 400,
      body: messageBox(
        'error',
        `The requested page title is invalid, empty, or an incorrectly linked inter-language or inter-wiki title. It may contain one or more characters that cannot be used in titles.${r.invalid[0]?.reason ? ` (${r.invalid[0].reason})` : ''}`,
      ),
    });
    return null;
  }
  return page;
}

/** The title text without its namespace prefix. */
export function titleText(page: PageRecord): string {
  const colon = page.title.indexOf(':');
  return page.ns !== 0 && colon >= 0 ? page.title.slice(colon + 1) : page.title;
}

/** The prefixed title of the subject (even ns) or talk (odd ns) page of `page`. */
export async function associatedTitle(p: PageRequest, page: PageRecord): Promise<{ title: string; talk: boolean } | null> {
  if (page.ns < 0) return null;
  const talk = page.ns % 2 === 0;
  const otherNs = talk ? page.ns + 1 : page.ns - 1;
  const ns = (await p.deps.site.namespaces()).namespaces.find((n) => n.id === otherNs);
  if (!ns) return null;
  const text = titleText(page);
  return { title: ns.name ? `${ns.name}:${text}` : text, talk };
}

/** Whether the caller has a right: what every page checks, never a group's name (groups are configurable). */
export function hasRight(p: PageRequest, right: string): boolean {
  return p.caller.user.rights.includes(right);
}

/**
 * Whether the caller lacks `right`, answering MediaWiki's permission error when so (PermissionsError;
 * `action` is the right's action-<right> text, "manage OAuth consumers").
 */
export function lacksRight(p: PageRequest, right: string, action: string): boolean {
  if (hasRight(p, right)) return false;
  send(p, {
    title: 'Permission error',
    status: 403,
    body: messageBox('error', `You do not have permission to ${action}, for the following reason: You are not allowed to execute the action you have requested.`),
  });
  return true;
}

export type TabName = 'view' | 'edit' | 'history' | 'watch' | 'delete' | 'move' | 'protect' | 'info' | 'purge' | 'none';

/** The namespace tabs (page, talk) and the view tabs (read, edit, history, watch, sysop actions) of a page. */
export async function pageTabs(p: PageRequest, page: PageRecord, selected: TabName): Promise<{ namespaces: SkinLink[]; views: SkinLink[] }> {
  const other = await associatedTitle(p, page);
  const needWatch = !p.caller.user.anonymous;
  const [otherPage, details] = await Promise.all([
    other ? p.deps.clients.content.resolvePages({ titles: [other.title] }).then((r) => r.pages[0]) : Promise.resolve(undefined),
    needWatch ? p.deps.clients.content.getPageInfoDetails({ titles: [page.title], watchUserId: p.caller.user.id }).then((r) => r.pages[0]) : Promise.resolve(undefined),
  ]);
  const subjectTab = (title: string, missing: boolean, sel: boolean, ns: number): SkinLink => ({
    id: ns === 0 ? 'ca-nstab-main' : `ca-nstab-${nsTabId(ns)}`,
    text: ns === 0 ? 'Page' : nsTabText(ns),
    href: missing ? indexPath(title, { action: 'edit', redlink: 1 }) : articlePath(title),
    selected: sel,
    isNew: missing,
  });
  const talkTab = (title: string, missing: boolean, sel: boolean): SkinLink => ({
    id: 'ca-talk',
    text: 'Talk',
    href: missing ? indexPath(title, { action: 'edit', redlink: 1 }) : articlePath(title),
    selected: sel,
    isNew: missing,
  });
  const namespaces: SkinLink[] = [];
  if (!other) namespaces.push(subjectTab(page.title, page.missing, true, page.ns));
  else if (other.talk) namespaces.push(subjectTab(page.title, page.missing, true, page.ns), talkTab(other.title, otherPage?.missing ?? true, false));
  else namespaces.push(subjectTab(other.title, otherPage?.missing ?? true, false, page.ns - 1), talkTab(page.title, page.missing, true));

  const canEdit = hasRight(p, 'edit') && !p.caller.user.block;
  const views: SkinLink[] = [{ id: 'ca-view', text: 'Read', href: articlePath(page.title), selected: selected === 'view' }];
  views.push({
    id: page.missing ? 'ca-edit' : 'ca-edit',
    text: !canEdit ? 'View source' : page.missing ? 'Create' : 'Edit',
    href: indexPath(page.title, { action: 'edit' }),
    selected: selected === 'edit',
  });
  if (!page.missing) views.push({ id: 'ca-history', text: 'History', href: indexPath(page.title, { action: 'history' }), selected: selected === 'history' });
  if (details) {
    views.push(
      details.watched
        ? { id: 'ca-unwatch', text: 'Unwatch', href: indexPath(page.title, { action: 'unwatch' }), selected: selected === 'watch' }
        : { id: 'ca-watch', text: 'Watch', href: indexPath(page.title, { action: 'watch' }), selected: selected === 'watch' },
    );
  }
  if (!page.missing && hasRight(p, 'delete')) views.push({ id: 'ca-delete', text: 'Delete', href: indexPath(page.title, { action: 'delete' }), selected: selected === 'delete' });
  if (!page.missing && hasRight(p, 'move')) views.push({ id: 'ca-move', text: 'Move', href: specialPath('MovePage', page.title), selected: selected === 'move' });
  if (hasRight(p, 'protect')) views.push({ id: 'ca-protect', text: 'Protect', href: indexPath(page.title, { action: 'protect' }), selected: selected === 'protect' });
  return { namespaces, views };
}

const NS_TAB: Record<number, [string, string]> = {
  2: ['user', 'User page'],
  4: ['project', 'Project page'],
  6: ['image', 'File'],
  8: ['mediawiki', 'Message'],
  10: ['template', 'Template'],
  12: ['help', 'Help page'],
  14: ['category', 'Category'],
};
function nsTabId(ns: number): string {
  return NS_TAB[ns]?.[0] ?? 'main';
}
function nsTabText(ns: number): string {
  return NS_TAB[ns]?.[1] ?? 'Page';
}

/** A page's "(Redirected from X)" or revision subtitle pieces joined. */
export function joinHtml(parts: SafeHtml[], sep: string): SafeHtml {
  return new SafeHtml(parts.map((x) => x.value).join(sep));
}
