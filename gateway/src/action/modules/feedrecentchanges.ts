/*
 * action=feedrecentchanges (MediaWiki's ApiFeedRecentChanges): the rows Special:RecentChanges
 * (or, with `target`, Special:RecentChangesLinked) would list, as an RSS or Atom feed built as
 * ChangesFeed::buildItems and FeedUtils::formatDiff build it: adjacent edits of one user to one
 * page merged, each item's description the comment (a log entry's action text before it) and
 * the styled diff table, or a new page's text.
 */
import { DiffFormat, LinkTable, type RecentChange } from '../../clients/types.js';
import { englishMessage, replaceMessageParams } from '../../i18n/messages.js';
import { userTimeAndDate as formatTime } from '../blockinfo.js';
import { escapeHtml } from '../errors.js';
import { FEED_FORMAT_PARAM, FEED_LIMIT, fullUrl, sendFeed, talkPageTitle, type FeedItem } from '../feed.js';
import { expandMagic, linkedTitles, logActionText, type PageKind } from '../log-action-text.js';
import { ApiUsageError, type ActionContext } from '../types.js';
import { isoOfMw } from '../query/changes.js';
import { defineModule, defineParams, type ParamsOf } from '../define.js';

/** $wgRCMaxAge in days (90 days, MediaWiki's default). */
const RC_MAX_AGE_DAYS = 90;
/** $wgFeedDiffCutoff: longer diffs and new pages become a link. */
export const FEED_DIFF_CUTOFF = 32768;
/** Changes read for a related-changes feed before its filter (the linked pages are a set, not an RPC filter). */
const LINKED_SCAN_LIMIT = 5000;

const msg = (key: string): string => englishMessage(key) ?? `⧼${key}⧽`;

/** ChangesFeed::buildItems' merge: a user's run of edits to one page becomes the newest one, diffed from before the run. */
export function mergeAdjacentEdits(rows: readonly RecentChange[]): RecentChange[] {
  const sorted: RecentChange[] = [];
  for (const row of rows) {
    const prev = sorted[sorted.length - 1];
    if (prev && row.type === 'edit' && row.ns >= 0 && row.pageId === prev.pageId && row.user === prev.user) {
      sorted[sorted.length - 1] = { ...prev, oldRevId: row.oldRevId };
    } else {
      sorted.push(row);
    }
  }
  return sorted;
}

/** PHP's nl2br over htmlspecialchars (ENT_QUOTES). */
function sourceHtml(text: string): string {
  return escapeHtml(text).replace(/\r\n|\n\r|\n|\r/g, (m) => `<br />${m}`);
}

/** FeedUtils::applyDiffStyle: each styled class attribute becomes an inline style. */
const DIFF_STYLES: [string, string][] = [
  ['diff', 'background-color: #fff; color: #202122;'],
  ['diff-otitle', 'background-color: #fff; color: #202122; text-align: center;'],
  ['diff-ntitle', 'background-color: #fff; color: #202122; text-align: center;'],
  ['diff-addedline', 'color: #202122; font-size: 88%; border-style: solid; border-width: 1px 1px 1px 4px; border-radius: 0.33em; border-color: #a3d3ff; vertical-align: top; white-space: pre-wrap;'],
  ['diff-deletedline', 'color: #202122; font-size: 88%; border-style: solid; border-width: 1px 1px 1px 4px; border-radius: 0.33em; border-color: #ffe49c; vertical-align: top; white-space: pre-wrap;'],
  [
    'diff-context',
    'background-color: #f8f9fa; color: #202122; font-size: 88%; border-style: solid; border-width: 1px 1px 1px 4px; border-radius: 0.33em; border-color: #eaecf0; vertical-align: top; white-space: pre-wrap;',
  ],
  ['diffchange', 'font-weight: bold; text-decoration: none;'],
];

export function applyDiffStyle(html: string): string {
  let out = html;
  for (const [cls, style] of DIFF_STYLES) {
    const re = new RegExp(`(<\\w+\\b[^<>]*)\\bclass=(['"])(?:[^'"]*\\s)?${cls.replace(/-/g, '\\-')}(?:\\s[^'"]*)?\\2(?=[^<>]*>)`, 'g');
    out = out.replace(re, `$1style="${style}"`);
  }
  return out;
}

/** DifferenceEngine::getDiff( previousrevision, revisionasof ) as the feed asks for it (English, the default preferences). */
export function diffTable(body: string, timestamp: string, multi = ''): string {
  const otitle = escapeHtml(msg('previousrevision'));
  const ntitle = escapeHtml(replaceMessageParams(msg('revisionasof'), [formatTime(timestamp)]));
  let header = '<table class="diff diff-contentalign-left diff-editfont-monospace" data-mw="interface">';
  const colspan = body ? 2 : 1;
  if (body) header += '\n\t\t\t\t<col class="diff-marker" />\n\t\t\t\t<col class="diff-content" />\n\t\t\t\t<col class="diff-marker" />\n\t\t\t\t<col class="diff-content" />';
  header += `\n\t\t\t\t<tr class="diff-title" lang="en">\n\t\t\t\t<td colspan="${colspan}" class="diff-otitle diff-side-deleted">${otitle}</td>\n\t\t\t\t<td colspan="${colspan}" class="diff-ntitle diff-side-added">${ntitle}</td>\n\t\t\t\t</tr>`;
  if (multi) header += `<tr><td colspan="${colspan * 2}" class="diff-multi" lang="en">${escapeHtml(multi)}</td></tr>`;
  if (!body) header += `<tr><td colspan="${colspan * 2}" class="diff-notice" lang="en"><div class="mw-diff-empty">${escapeHtml(msg('diff-empty'))}</div>\n</td></tr>`;
  return `${header}${body}</table>`;
}

/** DifferenceEngine::getMultiNotice: the revisions between the two sides (a merged run of edits). */
async function multiNotice(ctx: ActionContext, row: RecentChange): Promise<string> {
  const r = await ctx.deps.clients.content.getRevisions({ pageIds: [row.pageId], limit: 1002, startId: row.revId, endId: row.oldRevId });
  const between = r.revisions.filter((rev) => rev.id !== row.revId && rev.id !== row.oldRevId);
  if (between.length === 0 || between.length > 1000) return '';
  const users = new Set(between.map((rev) => rev.userText));
  // One author who also made the newer side: "by the same user".
  const args = users.size === 1 && users.has(row.user) ? [String(between.length)] : [String(between.length), String(users.size)];
  return replaceMessageParams(expandMagic(msg(args.length === 1 ? 'diff-multi-sameuser' : 'diff-multi-otherusers'), args), args);
}

/** FeedUtils::getDiffLink. */
function diffLink(server: string, title: string, newId: number, oldId?: number): string {
  const url = fullUrl(server, title, oldId ? { diff: newId, oldid: oldId } : { diff: newId });
  return `<a href="${escapeHtml(url)}">${escapeHtml(msg('showdiff'))}</a>`;
}

const params = defineParams({
  feedformat: FEED_FORMAT_PARAM,
  namespace: { type: 'namespace', help: 'Namespace to limit the results to.' },
  invert: { type: 'boolean', default: false, help: 'All namespaces but the selected one.' },
  associated: { type: 'boolean', default: false, help: 'Include associated (talk or main) namespace.' },
  days: { type: 'integer', default: 7, min: 1, help: 'Days to limit the results to.' },
  limit: { type: 'integer', default: 50, min: 1, max: FEED_LIMIT, help: 'Maximum number of results to return.' },
  from: { type: 'timestamp', help: 'Show changes since then.' },
  hideminor: { type: 'boolean', default: false, help: 'Hide minor changes.' },
  hidebots: { type: 'boolean', default: false, help: 'Hide changes made by bots.' },
  hideanons: { type: 'boolean', default: false, help: 'Hide changes made by anonymous users.' },
  hideliu: { type: 'boolean', default: false, help: 'Hide changes made by registered users.' },
  hidepatrolled: { type: 'boolean', default: false, help: 'Hide patrolled changes.' },
  hidemyself: { type: 'boolean', default: false, help: 'Hide changes made by the current user.' },
  hidecategorization: { type: 'boolean', default: false, help: 'Hide category membership changes.' },
  tagfilter: { type: 'string', help: 'Filter by tag.' },
  target: { type: 'string', help: 'Show only changes on pages linked from this page.' },
  showlinkedto: { type: 'boolean', default: false, help: 'Show changes on pages linked to the selected page instead.' },
});

type FeedParams = ParamsOf<typeof params>;

export const feedrecentchangesModule = defineModule({
  name: 'feedrecentchanges',
  group: 'action',
  prefix: '',
  summary: 'Returns a recent changes feed.',
  params,
  flags: {},
  examples: {
    'action=feedrecentchanges': 'Show recent changes.',
    'action=feedrecentchanges&days=30': 'Show recent changes for 30 days.',
  },
  async execute(ctx) {
    const p = ctx.params;
    const base = ctx as unknown as ActionContext;
    const { config } = ctx.deps;
    const { content } = ctx.deps.clients;
    // T65249: the feed is hit often; cached publicly for at least 15 seconds.
    ctx.setCacheMode('public');
    if (!ctx.raw.get('smaxage')) ctx.setCacheMaxAge(15);

    let channel = { title: msg('recentchanges'), description: msg('recentchanges-feed-description'), url: fullUrl(config.server, 'Special:RecentChanges') };
    let linked: LinkedSet | undefined;
    if (p.target !== undefined) {
      const resolved = await content.resolvePages({ titles: [p.target] });
      const page = resolved.pages[0];
      // Title::newFromText failing, or an interwiki title (no page record).
      if (resolved.invalid.length || !page) throw new ApiUsageError('invalidtitle', `Bad title "${p.target}".`);
      channel = {
        title: replaceMessageParams(msg('recentchangeslinked-title'), [page.title]),
        description: msg('recentchangeslinked-feed'),
        url: fullUrl(config.server, 'Special:RecentChangesLinked'),
      };
      linked = await linkedPages(base, page.id, page.ns, page.title, p.showlinkedto);
    }

    const rows = linked && linked.titles.size + linked.pageIds.size === 0 ? [] : await changes(base, p, linked);
    const items = await feedItems(base, rows);
    // ChangesFeed::getFeedObject puts two spaces before the dash.
    sendFeed(base, p.feedformat, { title: `${config.sitename}  - ${channel.title} [${config.lang}]`, description: escapeHtml(channel.description), url: channel.url }, items);
  },
});

/** Which rows a related-changes feed keeps: by title (pages the target links to) or by page id (the rest, joined on rc_cur_id). */
interface LinkedSet {
  titles: Set<string>;
  pageIds: Set<number>;
}

/**
 * SpecialRecentChangesLinked::doMainQuery's page set: the pages the target links to or
 * transcludes, or with showlinkedto those linking to it (and a file's users); a category's members.
 */
async function linkedPages(ctx: ActionContext, pageId: number, ns: number, title: string, linkedTo: boolean): Promise<LinkedSet> {
  const { content } = ctx.deps.clients;
  const out: LinkedSet = { titles: new Set(), pageIds: new Set() };
  if (pageId === 0) return out;
  const size = () => out.titles.size + out.pageIds.size;
  if (ns === 14) {
    let cont = '';
    do {
      const r = await content.listCategoryMembers({ title, limit: 500, continue: cont });
      for (const m of r.members) out.pageIds.add(m.id);
      cont = r.continue;
    } while (cont && size() < LINKED_SCAN_LIMIT);
    return out;
  }
  const tables = [LinkTable.LINK_TABLE_PAGELINKS, LinkTable.LINK_TABLE_TEMPLATELINKS, ...(ns === 6 && linkedTo ? [LinkTable.LINK_TABLE_IMAGELINKS] : [])];
  for (const table of tables) {
    let cont = '';
    do {
      if (linkedTo) {
        const r = await content.listPageBacklinks({ table, targets: [title], limit: 500, continue: cont });
        for (const l of r.links) if (l.page) out.pageIds.add(l.page.id);
        cont = r.continue;
      } else {
        const r = await content.listPageLinks({ table, pageIds: [pageId], limit: 500, continue: cont });
        for (const l of r.links) out.titles.add(l.title);
        cont = r.continue;
      }
    } while (cont && size() < LINKED_SCAN_LIMIT);
  }
  return out;
}

/** ChangesListSpecialPage::getRows with the feed's options, newest first. */
async function changes(ctx: ActionContext, p: FeedParams, linked: LinkedSet | undefined): Promise<RecentChange[]> {
  const { content } = ctx.deps.clients;
  // Both hidden: the conditions exclude each other.
  if (p.hideanons && p.hideliu) return [];
  const days = Math.min(p.days, RC_MAX_AGE_DAYS);
  let cutoff = new Date(Date.now() - days * 86400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (p.from !== undefined) {
    const from = isoOfMw(p.from);
    if (from > cutoff) cutoff = from;
  }
  let namespaces: number[] = [];
  if (p.namespace !== undefined) {
    const selected = new Set([p.namespace]);
    if (p.associated && p.namespace >= 0) selected.add(p.namespace ^ 1);
    namespaces = p.invert ? (await ctx.deps.site.namespaces()).namespaces.map((n) => n.id).filter((id) => !selected.has(id)) : [...selected];
    if (namespaces.length === 0) return [];
  }
  const types = ['edit', 'new', 'log', ...(p.hidecategorization ? [] : ['categorize'])];
  // hidepatrolled is offered only to those who may see patrol flags (ChangesListSpecialPage's filter group).
  const canPatrol = ctx.caller.user.rights.some((r) => r === 'patrol' || r === 'patrolmarks');
  const limit = linked ? LINKED_SCAN_LIMIT : p.limit;
  const req = {
    types,
    namespaces,
    excludeUser: p.hidemyself ? ctx.caller.user.name : '',
    end: cutoff,
    newer: false,
    limit,
    minor: p.hideminor ? -1 : 0,
    bot: p.hidebots ? -1 : 0,
    anon: p.hideanons ? -1 : p.hideliu ? 1 : 0,
    patrolled: p.hidepatrolled && canPatrol ? -1 : 0,
  };
  // ChangeTags::modifyDisplayQuery: any of the |-separated tags.
  const tags = (p.tagfilter ?? '').split('|').filter((t) => t !== '');
  const lists = await Promise.all((tags.length ? tags : ['']).map((tag) => content.listRecentChanges({ ...req, tag })));
  const byId = new Map<number, RecentChange>();
  for (const c of lists.flatMap((l) => l.changes)) byId.set(c.rcId, c);
  let rows = [...byId.values()].sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : b.rcId - a.rcId));
  if (linked) rows = rows.filter((r) => linked.titles.has(r.title) || linked.pageIds.has(r.pageId));
  return rows.slice(0, p.limit);
}

/** ChangesFeed::buildItems with FeedUtils::formatDiff for each. */
async function feedItems(ctx: ActionContext, rows: RecentChange[]): Promise<FeedItem[]> {
  const { content } = ctx.deps.clients;
  const { server } = ctx.deps.config;
  const sorted = mergeAdjacentEdits(rows.filter((r) => r.type !== 'external'));
  if (!sorted.length) return [];
  // RowCommentFormatter over the rows without their titles: autocomments link nowhere.
  const comments = await content.formatComments(sorted.map((r) => ({ title: '', comment: r.comment })));
  const logRows = sorted.filter((r) => r.type === 'log');
  const linkTitles = [...new Set(logRows.flatMap((r) => linkedTitles(r)))];
  const kinds = new Map<string, PageKind>();
  if (linkTitles.length) {
    const resolved = await content.resolvePages({ titles: linkTitles });
    for (const page of resolved.pages) if (!page.missing && !page.special) kinds.set(page.title, page.redirect ? 'redirect' : 'page');
  }
  const namespaces = (await ctx.deps.site.namespaces()).namespaces;
  return Promise.all(
    sorted.map(async (row, i) => {
      // Items with deleted content are skipped (avoids partially complete or inconsistent output).
      if (row.deleted) return undefined;
      const talk = talkPageTitle(row.title, row.ns, namespaces);
      const url = row.revId ? fullUrl(server, row.title, { diff: row.revId, oldid: row.oldRevId }) : fullUrl(server, row.title);
      const actionText = row.type === 'log' ? logActionText(row, (t) => kinds.get(t) ?? 'missing') : '';
      const description = `<p>${[actionText, comments[i] ?? ''].filter((s) => s !== '').join(' ')}</p>\n${await diffPart(ctx, row)}`;
      return { title: row.title, description, url, date: row.timestamp, author: row.user, comments: talk === undefined ? '' : fullUrl(server, talk) };
    }),
  ).then((items) => items.filter((item): item is FeedItem => item !== undefined));
}

/** FeedUtils::formatDiffRow2 after the comment: the diff, a new page's text, or nothing. */
async function diffPart(ctx: ActionContext, row: RecentChange): Promise<string> {
  const { content } = ctx.deps.clients;
  const { server } = ctx.deps.config;
  if (row.ns < 0 || !row.revId) return '';
  if (row.oldRevId) {
    let body: string;
    try {
      const r = await content.compare({ from: { revId: row.oldRevId }, to: { revId: row.revId }, format: DiffFormat.DIFF_FORMAT_TABLE });
      body = r.tableHtml;
    } catch {
      // A revision the diff engine cannot load.
      return `<p>Can't load revision ${row.revId}</p>`;
    }
    const table = diffTable(body, row.timestamp, await multiNotice(ctx, row));
    return Buffer.byteLength(table) > FEED_DIFF_CUTOFF ? diffLink(server, row.title, row.revId, row.oldRevId) : applyDiffStyle(table);
  }
  const r = await content.getRevisions({ revIds: [row.revId], withContent: true });
  const text = r.revisions[0]?.content;
  if (text === undefined || Buffer.byteLength(text) > FEED_DIFF_CUTOFF) return diffLink(server, row.title, row.revId);
  return `<p><b>${escapeHtml(msg('newpage'))}</b></p><div>${sourceHtml(text)}</div>`;
}
