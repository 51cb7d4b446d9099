/*
 * A page of the wiki at `/wiki/Title` and `/w/index.php?title=Title&action=…` (MediaWiki's
 * MediaWiki::performAction): the view (latest or `oldid` revision, redirects followed unless
 * `redirect=no`, categories, 404 with a "create it" link for missing pages), and the actions
 * raw, info, purge, watch, unwatch; edit/submit (edit.ts), history and diffs (history.ts) and the
 * sysop actions (sysop.ts) are dispatched from here. The rendered HTML is the content service's
 * (the parser cache behind action=parse).
 */
import { LinkTable, type PageRecord, type Revision } from '../clients/types.js';
import { editAction } from './edit.js';
import { diffPage, historyAction } from './history.js';
import { hidden, html, messageBox, REVALIDATE, SafeHtml } from './html.js';
import { articlePath, indexPath, loginPath, specialPath } from './paths.js';
import { csrfToken, field, queryParam, redirect, send, SESSION_FAILURE, validCsrf, type PageRequest } from './request.js';
import { takePostEditNotice } from './post-edit.js';
import { categoryBox } from './catlinks.js';
import { deleteAction, protectAction } from './sysop.js';
import { authorOf, deletedRevisionHeader, revComment, revUserTools } from './revdel-html.js';
import { DELETED_COMMENT, DELETED_USER, userCanSee } from '../revdel.js';
import { formatDateAt, formatTime, hasRight, joinHtml, pageTabs, resolveTitle, userLinks } from './wiki.js';

type ArticleAction = (p: PageRequest, page: PageRecord) => Promise<void>;

const ACTIONS: Record<string, ArticleAction> = {
  view: viewAction,
  edit: editAction,
  submit: editAction,
  history: historyAction,
  raw: rawAction,
  info: infoAction,
  purge: purgeAction,
  watch: (p, page) => watchAction(p, page, false),
  unwatch: (p, page) => watchAction(p, page, true),
  delete: deleteAction,
  protect: protectAction,
  unprotect: protectAction,
};

/** Every non-special title: the action the request names (`view` by default). */
export async function articlePage(p: PageRequest, asked: string): Promise<void> {
  if (asked.trim() === '') return redirect(p, articlePath('Main Page'));
  const page = await resolveTitle(p, asked);
  if (!page) return;
  const action = queryParam(p, 'action') || (field(p, 'wpSave') || field(p, 'wpPreview') || field(p, 'wpDiff') ? 'submit' : 'view');
  const handler = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
  if (!handler) {
    return send(p, {
      title: 'No such action',
      status: 404,
      body: messageBox(
        'error',
        'The action specified by the URL is invalid. You might have mistyped the URL, or followed an incorrect link. This might also indicate a bug in the software used by this wiki.',
      ),
    });
  }
  // A /wiki/ address in another spelling (main_page, spaces) goes to the canonical one, as MediaWiki's
  // MediaWiki::tryNormaliseRedirect does for plain views.
  const ownPath = articlePath(page.title);
  if (action === 'view' && p.method === 'GET' && p.req.path !== `${p.req.baseUrl}${ownPath}` && p.req.path.startsWith('/wiki/') && Object.keys(p.req.query).length === 0) {
    p.res.set('Cache-Control', 'private, must-revalidate, max-age=0');
    return void p.res.redirect(301, ownPath);
  }
  await handler(p, page);
}

/** ImagePage: a file description page shows the file, its versions, the upload link and the pages using it, above the description. */
async function fileSection(p: PageRequest, page: PageRecord): Promise<SafeHtml | ''> {
  if (page.ns !== 6) return '';
  const { content } = p.deps.clients;
  const [info, usage] = await Promise.all([
    content.getFileInfo({ titles: [page.title], limit: 10 }),
    content.listBacklinks({ table: LinkTable.LINK_TABLE_IMAGELINKS, title: page.title, limit: FILE_USAGE_LIMIT + 1 }),
  ]);
  const file = info.files[0];
  const current = file?.exists ? file.versions[0] : undefined;
  if (!current)
    return page.missing
      ? ''
      : html`<p class="mw-filepage-nofile">No file by this name exists, but you can <a href="${indexPath('Special:Upload', { wpDestFile: titleOfFile(page) })}">upload it</a>.</p>`;
  const isImage = (v: { mediaType: string }) => v.mediaType === 'BITMAP' || v.mediaType === 'DRAWING';
  const shown = isImage(current)
    ? html`<div class="fullImageLink" id="file"><a href="${current.urlPath}"><img src="${current.urlPath}" alt="${page.title}" width="${Math.min(current.width, 800) || ''}"></a></div>`
    : '';
  // ImageHistoryList: the time links to that version's file; a thumbnail 120px wide at most.
  const rows = (file?.versions ?? []).map((v, i) => {
    const when = formatTime(v.timestamp);
    const scale = v.width > 120 ? 120 / v.width : 1;
    const thumb = isImage(v)
      ? html`<a href="${v.urlPath}"><img alt="Thumbnail for version as of ${when}" src="${v.urlPath}" width="${Math.round(v.width * scale) || 120}"${v.height ? html` height="${Math.max(1, Math.round(v.height * scale))}"` : ''}></a>`
      : '';
    return html`<tr><td>${i === 0 ? 'current' : ''}</td><td${i === 0 ? new SafeHtml(' class="filehistory-selected"') : ''}><a href="${v.urlPath}">${when}</a></td><td>${thumb}</td><td>${v.width && v.height ? `${v.width} × ${v.height} ` : ''}(${v.size} bytes)</td><td>${userLinks(v.user, v.userId === 0)}</td><td dir="ltr">${v.comment}</td></tr>`;
  });
  // ImagePage::uploadLinksBox: a new version for those who may upload over this file.
  const own = !p.caller.user.anonymous && current.user === p.caller.user.name;
  const mayReupload = hasRight(p, 'upload') && (hasRight(p, 'reupload') || (own && hasRight(p, 'reupload-own')));
  const uploadLinks = html`<div class="mw-imagepage-upload-links">${
    mayReupload
      ? html`<p class="plainlinks" id="mw-imagepage-reupload-link"><a class="external text" href="${indexPath('Special:Upload', { wpDestFile: titleOfFile(page).replaceAll(' ', '_'), wpForReUpload: 1 })}">Upload a new version of this file</a></p>`
      : html`<p id="mw-imagepage-upload-disallowed">You cannot overwrite this file.</p>`
  }</div>`;
  // ImagePage::imageLinks: the pages using the file (the first 100), sorted by namespace and title.
  const users = usage.pages.slice(0, FILE_USAGE_LIMIT).sort((a, b) => a.ns - b.ns || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  const fileUsage =
    users.length === 0
      ? html`<div id="mw-imagepage-nolinkstoimage"><p>There are no pages that use this file.</p></div>`
      : html`<div id="mw-imagepage-section-linkstoimage"><p>${
          usage.pages.length > FILE_USAGE_LIMIT
            ? html`More than ${FILE_USAGE_LIMIT} pages use this file. The following list shows the first ${FILE_USAGE_LIMIT} pages that use this file only. A <a href="${specialPath('WhatLinksHere', page.title.replaceAll(' ', '_'))}">full list</a> is available.`
            : users.length === 1
              ? 'The following page uses this file:'
              : `The following ${users.length} pages use this file:`
        }</p><ul class="mw-imagepage-linkstoimage">${users.map((u) => html`<li class="mw-imagepage-linkstoimage-ns${u.ns}"><a href="${articlePath(u.title)}">${u.title}</a></li>`)}</ul></div>`;
  return html`${shown}<div class="fullMedia"><a href="${current.urlPath}" class="internal">${titleOfFile(page)}</a> (${current.width && current.height ? `${current.width} × ${current.height} pixels, ` : ''}file size: ${current.size} bytes, MIME type: ${current.mime})</div>
<h2 id="filehistory">File history</h2>
<div id="mw-imagepage-section-filehistory"><p>Click on a date/time to view the file as it appeared at that time.</p>
<table class="wikitable filehistory"><tr><th></th><th>Date/Time</th><th>Thumbnail</th><th>Dimensions</th><th>User</th><th>Comment</th></tr>${rows}</table></div>
${uploadLinks}<h2 id="filelinks">File usage</h2>
${fileUsage}`;
}

/** ImagePage::imageLinks' limit. */
const FILE_USAGE_LIMIT = 100;

/** CategoryViewer: a category page lists its subcategories, pages and files (the first 200 by sort key). */
async function categoryMembers(p: PageRequest, page: PageRecord): Promise<SafeHtml | ''> {
  if (page.ns !== 14) return '';
  const r = await p.deps.clients.content.listCategoryMembers({ title: page.title, limit: 200 });
  if (r.members.length === 0) return page.missing ? '' : html`<p class="mw-category-empty">This category currently contains no pages or media.</p>`;
  const group = (type: string, heading: string, id: string) => {
    const list = r.members.filter((m) => m.type === type);
    if (list.length === 0) return '';
    return html`<div id="${id}"><h2>${heading} "${titleOfFile(page)}"</h2><p>${list.length === 1 ? `This category contains only the following ${type === 'subcat' ? 'subcategory' : type === 'file' ? 'file' : 'page'}.` : `The following ${list.length} ${type === 'subcat' ? 'subcategories' : type === 'file' ? 'files' : 'pages'} are in this category.`}</p>
<ul class="list mw-category">${list.map((m) => html`<li><a href="${articlePath(m.title)}">${type === 'subcat' ? titleOfFile({ ...page, title: m.title }) : m.title}</a></li>`)}</ul></div>`;
  };
  return html`${group('subcat', 'Subcategories of', 'mw-subcategories')}${group('page', 'Pages in category', 'mw-pages')}${group('file', 'Media in category', 'mw-category-media')}`;
}

function titleOfFile(page: PageRecord): string {
  return page.title.slice(page.title.indexOf(':') + 1);
}

/** The subtitle of an old revision (Article::setOldSubtitle): its date and author, and the navigation. */
async function oldRevisionSubtitle(p: PageRequest, page: PageRecord, rev: Revision): Promise<SafeHtml> {
  // A summary hidden from the reader is not even formatted.
  const [comment] = userCanSee(rev.deleted, DELETED_COMMENT, p.caller.user.rights) ? await p.deps.clients.content.formatComments([{ title: page.title, comment: rev.comment }]) : [''];
  const isLatest = rev.id === page.latestRevId;
  const older = rev.parentId
    ? html`<a href="${indexPath(page.title, { diff: 'prev', oldid: rev.id })}">diff</a>) <a href="${indexPath(page.title, { oldid: rev.parentId })}">← Older revision</a>`
    : html`diff) ← Older revision`;
  const newer = isLatest
    ? html`Newer revision → (diff)`
    : html`<a href="${indexPath(page.title, { direction: 'next', oldid: rev.id })}">Newer revision →</a> (<a href="${indexPath(page.title, { diff: 'next', oldid: rev.id })}">diff</a>)`;
  const rights = p.caller.user.rights;
  return html`<div class="mw-revision"><div id="mw-revision-info">${isLatest ? 'Latest revision' : 'Revision'} as of ${formatTime(rev.timestamp)} by ${revUserTools(authorOf(rev), rights)} ${revComment(rev.deleted, comment ?? '', rights)}</div>
<div id="mw-revision-nav">(${older} | <a href="${articlePath(page.title)}">Latest revision</a> (${isLatest ? 'diff' : html`<a href="${indexPath(page.title, { diff: 'cur', oldid: rev.id })}">diff</a>`}) | ${newer}</div></div>`;
}

async function missingPage(p: PageRequest, page: PageRecord): Promise<void> {
  const canCreate = hasRight(p, 'edit');
  const body = html`<div class="noarticletext"><p>There is currently no text in this page. You can <a href="${specialPath('Search', page.title)}">search for this page title</a> in other pages, <a href="${indexPath('Special:Log', { page: page.title })}">search the related logs</a>${canCreate ? html`, or <a href="${indexPath(page.title, { action: 'edit' })}" id="create-this-page">create this page</a>` : ''}.</p></div>`;
  send(p, { title: page.title, status: 404, body, tabs: await pageTabs(p, page, 'view'), cache: REVALIDATE, pageTools: { title: page.title, exists: false, ns: page.ns } });
}

/** `direction=next&oldid=N` (the "Newer revision" link): the revision after N. */
async function nextRevisionId(p: PageRequest, page: PageRecord, oldid: number): Promise<number> {
  const r = await p.deps.clients.content.getHistory({ pageId: page.id, newerThan: oldid, limit: 1 });
  return r.revisions.at(-1)?.id ?? page.latestRevId;
}

async function viewAction(p: PageRequest, page: PageRecord): Promise<void> {
  if (queryParam(p, 'diff') !== '') return diffPage(p, page);
  let oldid = Number(queryParam(p, 'oldid') || '0') | 0;
  if (oldid > 0 && queryParam(p, 'direction') === 'next') oldid = await nextRevisionId(p, page, oldid);
  const file = oldid <= 0 ? await fileSection(p, page) : '';
  const members = oldid <= 0 ? await categoryMembers(p, page) : '';
  if (oldid <= 0 && page.missing && file === '' && members === '') return missingPage(p, page);
  const { content } = p.deps.clients;
  let rev: Revision | undefined;
  if (oldid > 0) {
    rev = (await content.getRevisions({ revIds: [oldid] })).revisions[0];
    if (!rev || rev.pageId !== page.id) {
      return send(p, { title: page.title, status: 404, body: messageBox('error', `The revision #${oldid} of the page named "${page.title}" does not exist.`), tabs: await pageTabs(p, page, 'view') });
    }
  }
  // Anonymous reads of the latest revision: MediaWiki's OutputPage::checkLastModified (no CDN).
  const lastModified = page.touched ? new Date(page.touched) : undefined;
  const cacheable = !rev && p.caller.user.anonymous && lastModified && !Number.isNaN(lastModified.getTime());
  if (cacheable) {
    const since = Date.parse(String(p.req.headers['if-modified-since'] ?? ''));
    if (!Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000)) {
      p.res.set({ 'Cache-Control': 'private, must-revalidate, max-age=0', 'Last-Modified': lastModified.toUTCString(), Vary: 'Accept-Encoding, Cookie' });
      return void p.res.status(304).end();
    }
  }
  const follow = !rev && page.redirect && queryParam(p, 'redirect') !== 'no';
  if (page.missing) {
    // A file without a description page, a category without one: the file, the members (MediaWiki answers 404 all the same).
    return send(p, {
      title: page.title,
      status: 404,
      body: html`${file}${members}`,
      tabs: await pageTabs(p, page, 'view'),
      wikiContent: true,
      cache: REVALIDATE,
      pageTools: { title: page.title, exists: false, ns: page.ns },
    });
  }
  const hiddenText = rev && deletedRevisionHeader(rev, page.title, p.caller.user.rights, queryParam(p, 'unhide') === '1');
  if (rev && hiddenText && !hiddenText.show) {
    // Article::showDeletedRevisionHeader: the box instead of the text (and no render of it).
    return send(p, {
      title: page.title,
      subtitle: await oldRevisionSubtitle(p, page, rev),
      body: hiddenText.box,
      tabs: await pageTabs(p, page, 'view'),
      noindex: true,
      cache: REVALIDATE,
      pageTools: { title: page.title, exists: true, ns: page.ns, revId: rev.id },
    });
  }
  const r = await content.parse(rev ? { revId: rev.id } : { page: page.title, redirects: follow });
  const subtitle: SafeHtml[] = [];
  let shown = page;
  if (follow && r.redirects.length > 0) {
    subtitle.push(html`<span class="mw-redirectedfrom">(Redirected from <a href="${indexPath(page.title, { redirect: 'no' })}" class="mw-redirect">${page.title}</a>)</span>`);
    shown = (await content.resolvePages({ titles: [r.title] })).pages[0] ?? page;
  }
  if (rev) subtitle.push(await oldRevisionSubtitle(p, page, rev));
  const postEdit = rev ? undefined : takePostEditNotice(p, shown.latestRevId);
  const body = html`${postEdit ? html`<div id="mw-postedit-notice" hidden>${postEdit}</div>` : ''}<div id="siteSub">From ${p.deps.config.sitename}</div>
${hiddenText?.box ?? ''}${rev && rev.id !== page.latestRevId ? messageBox('warning', html`This is an old revision of this page, as edited by ${userCanSee(rev.deleted, DELETED_USER, p.caller.user.rights) ? rev.userText : '(username removed)'} at ${formatTime(rev.timestamp)}. It may differ significantly from the <a href="${articlePath(page.title)}">current revision</a>.`) : ''}
${file}<div id="mw-content-text" class="mw-body-content">${new SafeHtml(r.html)}</div>${members}`;
  send(p, {
    title: shown.title,
    heading: r.displayTitle ? new SafeHtml(r.displayTitle) : undefined,
    subtitle: subtitle.length ? joinHtml(subtitle, '<br>') : undefined,
    body,
    tabs: await pageTabs(p, shown, 'view'),
    categories: await categoryBox(p, shown, r.categories),
    footer: shown.latestTimestamp ? `This page was last edited on ${formatDateAt(shown.latestTimestamp)}.` : undefined,
    wikiContent: true,
    noindex: rev !== undefined,
    cache: { ...REVALIDATE, lastModified: cacheable ? lastModified : undefined },
    pageTools: { title: shown.title, exists: true, ns: shown.ns, revId: rev?.id ?? shown.latestRevId },
  });
}

/** RawAction's content types; anything else is text/x-wiki. */
const RAW_TYPES = new Set(['text/x-wiki', 'text/javascript', 'text/css', 'application/x-zope-edit', 'application/json']);
const SCRIPT_MODELS: Record<string, string> = { 'text/javascript': 'javascript', 'text/css': 'css', 'application/json': 'json' };

/** action=raw: the wikitext of the latest (or `oldid`) revision, as RawAction sends it. */
async function rawAction(p: PageRequest, page: PageRecord): Promise<void> {
  const { res } = p;
  const asked = queryParam(p, 'ctype');
  const ctype = RAW_TYPES.has(asked) ? asked : 'text/x-wiki';
  // RawAction: maxage defaults to $wgCdnMaxAge (5 hours), smaxage to 0; private for a registered reader.
  const maxage = queryParam(p, 'maxage') === '' ? 18000 : Math.max(0, Number(queryParam(p, 'maxage')) | 0);
  const smaxage = Math.max(0, Number(queryParam(p, 'smaxage')) | 0);
  const mode = p.caller.user.anonymous ? 'public' : 'private';
  res.set({ 'Content-Type': `${ctype}; charset=UTF-8`, 'Cache-Control': `${mode}, s-maxage=${smaxage}, max-age=${maxage}`, 'X-Content-Type-Options': 'nosniff' });
  const oldid = Number(queryParam(p, 'oldid') || '0') | 0;
  const rev =
    oldid > 0
      ? (await p.deps.clients.content.getRevisions({ revIds: [oldid], withContent: true })).revisions[0]
      : page.missing
        ? undefined
        : (await p.deps.clients.content.getPage(page.title, true)).latest;
  // A script or style type only for a page of that model: never wikitext served as script.
  const model = SCRIPT_MODELS[ctype];
  if (model && (rev?.contentModel ?? page.contentModel) !== model) {
    return void res.status(403).set('Content-Type', 'text/plain; charset=UTF-8').send(`Invalid title for ${ctype}.`);
  }
  if (!rev || (oldid > 0 && rev.pageId !== page.id) || rev.content === undefined || (rev.deleted & 1) !== 0) return void res.status(404).send('');
  // end(), not send(): express would rewrite the charset as "utf-8"; MediaWiki says "UTF-8".
  res.end(rev.content);
}

/** action=info (InfoAction): the page's basic facts, protection and edit history. */
async function infoAction(p: PageRequest, page: PageRecord): Promise<void> {
  const { content } = p.deps.clients;
  const [details, protection, first] = await Promise.all([
    content.getPageInfoDetails({ titles: [page.title], watchers: true }).then((r) => r.pages[0]),
    content.getProtection({ titles: [page.dbkey] }).then((r) => r.titles[0]),
    page.missing ? Promise.resolve(undefined) : content.getRevisions({ pageIds: [page.id], limit: 1, dirNewer: true }).then((r) => r.revisions[0]),
  ]);
  const latest = page.missing ? undefined : (await content.getRevisions({ revIds: [page.latestRevId] })).revisions[0];
  const count = page.missing ? 0 : (await content.countRevisions({ pageId: page.id, type: 4, cap: 100000 })).count;
  const row = (id: string, label: string, value: SafeHtml | string | number) => html`<tr id="${id}"><th>${label}</th><td>${value}</td></tr>`;
  const levels = protection?.protections ?? [];
  const watchers = details?.watchers ?? 0;
  // InfoAction's "Page properties": the hidden categories the page is in.
  const hiddenCats = page.missing ? [] : (await content.listPageLinks({ table: LinkTable.LINK_TABLE_CATEGORYLINKS, pageIds: [page.id], hidden: 1, limit: 500 })).links;
  const body = html`
<h2 id="Basic_information">Basic information</h2>
<table class="wikitable mw-page-info">
${row('mw-pageinfo-display-title', 'Display title', page.title)}
${row('mw-pageinfo-length', 'Page length (in bytes)', page.length)}
${row('mw-pageinfo-article-id', 'Page ID', page.id)}
${row('mw-pageinfo-content-model', 'Page content model', page.contentModel || 'wikitext')}
${row('mw-pageinfo-watchers', 'Number of page watchers', watchers < 30 && !hasRight(p, 'unwatchedpages') ? 'Fewer than 30 watchers' : watchers)}
${page.redirect ? row('mw-pageinfo-redirectsto', 'Redirects to', html`<a href="${articlePath(page.redirectTarget)}">${page.redirectTarget}</a>`) : ''}
</table>
${
  hiddenCats.length
    ? html`<h2 id="Page_properties">Page properties</h2>
<table class="wikitable mw-page-info">
${row('mw-pageinfo-hidden-categories', `Hidden ${hiddenCats.length === 1 ? 'category' : 'categories'} (${hiddenCats.length})`, html`<ul class="mw-hiddenCategoriesExplanation">${hiddenCats.map((c) => html`<li><a href="${articlePath(c.title)}">${c.title.slice(c.title.indexOf(':') + 1)}</a></li>`)}</ul>`)}
</table>`
    : ''
}
<h2 id="Page_protection">Page protection</h2>
<table class="wikitable mw-page-info">
${['edit', 'move'].map((type) => {
  const l = levels.find((x) => x.type === type);
  return row(
    `mw-restriction-${type}`,
    type === 'edit' ? 'Edit' : 'Move',
    l
      ? `${l.level === 'sysop' ? 'Allow only administrators' : l.level === 'autoconfirmed' ? 'Allow only autoconfirmed users' : l.level} (${l.expiry === 'infinity' || l.expiry === 'infinite' ? 'infinite' : l.expiry})`
      : 'Allow all users',
  );
})}
</table>
${
  first && latest
    ? html`<h2 id="Edit_history">Edit history</h2>
<table class="wikitable mw-page-info">
${row('mw-pageinfo-firstuser', 'Page creator', revUserTools(authorOf(first), p.caller.user.rights))}
${row('mw-pageinfo-firsttime', 'Date of page creation', html`<a href="${indexPath(page.title, { oldid: first.id })}">${formatTime(first.timestamp)}</a>`)}
${row('mw-pageinfo-lastuser', 'Latest editor', revUserTools(authorOf(latest), p.caller.user.rights))}
${row('mw-pageinfo-lasttime', 'Date of latest edit', html`<a href="${indexPath(page.title, { oldid: latest.id })}">${formatTime(latest.timestamp)}</a>`)}
${row('mw-pageinfo-edits', 'Total number of edits', count)}
</table>`
    : ''
}`;
  send(p, {
    title: `Information for "${page.title}"`,
    body,
    tabs: await pageTabs(p, page, 'info'),
    noindex: true,
    cache: REVALIDATE,
    pageTools: { title: page.title, exists: !page.missing, ns: page.ns },
  });
}

/** A confirmation form of an action that changes state (purge, watch): POSTed with the session's token. */
async function confirmForm(p: PageRequest, page: PageRecord, action: string, question: string, button: string, error?: string): Promise<SafeHtml> {
  return html`${error ? messageBox('error', error) : ''}<form method="post" action="${indexPath(page.title, { action })}">
<p>${question}</p>${hidden('wpEditToken', p.caller.user.anonymous ? '+\\' : await csrfToken(p))}
<div class="buttons"><button type="submit" class="primary">${button}</button></div></form>`;
}

/** action=purge (PurgeAction): a GET asks, a POST purges the parser cache and goes back to the page. */
async function purgeAction(p: PageRequest, page: PageRecord): Promise<void> {
  if (page.missing) return missingPage(p, page);
  const tabs = await pageTabs(p, page, 'purge');
  if (p.method === 'POST') {
    // Anonymous visitors have the constant token "+\" (no session): the POST itself is the check.
    if (p.caller.user.anonymous || (await validCsrf(p))) {
      await p.deps.clients.content.purgePages({ titles: [page.dbkey] });
      return redirect(p, articlePath(page.title));
    }
    return send(p, { title: `Purge "${page.title}"`, body: await confirmForm(p, page, 'purge', 'Purge the cache of this page?', 'OK', SESSION_FAILURE), tabs, status: 400 });
  }
  send(p, { title: `Purge "${page.title}"`, body: await confirmForm(p, page, 'purge', 'Purge the cache of this page?', 'OK'), tabs, noindex: true });
}

/** action=watch / action=unwatch (WatchAction, UnwatchAction): logged-in users; a POST with the token changes the watchlist. */
async function watchAction(p: PageRequest, page: PageRecord, unwatch: boolean): Promise<void> {
  const verb = unwatch ? 'unwatch' : 'watch';
  if (p.caller.user.anonymous) return redirect(p, loginPath(page.title, 'exception-nologin-text'));
  const title = `${unwatch ? 'Remove' : 'Add'} "${page.title}" ${unwatch ? 'from' : 'to'} watchlist`;
  const question = unwatch ? `Remove the page "${page.title}" from your watchlist?` : `Add the page "${page.title}" to your watchlist?`;
  if (p.method === 'POST' && (await validCsrf(p))) {
    await p.deps.clients.content.watch({ userId: p.caller.user.id, titles: [page.title], unwatch });
    const done = unwatch ? `"${page.title}" and its talk page have been removed from your watchlist.` : `"${page.title}" and its talk page have been added to your watchlist.`;
    return send(p, { title, body: html`${messageBox('success', done)}<p><a href="${articlePath(page.title)}">Return to ${page.title}.</a></p>`, tabs: await pageTabs(p, page, 'watch') });
  }
  const error = p.method === 'POST' ? SESSION_FAILURE : undefined;
  send(p, { title, body: await confirmForm(p, page, verb, question, 'OK', error), tabs: await pageTabs(p, page, 'watch'), status: error ? 400 : 200, noindex: true });
}
