/*
 * action=feedcontributions (MediaWiki's ApiFeedContributions over ContribsPager): a user's
 * latest contributions as an RSS or Atom feed, each item the revision's comment and text.
 */
import type { UserContrib } from '../../clients/types.js';
import { hiddenAuthorBits } from '../../revdel.js';
import { englishMessage } from '../../i18n/messages.js';
import { FEED_FORMAT_PARAM, FEED_LIMIT, fullUrl, sendFeed, talkPageTitle, type FeedItem } from '../feed.js';
import { defineModule } from '../define.js';

/** RevisionRecord's deletion bits. */
const DELETED_TEXT = 1;
const DELETED_COMMENT = 2;
const DELETED_USER = 4;

/** htmlspecialchars( $s, ENT_COMPAT ): single quotes stay. */
function escapeCompat(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** FeedItem::stripComment: links become their label. */
function stripComment(text: string): string {
  return text.replace(/\[\[([^\]]*\|)?([^\]]+)\]\]/g, '$2');
}

/** PHP's nl2br: "<br />" before each line break. */
function nl2br(s: string): string {
  return s.replace(/\r\n|\n\r|\n|\r/g, (m) => `<br />${m}`);
}

/**
 * ContribsPager::processDateFilter with ReverseChronologicalPager::getOffsetDate: year/month
 * show contributions before the month (or year) after the one named.
 */
export function contributionsCutoff(year: number | undefined, month: number | undefined, now = new Date()): Date | undefined {
  if (year === undefined && month === undefined) return undefined;
  const validMonth = month !== undefined && month > 0 && month < 13 ? month : undefined;
  let y = year;
  if (y === undefined) {
    y = now.getUTCFullYear();
    // A month later than this one is last year's.
    if (validMonth !== undefined && validMonth > now.getUTCMonth() + 1) y--;
  }
  const cutoff = validMonth !== undefined ? new Date(Date.UTC(y, validMonth, 1)) : new Date(Date.UTC(y + 1, 0, 1));
  // A year past what a date can hold (year=864507570) cuts nothing off, instead of a RangeError.
  return Number.isNaN(cutoff.getTime()) ? undefined : cutoff;
}

/** ApiFeedContributions::feedItemDesc. */
export function contributionDescription(author: string, comment: string, text: string | undefined): string {
  const html = text === undefined ? '' : nl2br(escapeCompat(text));
  return `<p>${escapeCompat(author)}${escapeCompat(englishMessage('colon-separator') ?? ': ')}${escapeCompat(stripComment(comment))}</p>\n<hr />\n<div>${html}</div>`;
}

export const feedcontributionsModule = defineModule({
  name: 'feedcontributions',
  group: 'action',
  prefix: '',
  summary: "Returns a user's contributions feed.",
  params: {
    feedformat: FEED_FORMAT_PARAM,
    user: { type: 'user', required: true, userTypes: ['name', 'ip', 'cidr', 'interwiki'], help: 'What users to get the contributions for.' },
    namespace: { type: 'namespace', help: 'Which namespace to filter the contributions by.' },
    year: { type: 'integer', help: 'From year (and earlier).' },
    month: { type: 'integer', help: 'From month (and earlier).' },
    // MediaWiki enumerates the defined tags here; any tag name is accepted (an unknown one matches nothing).
    tagfilter: { type: 'string', multi: true, default: '', help: 'Filter contributions that have these tags.' },
    deletedonly: { type: 'boolean', default: false, help: 'Show only deleted contributions.' },
    toponly: { type: 'boolean', default: false, help: 'Only show edits that are latest revisions.' },
    newonly: { type: 'boolean', default: false, help: 'Only show edits that are page creations.' },
    hideminor: { type: 'boolean', default: false, help: 'Hide minor edits.' },
    showsizediff: { type: 'boolean', default: false, help: 'Show the size difference between revisions.' },
  },
  flags: {},
  examples: { 'action=feedcontributions&user=Example': 'Return contributions for user <kbd>Example</kbd>.' },
  async execute(ctx) {
    const p = ctx.params;
    const { content } = ctx.deps.clients;
    const target = p.user;
    const cutoff = contributionsCutoff(p.year, p.month);
    const base = {
      users: [target],
      namespaces: p.namespace !== undefined ? [p.namespace] : [],
      top: p.toponly ? 1 : 0,
      new: p.newonly ? 1 : 0,
      minor: p.hideminor ? -1 : 0,
      hideBits: hiddenAuthorBits(ctx.caller.user.rights),
      // The newest contribution shown is the last one before the cutoff.
      start: cutoff ? new Date(cutoff.getTime() - 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') : '',
      limit: FEED_LIMIT,
    };
    const tags = (p.tagfilter ?? []).filter((t) => t !== '');
    // Any of the tags (ContribsPager's tag filter is an IN list): one listing per tag, merged.
    const lists = await Promise.all((tags.length ? tags : ['']).map((tag) => content.listUserContribs({ ...base, tag })));
    const byRev = new Map<number, UserContrib>();
    for (const c of lists.flatMap((l) => l.contribs)) byRev.set(c.revId, c);
    let contribs = [...byRev.values()].sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : b.revId - a.revId));
    if (p.deletedonly) contribs = contribs.filter((c) => c.deleted !== 0);
    contribs = contribs.slice(0, FEED_LIMIT);

    const visible = contribs.filter((c) => !(c.deleted & DELETED_TEXT)).map((c) => c.revId);
    const texts = new Map<number, string>();
    if (visible.length) {
      const r = await content.getRevisions({ revIds: visible, withContent: true });
      for (const rev of r.revisions) if (rev.content !== undefined) texts.set(rev.id, rev.content);
    }
    const namespaces = (await ctx.deps.site.namespaces()).namespaces;
    const { server } = ctx.deps.config;
    const items: FeedItem[] = contribs.map((c) => {
      // RevisionRecord's public audience: hidden fields are empty.
      const author = c.deleted & DELETED_USER ? '' : c.user;
      const talk = talkPageTitle(c.title, c.ns, namespaces);
      return {
        title: c.title,
        description: contributionDescription(author, c.deleted & DELETED_COMMENT ? '' : c.comment, texts.get(c.revId)),
        url: fullUrl(server, c.title, { diff: c.revId }),
        date: c.timestamp,
        author,
        comments: talk === undefined ? '' : fullUrl(server, talk),
      };
    });
    const title = englishMessage('contributions') ?? 'User contributions';
    sendFeed(ctx, p.feedformat, { title: `${ctx.deps.config.sitename} - ${title} [${ctx.deps.config.lang}]`, description: title, url: fullUrl(server, `Special:Contributions/${target}`) }, items);
  },
});
