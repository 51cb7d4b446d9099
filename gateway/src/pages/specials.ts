/*
 * The wiki's special pages for readers and editors: Search (snippets; "Go" to an exact title),
 * RecentChanges (hidebots, hideminor, days, limit), Contributions, Log, AllPages, Categories,
 * Watchlist, Random, SpecialPages, Version, CreateAccount and Upload (with the file description
 * page's text). Each lists through the same service calls as the corresponding API module.
 */
import { CreateAccountRequest, type RecentChange } from '../clients/types.js';
import { plainTextLines } from '../action/modules/support.js';
import { countEdits, editActor, editBlock } from '../action/modules/writes.js';
import { readApiRequest } from '../action/request.js';
import { hidden, html, messageBox, multiline, REVALIDATE, SafeHtml } from './html.js';
import { articlePath, indexPath, returnToPath, specialPath, type SpecialPageName } from './paths.js';
import { csrfToken, field, param, queryParam, redirect, send, SESSION_FAILURE, sessionFormTokens, validCsrf, type PageHandler, type PageRequest } from './request.js';
import { plainSnippet } from './snippet.js';
import { errorText, formatClock, formatDay, formatTime, hasRight, sizeDiff, userLinks } from './wiki.js';
import { deletedClass, revComment, revDateLink, revUserTools, textLinkable } from './revdel-html.js';
import { DELETED_COMMENT, hiddenAuthorBits, hiddenLogTypes, LOG_DELETED_ACTION, logFieldVisible, userCanSee } from '../revdel.js';

/** `limit` of a listing: MediaWiki's 50 by default, at most 500. */
function limitParam(p: PageRequest, fallback = 50): number {
  const n = Number(queryParam(p, 'limit')) | 0;
  return n > 0 ? Math.min(n, 500) : fallback;
}

/** The prefixed title of a title as typed ("main page" → "Main page" by the service's rules). */
async function canonicalTitle(p: PageRequest, text: string): Promise<{ title: string; missing: boolean } | null> {
  const r = await p.deps.clients.content.resolvePages({ titles: [text] });
  const page = r.pages[0];
  return r.invalid.length > 0 || !page ? null : { title: page.title, missing: page.missing };
}

function pageLink(title: string, missing = false): SafeHtml {
  return missing ? html`<a href="${indexPath(title, { action: 'edit', redlink: 1 })}" class="new">${title}</a>` : html`<a href="${articlePath(title)}">${title}</a>`;
}

const searchPage: PageHandler = async (p) => {
  const term = (queryParam(p, 'search') || (p.subpage ?? '').replaceAll('_', ' ')).trim();
  const fulltext = queryParam(p, 'fulltext') !== '';
  // "Go": an existing page of exactly that title is opened (SpecialSearch::goResult).
  if (term && !fulltext) {
    const exact = await p.deps.clients.search.searchPages({ query: term, what: 'nearmatch', limit: 1 }).catch(() => undefined);
    const hit = exact?.hits[0];
    if (hit) return redirect(p, articlePath(hit.title));
    const direct = await canonicalTitle(p, term);
    if (direct && !direct.missing) return redirect(p, articlePath(direct.title));
  }
  const limit = limitParam(p, 20);
  const offset = Math.max(0, Number(queryParam(p, 'offset')) | 0);
  const form = html`<form id="search" action="${'/w/index.php'}" class="mw-search-form">${hidden('title', 'Special:Search')}
<input type="search" name="search" value="${term}" id="searchText" aria-label="Search" size="50"> ${hidden('fulltext', '1')}<button type="submit" class="primary">Search</button></form>`;
  if (!term) return send(p, { title: 'Search', body: form });
  const r = await p.deps.clients.search.searchPages({ query: term, limit, offset, withSnippets: true });
  const exists = await canonicalTitle(p, term);
  const create =
    exists?.missing && hasRight(p, 'edit')
      ? html`<p class="mw-search-createlink"><b>Create the page "${pageLink(exists.title, true)}" on this wiki!</b></p>`
      : exists && !exists.missing
        ? html`<p class="mw-search-exists">There is a page named "${pageLink(exists.title)}" on this wiki.</p>`
        : '';
  const hits = r.hits.map(
    (
      h,
    ) => html`<li class="mw-search-result"><div class="mw-search-result-heading"><a href="${articlePath(h.title)}">${h.titleSnippet ? new SafeHtml(h.titleSnippet) : h.title}</a>${h.redirectTitle ? html` (redirect from <a href="${indexPath(h.redirectTitle, { redirect: 'no' })}">${h.redirectTitle}</a>)` : ''}</div>
<div class="searchresult">${plainSnippet(h.snippet)}</div>
<div class="mw-search-result-data">${h.size} bytes (${h.wordCount} words) - ${formatTime(h.timestamp)}</div></li>`,
  );
  const more = Number(r.totalHits) > offset + limit;
  const body = html`${form}${create}
${r.suggestion ? html`<p class="searchdidyoumean">Did you mean: <a href="${indexPath('Special:Search', { search: r.suggestion, fulltext: 1 })}">${r.suggestion}</a></p>` : ''}
${
  r.hits.length === 0
    ? html`<p class="mw-search-nonefound">There were no results matching the query.</p>`
    : html`<div class="results-info">Results <strong>${offset + 1} – ${offset + r.hits.length}</strong> of <strong>${Number(r.totalHits)}</strong></div>
<ul class="mw-search-results list">${hits}</ul>
<p>${offset > 0 ? html`<a href="${indexPath('Special:Search', { search: term, fulltext: 1, limit, offset: Math.max(0, offset - limit) })}" class="mw-prevlink">previous ${limit}</a>` : `previous ${limit}`} | ${more ? html`<a href="${indexPath('Special:Search', { search: term, fulltext: 1, limit, offset: offset + limit })}" class="mw-nextlink">next ${limit}</a>` : `next ${limit}`}</p>`
}`;
  send(p, { title: 'Search results', body, noindex: true, cache: REVALIDATE });
};

/** Log entries as one line of text (LogFormatter, the common types). */
const LOG_VERBS: Record<string, string> = {
  'create/create': 'created page',
  'delete/delete': 'deleted page',
  'delete/restore': 'restored page',
  'protect/protect': 'protected',
  'protect/modify': 'changed protection level for',
  'protect/unprotect': 'removed protection from',
  'move/move': 'moved page',
  'move/move_redir': 'moved page',
  'upload/upload': 'uploaded',
  'upload/overwrite': 'uploaded a new version of',
  'newusers/create': 'created user account',
  'newusers/create2': 'created user account',
  'newusers/autocreate': 'created user account',
  'block/block': 'blocked',
  'block/reblock': 'changed block settings for',
  'block/unblock': 'unblocked',
  'rights/rights': 'changed group membership for',
  'patrol/patrol': 'marked as patrolled a revision of',
};

/** A log entry's line; its performer and action (target and parameters) as the reader may see them (LogFormatter). */
function logLine(e: { type: string; action: string; user: string; title: string; paramsJson: string; deleted: number }, rights: readonly string[]): SafeHtml {
  const performer = revUserTools({ deleted: e.deleted, user: e.user, anon: false }, rights);
  if (e.deleted & LOG_DELETED_ACTION) {
    const shown = logFieldVisible(e.deleted, LOG_DELETED_ACTION, rights) ? logAction(e) : html`(log details removed)`;
    return html`${performer} <span class="${deletedClass(e.deleted)}">${shown}</span>`;
  }
  return html`${performer} ${logAction(e)}`;
}

function logAction(e: { type: string; action: string; title: string; paramsJson: string }): SafeHtml {
  const verb = LOG_VERBS[`${e.type}/${e.action}`] ?? `performed ${e.type}/${e.action} on`;
  let target: SafeHtml | '' = '';
  if (e.type === 'move') {
    try {
      const params = JSON.parse(e.paramsJson) as { target_title?: string };
      if (params.target_title) target = html` to ${pageLink(params.target_title)}`;
    } catch {
      target = '';
    }
  }
  return html`${verb} ${pageLink(e.title)}${target}`;
}

/** The lines of a changes list (ChangesList::recentChangesLine): edits with diff/hist links, log entries with their text. */
export async function changeRows(p: PageRequest, changes: RecentChange[]): Promise<SafeHtml[]> {
  const rights = p.caller.user.rights;
  const comments = await p.deps.clients.content.formatComments(changes.map((c) => ({ title: c.title, comment: userCanSee(c.deleted, DELETED_COMMENT, rights) ? c.comment : '' })));
  const rows = changes.map((c, i) => {
    const comment = revComment(c.deleted, comments[i] ?? '', rights);
    if (c.type === 'log')
      return html`<li class="mw-changeslist-log">(<a href="${indexPath('Special:Log', { type: c.logType })}">${c.logType} log</a>) ${formatTime(c.timestamp)} ${logLine({ type: c.logType, action: c.logAction, user: c.user, title: c.title, paramsJson: c.logParamsJson, deleted: c.deleted }, rights)} ${comment}</li>`;
    const diff = c.new || !textLinkable(c.deleted, rights) ? 'diff' : html`<a href="${indexPath(c.title, { curid: c.pageId, diff: c.revId, oldid: c.oldRevId })}">diff</a>`;
    return html`<li class="mw-changeslist-edit">(${diff} | <a href="${indexPath(c.title, { curid: c.pageId, action: 'history' })}">hist</a>) . . ${c.new ? html`<abbr class="newpage" title="This edit created a new page">N</abbr> ` : ''}${c.minor ? html`<abbr class="minoredit" title="This is a minor edit">m</abbr> ` : ''}${c.bot ? html`<abbr class="botedit" title="This edit was performed by a bot">b</abbr> ` : ''}<a href="${articlePath(c.title)}" class="mw-changeslist-title">${c.title}</a>; ${formatClock(c.timestamp)} . . ${sizeDiff(c.newLen - c.oldLen)} . . ${revUserTools(c, rights)} ${comment}</li>`;
  });
  return rows;
}

/** The date heading of a changes list's day (ChangesList: "29 November 2026"). */
/**
 * Special:RecentChanges without JavaScript (ChangesListSpecialPage's legacy form): the 50/100/250/500
 * and 1/3/7/14/30-day choices, hide bots (on by default), minor edits, my edits, registered users
 * and anonymous users, one namespace; the changes under a heading per day.
 */
const recentChangesPage: PageHandler = async (p) => {
  const limit = limitParam(p);
  const days = Math.min(90, Math.max(1, Number(queryParam(p, 'days')) || 7));
  const flag = (name: string, fallback = false) => (queryParam(p, name) === '' ? fallback : queryParam(p, name) === '1');
  const state = {
    hidebots: flag('hidebots', true),
    hideminor: flag('hideminor'),
    hidemyself: flag('hidemyself') && !p.caller.user.anonymous,
    hideliu: flag('hideliu'),
    hideanons: flag('hideanons'),
  };
  const nsText = queryParam(p, 'namespace');
  const namespace = /^-?\d+$/.test(nsText) ? Number(nsText) : undefined;
  const end = new Date(Date.now() - days * 86400_000).toISOString();
  const r = await p.deps.clients.content.listRecentChanges({
    limit,
    end,
    bot: state.hidebots ? -1 : 0,
    minor: state.hideminor ? -1 : 0,
    // Hiding both kinds of user hides everything (below), as MediaWiki's filters do.
    anon: state.hideliu && !state.hideanons ? 1 : state.hideanons && !state.hideliu ? -1 : 0,
    excludeUser: state.hidemyself ? p.caller.user.name : '',
    namespaces: namespace === undefined ? [] : [namespace],
  });
  const shown = state.hideliu && state.hideanons ? [] : r.changes;
  const rows = await changeRows(p, shown);
  const current: Record<string, string | number> = { days, limit, ...Object.fromEntries(Object.entries(state).map(([k, v]) => [k, v ? 1 : 0])), ...(namespace === undefined ? {} : { namespace }) };
  const opt = (label: string, q: Record<string, string | number>, isCurrent: boolean) =>
    isCurrent ? html`<strong>${label}</strong>` : html`<a href="${indexPath('Special:RecentChanges', { ...current, ...q })}">${label}</a>`;
  const toggle = (name: keyof typeof state, hide: string, show: string) => opt(state[name] ? show : hide, { [name]: state[name] ? 0 : 1 }, false);
  const namespaces = (await p.deps.site.namespaces()).namespaces.filter((n) => n.id >= 0);
  // One list per day, newest first, as the changes come.
  const byDay: { day: string; rows: SafeHtml[] }[] = [];
  shown.forEach((c, i) => {
    const day = formatDay(c.timestamp);
    if (byDay.at(-1)?.day !== day) byDay.push({ day, rows: [] });
    byDay.at(-1)!.rows.push(rows[i]!);
  });
  const body = html`<fieldset class="rcoptions"><legend>Recent changes options</legend>
<p>Show last ${[50, 100, 250, 500].map((n, i) => html`${i ? ' | ' : ''}${opt(String(n), { limit: n }, n === limit)}`)} changes in last ${[1, 3, 7, 14, 30].map((n, i) => html`${i ? ' | ' : ''}${opt(String(n), { days: n }, n === days)}`)} days</p>
<p>${toggle('hidebots', 'Hide bots', 'Show bots')} | ${toggle('hideminor', 'Hide minor edits', 'Show minor edits')}${p.caller.user.anonymous ? '' : html` | ${toggle('hidemyself', 'Hide my edits', 'Show my edits')}`} | ${toggle('hideliu', 'Hide registered users', 'Show registered users')} | ${toggle('hideanons', 'Hide anonymous users', 'Show anonymous users')}</p>
<form action="/w/index.php">${hidden('title', 'Special:RecentChanges')}${Object.entries(current)
    .filter(([k]) => k !== 'namespace')
    .map(([k, v]) => hidden(k, String(v)))}<label for="namespace">Namespace:</label> <select id="namespace" name="namespace"><option value="">all</option>${namespaces.map(
    (n) => html`<option value="${n.id}"${n.id === namespace ? new SafeHtml(' selected') : ''}>${n.name || '(Main)'}</option>`,
  )}</select> <button type="submit">Go</button></form>
</fieldset>
${byDay.length ? html`<div id="mw-recentchanges">${byDay.map((d) => html`<h4>${d.day}</h4><ul class="special list mw-changeslist">${d.rows}</ul>`)}</div>` : html`<p>No changes during the given period match these criteria.</p>`}`;
  send(p, { title: 'Recent changes', body, cache: REVALIDATE });
};

const contributionsPage: PageHandler = async (p) => {
  const target = (p.subpage ?? queryParam(p, 'target')).replaceAll('_', ' ').trim();
  const form = html`<form action="/w/index.php">${hidden('title', 'Special:Contributions')}<label class="field" for="target">IP address or username:</label><input type="text" name="target" id="target" value="${target}"> <button type="submit">Search</button></form>`;
  if (!target) return send(p, { title: 'User contributions', body: form });
  const limit = limitParam(p);
  const rights = p.caller.user.rights;
  // ContribsPager: revisions whose author is hidden from the reader are left out.
  const r = await p.deps.clients.content.listUserContribs({ users: [target], limit, hideBits: hiddenAuthorBits(rights) });
  const comments = await p.deps.clients.content.formatComments(r.contribs.map((c) => ({ title: c.title, comment: userCanSee(c.deleted, DELETED_COMMENT, rights) ? c.comment : '' })));
  const rows = r.contribs.map(
    (c, i) =>
      html`<li data-mw-revid="${c.revId}">${revDateLink({ id: c.revId, deleted: c.deleted }, c.title, formatTime(c.timestamp), rights)} (${c.parentId && textLinkable(c.deleted, rights) ? html`<a href="${indexPath(c.title, { diff: 'prev', oldid: c.revId })}">diff</a>` : 'diff'} | <a href="${indexPath(c.title, { action: 'history' })}">hist</a>) . . ${sizeDiff(c.sizeDiff)} . . ${c.new ? html`<abbr class="newpage" title="This edit created a new page">N</abbr> ` : ''}${c.minor ? html`<abbr class="minoredit" title="This is a minor edit">m</abbr> ` : ''}${pageLink(c.title)} ${revComment(c.deleted, comments[i] ?? '', rights)}${c.top ? html` <span class="mw-uctop">(current)</span>` : ''}</li>`,
  );
  send(p, {
    title: `User contributions`,
    heading: html`Contributions of ${target}`,
    subtitle: html`For ${userLinks(target)}`,
    body: html`${form}${rows.length ? html`<ul class="mw-contributions-list list">${rows}</ul>` : html`<p>No changes were found matching these criteria.</p>`}`,
  });
};

const logPage: PageHandler = async (p) => {
  const type = (p.subpage ?? queryParam(p, 'type')).trim();
  const user = queryParam(p, 'user').trim();
  const pageTitle = queryParam(p, 'page').trim();
  const limit = limitParam(p);
  const rights = p.caller.user.rights;
  const hiddenTypes = hiddenLogTypes(rights);
  if (hiddenTypes.includes(type)) {
    // SpecialLog::execute: a restricted log the caller may not read is a permission error (answered with 200).
    const reason = 'You do not have permission to view this private log, for the following reason: The action you have requested is limited to users in the group: Suppressors.';
    return send(p, { title: 'Permission error', body: messageBox('error', reason) });
  }
  let titleFilter = {};
  if (pageTitle) {
    const t = (await p.deps.clients.content.resolvePages({ titles: [pageTitle] })).pages[0];
    if (t) titleFilter = { hasTitle: true, ns: t.ns, dbkey: t.dbkey.slice(t.dbkey.indexOf(':') + 1 && t.ns !== 0 ? t.dbkey.indexOf(':') + 1 : 0) };
  }
  const r = await p.deps.clients.content.listLogEvents({ type: type === 'all' ? '' : type, user, limit, namespace: -1, hiddenTypes, ...titleFilter });
  const events = r.events.slice(0, limit);
  // Fields hidden by revision deletion of log entries (log_deleted).
  const bits = await p.deps.clients.archive.logEntryVisibility(events.map((e) => e.logId));
  const shown = events.map((e) => ({ ...e, deleted: bits.get(e.logId) ?? 0 }));
  const comments = await p.deps.clients.content.formatComments(shown.map((e) => ({ title: e.title, comment: logFieldVisible(e.deleted, DELETED_COMMENT, rights) ? e.comment : '' })));
  const rows = shown.map(
    (e, i) => html`<li data-mw-logid="${e.logId}" class="mw-logline-${e.type}">${formatTime(e.timestamp)} ${logLine(e, rights)} ${revComment(e.deleted, comments[i] ?? '', rights)}</li>`,
  );
  const types = ['', 'block', 'delete', 'move', 'newusers', 'protect', 'rights', 'upload', 'create', 'patrol'];
  const body = html`<form action="/w/index.php" class="inline">${hidden('title', 'Special:Log')}<fieldset><legend>Logs</legend>
<select name="type" aria-label="Log type">${types.map((t) => html`<option value="${t}"${t === type ? new SafeHtml(' selected') : ''}>${t ? `${t[0]!.toUpperCase()}${t.slice(1)} log` : 'All public logs'}</option>`)}</select>
<label>Performer: <input type="text" name="user" value="${user}"></label> <label>Target: <input type="text" name="page" value="${pageTitle}"></label> <button type="submit">Show</button></fieldset></form>
${rows.length ? html`<ul class="list">${rows}</ul>` : html`<p>No matching items in log.</p>`}`;
  send(p, { title: type ? `${type[0]!.toUpperCase()}${type.slice(1)} log` : 'All public logs', body, cache: REVALIDATE });
};

const allPagesPage: PageHandler = async (p) => {
  const from = (p.subpage ?? queryParam(p, 'from')).replaceAll(' ', '_');
  const namespaces = (await p.deps.site.namespaces()).namespaces.filter((n) => n.id >= 0);
  const asked = Number(queryParam(p, 'namespace')) | 0;
  // An unknown namespace lists the main one, as the form's select would.
  const namespace = namespaces.some((n) => n.id === asked) ? asked : 0;
  const r = await p.deps.clients.content.listPages({ namespace, from, limit: 345 });
  const body = html`<form action="/w/index.php">${hidden('title', 'Special:AllPages')}<label>Display pages starting at: <input type="text" name="from" value="${from.replaceAll('_', ' ')}"></label>
<label>Namespace: <select name="namespace">${namespaces.map((n) => html`<option value="${n.id}"${n.id === namespace ? new SafeHtml(' selected') : ''}>${n.name || '(Main)'}</option>`)}</select></label> <button type="submit">Go</button></form>
<ul class="mw-allpages-chunk list">${r.pages.map((pg) => html`<li${pg.redirect ? new SafeHtml(' class="allpagesredirect"') : ''}>${pageLink(pg.title)}</li>`)}</ul>
${r.continueFrom ? html`<p><a href="${indexPath('Special:AllPages', { from: r.continueFrom, namespace })}" class="mw-nextlink">Next page (${r.continueFrom.replaceAll('_', ' ')})</a></p>` : ''}`;
  send(p, { title: 'All pages', body, cache: REVALIDATE });
};

const categoriesPage: PageHandler = async (p) => {
  const r = await p.deps.clients.content.listPages({ namespace: 14, from: queryParam(p, 'from'), limit: 200 });
  const info = r.pages.length ? await p.deps.clients.content.getCategoryInfo({ names: r.pages.map((x) => x.dbkey.slice(x.dbkey.indexOf(':') + 1)) }) : undefined;
  const counts = new Map((info?.categories ?? []).map((c) => [c.name, c] as const));
  const body = html`<p>The following categories exist on the wiki.</p><ul class="list">${r.pages.map((c) => {
    const n = counts.get(c.dbkey.slice(c.dbkey.indexOf(':') + 1));
    return html`<li>${pageLink(c.title)}${n ? ` (${Number(n.size)} member${Number(n.size) === 1 ? '' : 's'})` : ''}</li>`;
  })}</ul>`;
  send(p, { title: 'Categories', body, cache: REVALIDATE });
};

const watchlistPage: PageHandler = async (p) => {
  if (p.caller.user.anonymous) return redirect(p, `/w/index.php?title=Special:UserLogin&returnto=Special:Watchlist&warning=exception-nologin-text`);
  const r = await p.deps.clients.content.listWatchlist({ userId: p.caller.user.id, limit: limitParam(p), end: new Date(Date.now() - 7 * 86400_000).toISOString() });
  const rights = p.caller.user.rights;
  // ChangesList: an author or summary hidden by revision deletion is "removed" for who may not see it.
  const comments = await p.deps.clients.content.formatComments(r.changes.map((c) => ({ title: c.title, comment: userCanSee(c.deleted, DELETED_COMMENT, rights) ? c.comment : '' })));
  const rows = r.changes.map(
    (c, i) =>
      html`<li>(${c.oldRevId && c.revId && textLinkable(c.deleted, rights) ? html`<a href="${indexPath(c.title, { diff: c.revId, oldid: c.oldRevId })}">diff</a>` : 'diff'} | <a href="${indexPath(c.title, { action: 'history' })}">hist</a>) . . ${pageLink(c.title)}; ${formatTime(c.timestamp)} . . ${revUserTools(c, rights)} ${revComment(c.deleted, comments[i] ?? '', rights)}</li>`,
  );
  const raw = await p.deps.clients.content.listWatchlistRaw({ userId: p.caller.user.id, limit: 500 });
  const subjects = raw.pages.filter((x) => x.ns % 2 === 0).length;
  const body = html`<p>You have ${subjects} page${subjects === 1 ? '' : 's'} on your watchlist (excluding talk pages). Changes of the last 7 days:</p>
${rows.length ? html`<ul class="list" id="mw-watchlist">${rows}</ul>` : html`<p>No changes during the given period match these criteria.</p>`}`;
  send(p, { title: 'Watchlist', body });
};

const randomPage: PageHandler = async (p) => {
  // Special:Random: a random content page; the service's listing from a random starting point.
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const start = letters[Math.floor(Math.random() * letters.length)]!;
  const after = await p.deps.clients.content.listPages({ namespace: 0, from: start, limit: 20, filterRedirects: 2 });
  const pool = after.pages.length ? after.pages : (await p.deps.clients.content.listPages({ namespace: 0, limit: 20, filterRedirects: 2 })).pages;
  const pick = pool[Math.floor(Math.random() * pool.length)];
  redirect(p, articlePath(pick?.title ?? 'Main Page'));
};

const SPECIAL_LIST: [string, [SpecialPageName, string][]][] = [
  [
    'Recent changes and logs',
    [
      ['RecentChanges', 'Recent changes'],
      ['RecentChangesLinked', 'Related changes'],
      ['Log', 'Logs'],
    ],
  ],
  [
    'Lists of pages',
    [
      ['AllPages', 'All pages'],
      ['Categories', 'Categories'],
      ['Random', 'Random page'],
    ],
  ],
  [
    'Users and rights',
    [
      ['CreateAccount', 'Create account'],
      ['UserLogin', 'Log in'],
      ['Preferences', 'Preferences'],
      ['ChangePassword', 'Change password'],
      ['ChangeEmail', 'Change or remove email address'],
      ['Contributions', 'User contributions'],
      ['BotPasswords', 'Bot passwords'],
      ['Block', 'Block user'],
    ],
  ],
  [
    'Page tools',
    [
      ['Export', 'Export pages'],
      ['Import', 'Import pages'],
      ['MovePage', 'Move page'],
      ['Undelete', 'View and restore deleted pages'],
      ['WhatLinksHere', 'What links here'],
    ],
  ],
  ['Media reports and uploads', [['Upload', 'Upload file']]],
  ['Search', [['Search', 'Search']]],
  ['Watchlist', [['Watchlist', 'Watchlist']]],
  ['Wiki data and tools', [['Version', 'Version']]],
];

const specialPagesPage: PageHandler = async (p) => {
  const body = html`${SPECIAL_LIST.map(([group, pages]) => html`<h2>${group}</h2><ul class="list">${pages.map(([name, text]) => html`<li><a href="${specialPath(name)}">${text}</a></li>`)}</ul>`)}`;
  send(p, { title: 'Special pages', body, cache: REVALIDATE });
};

const versionPage: PageHandler = async (p) => {
  const body = html`<h2 id="mw-version-license">License</h2><p>${p.deps.config.sitename} runs Quire, a wiki service that speaks MediaWiki's Action and REST APIs.</p>
<h2 id="mw-version-software">Installed software</h2>
<table class="wikitable" id="sv-software"><tr><th>Product</th><th>Version</th></tr>
<tr><td>Quire</td><td>0.1.0 (MediaWiki 1.39 compatible)</td></tr><tr><td>Node.js</td><td>${process.version}</td></tr></table>
<h2 id="mw-version-entrypoints">Entry point URLs</h2>
<table class="wikitable" id="mw-version-entrypoints-table"><tr><th>Entry point</th><th>URL</th></tr>
<tr><td>Article path</td><td><code>/wiki/$1</code></td></tr><tr><td>Script path</td><td><code>/w</code></td></tr>
<tr><td>index.php</td><td><code>/w/index.php</code></td></tr><tr><td>api.php</td><td><a href="/w/api.php"><code>/w/api.php</code></a></td></tr><tr><td>rest.php</td><td><code>/w/rest.php</code></td></tr></table>`;
  send(p, { title: 'Version', body, cache: REVALIDATE });
};

/** MediaWiki's "welcomeuser" page after a visitor's account creation: logged in, with the return link. */
function welcomePage(p: PageRequest): void {
  const returnTo = param(p, 'returnto').trim() || 'Main Page';
  const body = html`<p>Your account has been created.
You can change your ${p.deps.config.sitename} <a href="${specialPath('Preferences')}">preferences</a> if you wish.
</p><p id="mw-returnto">Return to <a href="${returnToPath(returnTo, param(p, 'returntoquery'))}">${returnTo.replace(/_/g, ' ')}</a>.</p>`;
  send(p, { title: `Welcome, ${p.caller.user.name}!`, body });
}

/**
 * Special:CreateAccount, MediaWiki's form (wpName, wpPassword, retype, email, realname; the
 * session's wpCreateaccountToken is the one checked). The form opens a session for a first visitor;
 * a visitor's new account is logged in, a logged-in user's is only created.
 */
const createAccountPage: PageHandler = async (p) => {
  const show = async (error?: string) => {
    const tokens = await sessionFormTokens(p, ['createaccount', 'csrf']);
    const body = html`${error ? messageBox('error', multiline(error)) : ''}
<form method="post" action="${specialPath('CreateAccount')}" name="userlogin2" id="userlogin2">
<label class="field" for="wpName2">Username</label><input type="text" id="wpName2" name="wpName" value="${field(p, 'wpName')}" autocomplete="username" required>
<label class="field" for="wpPassword2">Password</label><input type="password" id="wpPassword2" name="wpPassword" autocomplete="new-password" required>
<label class="field" for="wpRetype">Confirm password</label><input type="password" id="wpRetype" name="retype" autocomplete="new-password" required>
<label class="field" for="wpEmail">Email address (optional)</label><input type="email" id="wpEmail" name="email" value="${field(p, 'email')}" autocomplete="email">
<label class="field" for="wpRealName">Real name (optional)</label><input type="text" id="wpRealName" name="realname" value="${field(p, 'realname')}" autocomplete="name">
${hidden('wpEditToken', tokens.csrf)}${hidden('authAction', 'create')}${hidden('wpCreateaccountToken', tokens.createaccount)}${param(p, 'returnto') ? hidden('returnto', param(p, 'returnto')) : ''}${param(p, 'returntoquery') ? hidden('returntoquery', param(p, 'returntoquery')) : ''}
<div class="buttons"><button type="submit" class="primary" id="wpCreateaccount" name="wpCreateaccount" value="1">Create your account</button></div></form>`;
    send(p, { title: 'Create account', body });
  };
  if (p.method !== 'POST') return show();
  if (!p.caller.sessionId || !(await p.deps.clients.auth.checkToken(p.caller.sessionId, 'createaccount', field(p, 'wpCreateaccountToken'))).valid) return show(SESSION_FAILURE);
  if (field(p, 'wpPassword') !== field(p, 'retype')) return show('The passwords you entered do not match.');
  const registered = !p.caller.user.anonymous;
  const r = await p.deps.clients.auth.createAccount(
    CreateAccountRequest.fromPartial({
      sessionId: p.caller.sessionId,
      username: field(p, 'wpName'),
      password: field(p, 'wpPassword'),
      email: field(p, 'email'),
      realname: field(p, 'realname'),
      ip: p.caller.ip,
      logIn: !registered,
    }),
  );
  if (!r.ok) return show(plainTextLines(r.message) || 'The account could not be created.');
  // AuthManager: a new account watches its user page (and so its talk page).
  if (r.user) await p.deps.clients.content.watch({ userId: r.user.id, titles: [`User:${r.user.name}`] });
  if (registered) {
    const name = r.user?.name ?? '';
    return send(p, { title: 'Account created', body: messageBox('success', html`The user account for <a href="${articlePath(`User:${name}`)}">${name}</a> has been created.`) });
  }
  // The visitor is now the new user: the page and its header are theirs.
  p.caller.cookies?.set(r.sessionId);
  const session = await p.deps.clients.auth.resolveSession(r.sessionId, p.caller.ip);
  welcomePage({ ...p, caller: { ...p.caller, sessionId: r.sessionId, user: session.user ?? r.user! } });
};

const uploadPage: PageHandler = async (p) => {
  if (p.caller.user.anonymous) return redirect(p, `/w/index.php?title=Special:UserLogin&returnto=Special:Upload&warning=exception-nologin-text`);
  if (!hasRight(p, 'upload') || editBlock(p.caller)) return send(p, { title: 'Upload file', status: 403, body: messageBox('error', 'You do not have permission to upload this file.') });
  let error: SafeHtml | undefined;
  let values: Record<string, string> = {};
  if (p.method === 'POST') {
    // multipart/form-data: read as the action API reads uploads.
    const req = await readApiRequest(p.req);
    values = Object.fromEntries(req.values);
    p.req.body = values;
    const file = req.files.get('wpUploadFile');
    const dest = (values.wpDestFile || file?.filename || '').trim();
    if (!(await validCsrf(p))) error = messageBox('error', SESSION_FAILURE);
    else if (!file || file.data.length === 0)
      error = messageBox('error', 'The file you uploaded seems to be empty. This might be due to a typo in the filename. Please check whether you really want to upload this file.');
    else {
      try {
        const r = await p.deps.clients.content.upload({
          filename: dest,
          data: file.data,
          comment: values.wpUploadDescription ?? '',
          text: values.wpUploadDescription ?? '',
          ignoreWarnings: values.wpIgnoreWarning === '1',
          actor: editActor(p.caller),
          maxBytes: p.deps.config.uploadMaxBytes,
          tags: [],
          watchlist: values.wpWatchthis ? 'watch' : 'nochange',
        });
        if (r.result === 'Success') {
          if (!r.warnings?.exists) countEdits(p.deps, p.caller, 1);
          return redirect(p, articlePath(`File:${r.filename}`));
        }
        const w = r.warnings;
        const lines = [
          w?.exists ? `A file with this name exists already: ${w.exists}.` : '',
          w?.duplicate.length ? `This file is a duplicate of: ${w.duplicate.join(', ')}.` : '',
          w?.badfilename ? `The name was changed to "${w.badfilename}".` : '',
          w?.wasDeleted ? 'A file with this name was previously deleted.' : '',
          w?.nochangeTimestamp ? 'This file is exactly the same as the current version.' : '',
        ].filter(Boolean);
        error = messageBox('warning', html`<strong>Upload warning</strong><br>${multiline(lines.join('\n') || 'The upload has warnings.')}<br>Tick "Ignore any warnings" to upload anyway.`);
      } catch (e) {
        error = messageBox('error', errorText(e));
      }
    }
  }
  const body = html`${error ?? ''}<p>Use the form below to upload files. To view or search previously uploaded files go to the <a href="${indexPath('Special:Log', { type: 'upload' })}">upload log</a>.</p>
<form method="post" action="${specialPath('Upload')}" enctype="multipart/form-data" id="mw-upload-form">
<fieldset><legend>Source file</legend><label class="field" for="wpUploadFile">Source filename:</label><input type="file" name="wpUploadFile" id="wpUploadFile"></fieldset>
<fieldset><legend>File description</legend>
<label class="field" for="wpDestFile">Destination filename:</label><input type="text" name="wpDestFile" id="wpDestFile" value="${values.wpDestFile ?? ''}">
<label class="field" for="wpUploadDescription">Summary:</label><textarea name="wpUploadDescription" id="wpUploadDescription" rows="6">${values.wpUploadDescription ?? ''}</textarea></fieldset>
<fieldset><legend>Upload options</legend><label><input type="checkbox" name="wpWatchthis" value="1" checked> Watch this file</label>
<label><input type="checkbox" name="wpIgnoreWarning" id="wpIgnoreWarning" value="1"> Ignore any warnings</label></fieldset>
${hidden('wpEditToken', await csrfToken(p))}${hidden('title', 'Special:Upload')}
<div class="buttons"><button type="submit" class="primary" name="wpUpload" id="wpUpload" value="Upload file">Upload file</button></div></form>`;
  send(p, { title: 'Upload file', body });
};

export const SPECIAL_HANDLERS = {
  Search: searchPage,
  RecentChanges: recentChangesPage,
  Contributions: contributionsPage,
  Log: logPage,
  AllPages: allPagesPage,
  Categories: categoriesPage,
  Watchlist: watchlistPage,
  Random: randomPage,
  SpecialPages: specialPagesPage,
  Version: versionPage,
  CreateAccount: createAccountPage,
  Upload: uploadPage,
} satisfies Partial<Record<SpecialPageName, PageHandler>>;
