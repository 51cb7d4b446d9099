/*
 * action=history (HistoryAction: radio buttons to pick two revisions, cur/prev links, paging) and
 * the diff view (`diff=` with `oldid=`, DifferenceEngine: the wikidiff2 table of the content
 * service, both revisions' headers with older/newer navigation, then the newer revision rendered).
 * Paging: `offset` is the revision id the page continues after (MediaWiki's is a timestamp; ids
 * are what the content service's history keyset takes) and `dir=prev` goes towards newer ones.
 */
import { CompareRelative, type CompareSideResult, type PageRecord } from '../clients/types.js';
import { hidden, html, messageBox, REVALIDATE, SafeHtml } from './html.js';
import { articlePath, indexPath } from './paths.js';
import { queryParam, send, type PageRequest } from './request.js';
import { errorCode, errorText, formatTime, hasRight, pageTabs, sizeDiff } from './wiki.js';
import { authorOf, deletedDiffBox, revComment, revDateLink, revUserTools, textLinkable } from './revdel-html.js';
import { DELETED_COMMENT, DELETED_TEXT, textAccess, userCanSee } from '../revdel.js';
import { ServiceError } from '@quire/kit';

const DEFAULT_LIMIT = 50;

export async function historyAction(p: PageRequest, page: PageRecord): Promise<void> {
  const tabs = await pageTabs(p, page, 'history');
  if (page.missing) {
    return send(p, {
      title: `${page.title}: Revision history`,
      status: 404,
      tabs,
      body: messageBox('error', html`There is no revision history for this page. <a href="${indexPath('Special:Log', { page: page.title })}">View logs for this page</a>`),
    });
  }
  const limit = Math.min(500, Math.max(1, Number(queryParam(p, 'limit')) | 0 || DEFAULT_LIMIT));
  const offset = Number(queryParam(p, 'offset')) | 0;
  const towardsNewer = queryParam(p, 'dir') === 'prev' && offset > 0;
  const r = await p.deps.clients.content.getHistory({ pageId: page.id, limit, ...(offset > 0 ? (towardsNewer ? { newerThan: offset } : { olderThan: offset }) : {}) });
  const revs = r.revisions;
  const rights = p.caller.user.rights;
  // Summaries hidden from the reader are not formatted (their text never reaches the page).
  const comments = await p.deps.clients.content.formatComments(revs.map((x) => ({ title: page.title, comment: userCanSee(x.deleted, DELETED_COMMENT, rights) ? x.comment : '' })));
  const newest = revs[0];
  const oldest = revs.at(-1);
  const hasNewer = towardsNewer ? r.more : offset > 0;
  const hasOlder = towardsNewer ? true : r.more;
  const nav = html`<p class="mw-history-nav">(${newest && newest.id !== page.latestRevId ? html`<a href="${indexPath(page.title, { action: 'history' })}">newest</a>` : 'newest'} | oldest) View (${hasNewer && newest ? html`<a href="${indexPath(page.title, { action: 'history', dir: 'prev', offset: newest.id, limit })}" class="mw-prevlink">newer ${limit}</a>` : `newer ${limit}`} | ${hasOlder && oldest ? html`<a href="${indexPath(page.title, { action: 'history', offset: oldest.id, limit })}" class="mw-nextlink">older ${limit}</a>` : `older ${limit}`})</p>`;
  const mayEdit = hasRight(p, 'edit');
  const rows = revs.map((rev, i) => {
    const isCur = rev.id === page.latestRevId;
    const prevSize = Math.max(rev.parentSize, 0);
    // HistoryPager::curLink/lastLink: no diff link to a text the reader may not see (the parent's
    // visibility is not known here: the diff page itself refuses a hidden one).
    const linkable = textLinkable(rev.deleted, rights);
    return html`<li data-mw-revid="${rev.id}">
<span class="mw-history-histlinks">(${isCur || !linkable ? 'cur' : html`<a href="${indexPath(page.title, { diff: page.latestRevId, oldid: rev.id })}">cur</a>`} | ${rev.parentId && linkable ? html`<a href="${indexPath(page.title, { diff: rev.id, oldid: rev.parentId })}">prev</a>` : 'prev'})</span>
<input type="radio" name="oldid" value="${rev.id}" aria-label="Select a revision to compare"${i === 1 ? new SafeHtml(' checked') : ''}${isCur || !linkable ? new SafeHtml(' disabled') : ''}>
<input type="radio" name="diff" value="${rev.id}" aria-label="Select a revision to compare"${i === 0 ? new SafeHtml(' checked') : ''}${linkable ? '' : new SafeHtml(' disabled')}>
${revDateLink(rev, page.title, formatTime(rev.timestamp), rights)}
${revUserTools(authorOf(rev), rights)}
${rev.minor ? html`<abbr class="minoredit" title="This is a minor edit">m</abbr>` : ''}
<span class="history-size">(${rev.size} bytes)</span> ${sizeDiff(Number(rev.size) - Number(prevSize))}
${revComment(rev.deleted, comments[i] ?? '', rights)}${undoLink(page, rev, mayEdit)}
</li>`;
  });
  const body = html`<p class="help">Diff selection: Mark the radio buttons of the revisions to compare and hit enter or the button at the bottom.<br>Legend: <strong>(cur)</strong> = difference with latest revision, <strong>(prev)</strong> = difference with preceding revision, <strong>m</strong> = minor edit.</p>
${nav}
<form action="${'/w/index.php'}" id="mw-history-compare">
${hidden('title', page.title.replaceAll(' ', '_'))}
<div class="buttons"><button type="submit" class="historysubmit mw-history-compareselectedversions-button">Compare selected revisions</button></div>
<ul id="pagehistory" class="history">${rows}</ul>
<div class="buttons"><button type="submit" class="historysubmit">Compare selected revisions</button></div>
</form>
${nav}`;
  send(p, {
    title: `${page.title}: Revision history`,
    heading: html`${page.title}: Revision history`,
    body,
    tabs,
    noindex: true,
    cache: REVALIDATE,
    subtitle: html`<a href="${indexPath('Special:Log', { page: page.title })}">View logs for this page</a>`,
    pageTools: { title: page.title, exists: true, ns: page.ns },
  });
}

/**
 * HistoryPager::historyLine's undo tool: every revision with one before it, for those who may
 * edit, unless its text is hidden (the tooltip on the latest line only); the brackets are the skin's CSS, as MediaWiki's.
 */
function undoLink(page: PageRecord, rev: { id: number; parentId: number; deleted: number }, mayEdit: boolean): SafeHtml | '' {
  if (!mayEdit || rev.parentId <= 0 || (rev.deleted & DELETED_TEXT) !== 0) return '';
  const href = indexPath(page.title, { action: 'edit', undoafter: rev.parentId, undo: rev.id });
  const link =
    rev.id === page.latestRevId
      ? html`<a href="${href}" title="&quot;Undo&quot; reverts this edit and opens the edit form in preview mode. It allows adding a reason in the summary.">undo</a>`
      : html`<a href="${href}">undo</a>`;
  return html` <span class="mw-changeslist-links"><span><span class="mw-history-undo">${link}</span></span></span>`;
}

/** One side's header of the diff table (DifferenceEngine::getRevisionHeader and its tools). */
function sideHeader(page: PageRecord, side: CompareSideResult | undefined, comment: string, nav: SafeHtml | '', rights: readonly string[]): SafeHtml {
  const rev = side?.revision;
  if (!rev) return html`<div>${side?.page?.title ?? ''}</div>`;
  const isLatest = rev.id === page.latestRevId;
  return html`<div id="mw-diff-${rev.id === page.latestRevId ? 'ntitle1' : 'title1'}"><strong><a href="${indexPath(page.title, { oldid: rev.id })}">${isLatest ? 'Latest revision' : 'Revision'} as of ${formatTime(rev.timestamp)}</a></strong></div>
<div>${revUserTools(authorOf(rev), rights)}</div>
<div>${rev.minor ? html`<abbr class="minoredit" title="This is a minor edit">m</abbr> ` : ''}${revComment(rev.deleted, comment, rights)}</div>
<div>${nav}</div>`;
}

/** `diff=<id|prev|next|cur>` with an optional `oldid=` (DifferenceEngine's mapping). */
export async function diffPage(p: PageRequest, page: PageRecord): Promise<void> {
  const { content } = p.deps.clients;
  const diffParam = queryParam(p, 'diff');
  const oldid = Number(queryParam(p, 'oldid')) | 0;
  const relative: Record<string, CompareRelative> = { prev: CompareRelative.COMPARE_RELATIVE_PREV, next: CompareRelative.COMPARE_RELATIVE_NEXT, cur: CompareRelative.COMPARE_RELATIVE_CUR };
  const diffId = Number(diffParam) | 0;
  const base = oldid > 0 ? oldid : page.latestRevId;
  let req;
  if (diffParam in relative || diffId <= 0) req = { from: { revId: base }, toRelative: relative[diffParam] ?? CompareRelative.COMPARE_RELATIVE_PREV };
  else if (oldid > 0) req = { from: { revId: Math.min(oldid, diffId) }, to: { revId: Math.max(oldid, diffId) } };
  else req = { from: { revId: diffId }, toRelative: CompareRelative.COMPARE_RELATIVE_PREV };
  const tabs = await pageTabs(p, page, 'view');
  const rights = p.caller.user.rights;
  let r;
  try {
    r = await content.compare({ ...req, withRelatives: true, ...textAccess(rights) });
  } catch (e) {
    const code = errorCode(e);
    // DifferenceEngine::showDiffPage: a side whose text is hidden from the reader (rev-deleted-no-diff).
    if (code === 'missingcontent' && e instanceof ServiceError) {
      const [hiddenRev] = (await content.getRevisions({ revIds: [Number(e.data.revid) | 0] })).revisions;
      const body = deletedDiffBox(page.title, hiddenRev?.deleted ?? DELETED_TEXT, rights, false, {});
      return send(p, { title: `${page.title}: Difference between revisions`, tabs, noindex: true, cache: REVALIDATE, body: body?.box ?? html`` });
    }
    if (code === 'nosuchrevid' || code === 'nosuchrevid-compare' || code.startsWith('compare-') || code === 'missingcontent' || code === 'baddiff') {
      return send(p, {
        title: 'Difference between revisions',
        status: 404,
        tabs,
        body: messageBox('error', html`The database did not find the text of a page that it should have found. (${errorText(e)})`),
      });
    }
    throw e;
  }
  // A diff of a revision with nothing before it (the first revision, diff=prev): that revision alone.
  const fromRev = r.from?.revision;
  const toRev = r.to?.revision;
  const shownComment = (rev: typeof fromRev) => (rev && userCanSee(rev.deleted, DELETED_COMMENT, rights) ? rev.comment : '');
  const [fromComment, toComment] = await content.formatComments([
    { title: page.title, comment: shownComment(fromRev) },
    { title: page.title, comment: shownComment(toRev) },
  ]);
  const olderNav = fromRev && r.from?.prevRevId ? html`<a href="${indexPath(page.title, { diff: 'prev', oldid: fromRev.id })}" id="differences-prevlink">← Older edit</a>` : '';
  const newerNav = toRev && r.to?.nextRevId ? html`<a href="${indexPath(page.title, { diff: 'next', oldid: toRev.id })}" id="differences-nextlink">Newer edit →</a>` : '';
  // A side whose text the reader may see although hidden: shown only with unhide=1.
  const hiddenDiff = deletedDiffBox(page.title, (fromRev?.deleted ?? 0) | (toRev?.deleted ?? 0), rights, queryParam(p, 'unhide') === '1', oldid > 0 ? { diff: diffParam, oldid } : { diff: diffParam });
  if (hiddenDiff && !hiddenDiff.show) {
    return send(p, { title: `${page.title}: Difference between revisions`, tabs, noindex: true, cache: REVALIDATE, body: hiddenDiff.box });
  }
  const rows = r.tableHtml.trim() === '' ? html`<tr><td colspan="4" class="diff-notice"><div class="mw-diff-empty">(No difference)</div></td></tr>` : new SafeHtml(r.tableHtml);
  const diffOnly = queryParam(p, 'diffonly') === '1';
  const rendered = toRev && !diffOnly ? await content.parse({ revId: toRev.id }) : undefined;
  const body = html`${hiddenDiff?.box ?? ''}<table class="diff diff-contentalign-left diff-editfont-monospace" data-mw="interface">
<colgroup><col class="diff-marker"><col class="diff-content"><col class="diff-marker"><col class="diff-content"></colgroup>
<tr class="diff-title" lang="${p.deps.config.lang}"><td colspan="2" class="diff-otitle diff-side-deleted">${sideHeader(page, r.from, fromComment ?? '', olderNav, rights)}</td><td colspan="2" class="diff-ntitle diff-side-added">${sideHeader(page, r.to, toComment ?? '', newerNav, rights)}</td></tr>
${rows}
</table>
${
  rendered
    ? html`<hr class="diff-hr" id="mw-oldid"><h2 class="diff-currentversion-title">${toRev?.id === page.latestRevId ? 'Latest revision' : `Revision as of ${formatTime(toRev?.timestamp ?? '')}`}</h2>
<div id="mw-content-text" class="mw-body-content">${new SafeHtml(rendered.html)}</div>`
    : ''
}`;
  send(p, {
    title: `${page.title}: Difference between revisions`,
    heading: html`${page.title}: Difference between revisions`,
    subtitle: html`<a href="${articlePath(page.title)}">${page.title}</a>`,
    body,
    tabs,
    wikiContent: true,
    noindex: true,
    cache: REVALIDATE,
  });
}
