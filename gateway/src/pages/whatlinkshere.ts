/*
 * The pages around a page, as the sidebar's tools reach them: Special:WhatLinksHere (links,
 * redirects with the pages linking through them, transclusions and file links, as
 * SpecialWhatLinksHere lists them) and Special:RecentChangesLinked ("Related changes": the
 * recent changes of the pages a page links to, or with `showlinkedto` of those linking to it).
 */
import { LinkTable, RedirectFilter, type LinkingPage, type PageRecord, type RecentChange } from '../clients/types.js';
import { hidden, html, REVALIDATE, SafeHtml } from './html.js';
import { articlePath, indexPath, specialPath } from './paths.js';
import { queryParam, send, type PageHandler, type PageRequest } from './request.js';
import { changeRows } from './specials.js';

/** `limit` of the list: 50 by default, at most 500. */
function limitOf(p: PageRequest): number {
  const n = Number(queryParam(p, 'limit')) | 0;
  return n > 0 ? Math.min(n, 500) : 50;
}

/** The page a `target` names (subpage or parameter); undefined when none is given or it is invalid. */
async function targetPage(p: PageRequest): Promise<{ asked: string; page?: PageRecord }> {
  const asked = (queryParam(p, 'target') || (p.subpage ?? '')).replaceAll('_', ' ').trim();
  if (!asked) return { asked };
  const r = await p.deps.clients.content.resolvePages({ titles: [asked] });
  return { asked, page: r.invalid.length ? undefined : r.pages[0] };
}

interface Linker {
  page: LinkingPage;
  link: boolean;
  transclusion: boolean;
  image: boolean;
}

/** The namespace selector of both forms ("all" is ""). */
async function namespaceSelect(p: PageRequest, selected: string): Promise<SafeHtml> {
  const namespaces = (await p.deps.site.namespaces()).namespaces.filter((n) => n.id >= 0);
  return html`<select name="namespace" id="namespace"><option value=""${selected === '' ? new SafeHtml(' selected') : ''}>all</option>${namespaces.map((n) => html`<option value="${n.id}"${String(n.id) === selected ? new SafeHtml(' selected') : ''}>${n.name || '(Main)'}</option>`)}</select>`;
}

/** PHP's (int) of a request value: its leading integer, 0 without one (kept within safe integers). */
function phpInt(value: string): number {
  const m = /^\s*[+-]?\d+/.exec(value);
  if (!m) return 0;
  const n = Number(m[0]);
  return Math.max(-Number.MAX_SAFE_INTEGER + 1, Math.min(Number.MAX_SAFE_INTEGER - 1, n));
}

/** WebRequest::getBool, as FormOptions reads the hide* checkboxes: given, and neither "" nor "0". */
function flag(p: PageRequest, name: string): boolean {
  const v = queryParam(p, name);
  return v !== '' && v !== '0';
}

interface ListOffset {
  ns: number;
  /** The page the list continues from, excluded (0: the start). */
  id: number;
  dir: 'next' | 'prev';
}

/**
 * SpecialWhatLinksHere::parseOffsetAndDir: `offset=<ns>|<id>` (or a bare page id, in its page's
 * namespace) and `dir=next|prev`, that page excluded; the legacy `from=<id>` starts at that page.
 */
async function listOffset(p: PageRequest): Promise<ListOffset> {
  const from = phpInt(queryParam(p, 'from'));
  let ns: number | undefined;
  let id: number;
  let dir: ListOffset['dir'] = 'next';
  if (from) id = from - 1;
  else {
    if (queryParam(p, 'dir') === 'prev') dir = 'prev';
    let [nsText, idText] = `${queryParam(p, 'offset')}|`.split('|') as [string, string];
    if (!idText) [nsText, idText] = ['', nsText];
    if (/^\s*[+-]?\d+\s*$/.test(nsText)) ns = phpInt(nsText);
    id = phpInt(idText);
  }
  if (ns === undefined) {
    const r = id > 0 ? await p.deps.clients.content.resolvePages({ pageIds: [id] }) : undefined;
    ns = r?.pages.find((x) => x.id === id && !x.missing)?.ns ?? 0;
  }
  return { ns, id, dir };
}

/** SpecialWhatLinksHere: the pages linking to the target, redirects with their own linkers below them, 50 at a time either way. */
export const whatLinksHerePage: PageHandler = async (p) => {
  const { asked, page } = await targetPage(p);
  const nsParam = queryParam(p, 'namespace').trim();
  const chosenNs = /^-?\d+$/.test(nsParam) ? Number(nsParam) : undefined;
  const hide = (what: string) => flag(p, `hide${what}`);
  const form = html`<form action="/w/index.php" class="inline" id="mw-whatlinkshere-form">${hidden('title', 'Special:WhatLinksHere')}<fieldset><legend>What links here</legend>
<label>Page: <input type="text" name="target" id="mw-whatlinkshere-target" value="${page?.title ?? asked}"></label>
<label>Namespace: ${await namespaceSelect(p, chosenNs !== undefined ? nsParam : '')}</label> <button type="submit">Go</button></fieldset></form>`;
  if (!page) return send(p, { title: 'What links here', body: form, cache: REVALIDATE });

  const limit = limitOf(p);
  const off = await listOffset(p);
  // Every namespace named (T297754): the service then orders by namespace and page id, the order the offsets follow.
  const namespaces = chosenNs !== undefined ? [chosenNs] : (await p.deps.site.namespaces()).namespaces.filter((n) => n.id >= 0).map((n) => n.id);
  // The offset page is excluded: the service's continuation is the first row included, one id further on.
  let cont = '';
  let beyond = false;
  if (off.id) {
    if (namespaces.length === 1 && off.ns !== namespaces[0]) {
      // One namespace is ordered by page id alone: an offset in another one is before or after all of it.
      beyond = off.dir === 'next' ? off.ns > namespaces[0]! : off.ns < namespaces[0]!;
    } else cont = `${off.ns}|${off.dir === 'next' ? off.id + 1 : off.id - 1}`;
  }
  const { content } = p.deps.clients;
  const byId = new Map<number, Linker>();
  const add = (lp: LinkingPage, kind: 'link' | 'transclusion' | 'image') => {
    const e = byId.get(lp.id) ?? { page: lp, link: false, transclusion: false, image: false };
    e[kind] = true;
    if (lp.redirlinks.length > e.page.redirlinks.length) e.page = lp;
    byId.set(lp.id, e);
  };
  // One more than shown from each table, towards the offset's direction: whether the list goes on.
  const base = { title: page.title, namespaces, limit: limit + 1, continue: cont, descending: off.dir === 'prev' };
  // Links and redirects are told apart by the query (not afterwards), so the window holds what is shown.
  const filterRedirects = hide('links') ? RedirectFilter.REDIRECT_FILTER_REDIRECTS : hide('redirs') ? RedirectFilter.REDIRECT_FILTER_NONREDIRECTS : RedirectFilter.REDIRECT_FILTER_ALL;
  const [links, trans, images] = beyond
    ? []
    : await Promise.all([
        hide('links') && hide('redirs') ? undefined : content.listBacklinks({ ...base, table: LinkTable.LINK_TABLE_PAGELINKS, redirect: !hide('redirs'), filterRedirects }),
        hide('trans') ? undefined : content.listBacklinks({ ...base, table: LinkTable.LINK_TABLE_TEMPLATELINKS }),
        page.ns === 6 && !hide('images') ? content.listBacklinks({ ...base, table: LinkTable.LINK_TABLE_IMAGELINKS }) : undefined,
      ]);
  for (const lp of links?.pages ?? []) add(lp, 'link');
  for (const lp of trans?.pages ?? []) add(lp, 'transclusion');
  for (const lp of images?.pages ?? []) add(lp, 'image');
  const byKey = (a: LinkingPage, b: LinkingPage) => a.ns - b.ns || a.id - b.id;
  const merged = [...byId.values()].sort((a, b) => byKey(a.page, b.page));
  // The shown rows and the pages the "previous" and "next" links continue from.
  let rows: Linker[];
  let prevFrom: LinkingPage | undefined;
  if (off.dir === 'prev') {
    // The rows nearest the offset (MediaWiki drops the first row of the merged tables, which skips some when several tables answer).
    rows = merged.slice(-limit);
    if (merged.length > limit) prevFrom = rows[0]?.page;
  } else {
    rows = merged.slice(0, limit);
    if (off.id) prevFrom = rows[0]?.page;
  }
  const nextFrom = off.dir === 'prev' || merged.length > limit ? rows[rows.length - 1]?.page : undefined;

  const target = html`<strong><a href="${page.missing ? indexPath(page.title, { action: 'edit', redlink: 1 }) : page.redirect ? indexPath(page.title, { redirect: 'no' }) : articlePath(page.title)}"${page.missing ? new SafeHtml(' class="new"') : ''}>${page.title}</a></strong>`;
  const filterLink = (what: string, label: string) => {
    const q: Record<string, string | number> = { target: page.title, ...(chosenNs !== undefined ? { namespace: nsParam } : {}) };
    for (const w of ['trans', 'links', 'redirs', 'images']) if (hide(w) !== (w === what)) q[`hide${w}`] = 1;
    return html`<a href="${indexPath('Special:WhatLinksHere', q)}">${hide(what) ? 'Show' : 'Hide'} ${label}</a>`;
  };
  const filters = html`<fieldset class="mw-whatlinkshere-filters"><legend>Filters</legend>${filterLink('trans', 'transclusions')} | ${filterLink('links', 'links')} | ${filterLink('redirs', 'redirects')}${page.ns === 6 ? html` | ${filterLink('images', 'file links')}` : ''}</fieldset>`;
  const title = `Pages that link to "${page.title}"`;
  const subtitle = html`← <a href="${page.redirect ? indexPath(page.title, { redirect: 'no' }) : articlePath(page.title)}">${page.title}</a>`;
  if (!rows.length) {
    // 'nolinkshere' (-ns with a namespace chosen), with a 404 as MediaWiki sends it.
    const none = html`<p class="mw-whatlinkshere-none">No pages link to ${target}${chosenNs !== undefined ? ' in the chosen namespace' : ''}.</p>`;
    return send(p, {
      title,
      subtitle,
      status: 404,
      body: html`${form}${filters}
${none}`,
      noindex: true,
      cache: REVALIDATE,
    });
  }

  const item = (lp: LinkingPage, flags: string[], nested: SafeHtml | ''): SafeHtml =>
    html`<li><a href="${lp.redirect ? indexPath(lp.title, { redirect: 'no' }) : articlePath(lp.title)}"${lp.redirect ? new SafeHtml(' class="mw-redirect"') : ''}>${lp.title}</a>${flags.length ? ` (${flags.join(' | ')})` : ''} <span class="mw-whatlinkshere-tools">(<a href="${specialPath('WhatLinksHere', lp.title.replaceAll(' ', '_'))}">← links</a> | <a href="${indexPath(lp.title, { action: 'edit' })}">edit</a>)</span>${nested}</li>`;
  const list = rows.map((e) => {
    const flags = [e.page.redirect ? 'redirect page' : '', e.transclusion ? 'transclusion' : '', e.image ? 'file link' : ''].filter(Boolean);
    const redirlinks = [...e.page.redirlinks].sort(byKey);
    const nested = e.page.redirect && redirlinks.length ? html`<ul>${redirlinks.map((r) => item(r, r.redirect ? ['redirect page'] : [], ''))}</ul>` : '';
    return item(e.page, flags, nested);
  });
  // The request's options that differ from their defaults, in FormOptions' order (getChangedValues); the links keep them.
  const keep: Record<string, string | number> = {};
  if (chosenNs !== undefined) keep.namespace = chosenNs;
  if (limit !== 50) keep.limit = limit;
  if (queryParam(p, 'offset') !== '') keep.offset = queryParam(p, 'offset');
  if (queryParam(p, 'dir') !== '' && queryParam(p, 'dir') !== 'next') keep.dir = queryParam(p, 'dir');
  for (const w of ['redirs', 'trans', 'links', 'images']) if (hide(w)) keep[`hide${w}`] = 1;
  // PagerNavigationBuilder: "previous N" and "next N" ("previous"/"next" for 1), the limits, on the special page's subpage.
  const navHref = (q: Record<string, string | number>) => indexPath(`Special:WhatLinksHere/${page.title}`, { ...keep, ...q });
  const step = (dir: 'prev' | 'next', at: LinkingPage | undefined) => {
    const label = `${dir === 'prev' ? 'previous' : 'next'}${limit === 1 ? '' : ` ${limit}`}`;
    return at ? html`<a href="${navHref({ dir, offset: `${at.ns}|${at.id}` })}" rel="${dir}" class="mw-${dir}link">${label}</a>` : html`<span class="mw-${dir}link">${label}</span>`;
  };
  const limits = [20, 50, 100, 250, 500].map(
    (n, i) => html`${i ? ' | ' : ''}${n === limit ? html`<span class="mw-numlink">${n}</span>` : html`<a href="${navHref({ limit: n })}" class="mw-numlink">${n}</a>`}`,
  );
  const nav = html`<div class="mw-pager-navigation-bar">View (${step('prev', prevFrom)}  |  ${step('next', nextFrom)}) (${limits})</div>`;
  const body = html`${form}${filters}
<p>The following pages link to ${target}:</p><p>Displayed ${rows.length} item${rows.length === 1 ? '' : 's'}.</p>${nav}<ul id="mw-whatlinkshere-list">${list}</ul>\n${nav}`;
  send(p, { title, subtitle, body, noindex: true, cache: REVALIDATE });
};

/** Pages scanned and changes looked at by Related changes (as feedrecentchanges bounds them). */
const SCAN_LIMIT = 5000;

/** SpecialRecentChangesLinked: recent changes to the pages the target links to or transcludes (its members for a category), or with showlinkedto to the pages linking to it. */
export const recentChangesLinkedPage: PageHandler = async (p) => {
  const { asked, page } = await targetPage(p);
  const linkedTo = queryParam(p, 'showlinkedto') === '1';
  const days = Math.min(90, Math.max(1, Number(queryParam(p, 'days')) || 7));
  const limit = limitOf(p);
  const form = html`<form action="/w/index.php" class="inline" id="mw-rcl-form">${hidden('title', 'Special:RecentChangesLinked')}<fieldset><legend>Related changes</legend>
<label>Page name: <input type="text" name="target" value="${page?.title ?? asked}"></label>
<label><input type="checkbox" name="showlinkedto" value="1"${linkedTo ? new SafeHtml(' checked') : ''}> Show changes to pages linked to the given page instead</label> <button type="submit">Go</button></fieldset></form>`;
  if (!page) return send(p, { title: 'Related changes', body: form, cache: REVALIDATE });
  const { content } = p.deps.clients;
  const titles = new Set<string>();
  const ids = new Set<number>();
  if (!page.missing) {
    if (page.ns === 14 && !linkedTo) {
      for (const m of (await content.listCategoryMembers({ title: page.title, limit: 500 })).members) ids.add(m.id);
    } else {
      for (const table of [LinkTable.LINK_TABLE_PAGELINKS, LinkTable.LINK_TABLE_TEMPLATELINKS]) {
        if (linkedTo) for (const lp of (await content.listBacklinks({ table, title: page.title, limit: 500 })).pages) ids.add(lp.id);
        else for (const l of (await content.listPageLinks({ table, pageIds: [page.id], limit: 500 })).links) titles.add(l.title);
      }
    }
  }
  let changes: RecentChange[] = [];
  if (titles.size || ids.size) {
    const end = new Date(Date.now() - days * 86400_000).toISOString();
    const r = await content.listRecentChanges({ limit: SCAN_LIMIT, end, types: ['edit', 'new', 'log'] });
    changes = r.changes.filter((c) => ids.has(c.pageId) || titles.has(c.title)).slice(0, limit);
  }
  const rows = await changeRows(p, changes);
  const body = html`${form}${rows.length ? html`<ul class="special list" id="mw-recentchangeslinked">${rows}</ul>` : html`<p class="mw-changeslist-empty">No changes on pages linked ${linkedTo ? 'to' : 'from'} the given page during the given period.</p>`}`;
  send(p, {
    title: 'Related changes',
    heading: html`Changes related to "${page.title}"`,
    subtitle: html`← <a href="${articlePath(page.title)}">${page.title}</a>`,
    body,
    noindex: true,
    cache: REVALIDATE,
  });
};
