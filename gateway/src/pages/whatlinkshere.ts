/*
 * The pages around a page, as the sidebar's tools reach them: Special:WhatLinksHere (links,
 * redirects with the pages linking through them, transclusions and file links, as
 * SpecialWhatLinksHere lists them) and Special:RecentChangesLinked ("Related changes": the
 * recent changes of the pages a page links to, or with `showlinkedto` of those linking to it).
 */
import { LinkTable, type LinkingPage, type PageRecord, type RecentChange } from '../clients/types.js';
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

/** SpecialWhatLinksHere: the pages linking to the target, redirects with their own linkers below them. */
export const whatLinksHerePage: PageHandler = async (p) => {
  const { asked, page } = await targetPage(p);
  const nsParam = queryParam(p, 'namespace').trim();
  const namespaces = /^\d+$/.test(nsParam) ? [Number(nsParam)] : [];
  const hide = (what: string) => queryParam(p, `hide${what}`) === '1';
  const form = html`<form action="/w/index.php" class="inline" id="mw-whatlinkshere-form">${hidden('title', 'Special:WhatLinksHere')}<fieldset><legend>What links here</legend>
<label>Page: <input type="text" name="target" id="mw-whatlinkshere-target" value="${page?.title ?? asked}"></label>
<label>Namespace: ${await namespaceSelect(p, namespaces.length ? nsParam : '')}</label> <button type="submit">Go</button></fieldset></form>`;
  if (!page) return send(p, { title: 'What links here', body: form, cache: REVALIDATE });

  const limit = limitOf(p);
  // `from=<ns>|<page id>`: the first linking page of this page of the list (the lists are ordered by namespace, then page id).
  const from = /^-?\d{1,6}\|\d{1,15}$/.test(queryParam(p, 'from')) ? queryParam(p, 'from') : '';
  const { content } = p.deps.clients;
  const byId = new Map<number, Linker>();
  const add = (lp: LinkingPage, kind: 'link' | 'transclusion' | 'image') => {
    const e = byId.get(lp.id) ?? { page: lp, link: false, transclusion: false, image: false };
    e[kind] = true;
    if (lp.redirlinks.length > e.page.redirlinks.length) e.page = lp;
    byId.set(lp.id, e);
  };
  // One more than shown from each table: what comes first after the shown ones is the next page's start.
  const base = { title: page.title, namespaces, limit: limit + 1, continue: from };
  const [links, trans, images] = await Promise.all([
    hide('links') && hide('redirs') ? undefined : content.listBacklinks({ ...base, table: LinkTable.LINK_TABLE_PAGELINKS, redirect: !hide('redirs') }),
    hide('trans') ? undefined : content.listBacklinks({ ...base, table: LinkTable.LINK_TABLE_TEMPLATELINKS }),
    page.ns === 6 && !hide('images') ? content.listBacklinks({ ...base, table: LinkTable.LINK_TABLE_IMAGELINKS }) : undefined,
  ]);
  for (const lp of links?.pages ?? []) if (lp.redirect ? !hide('redirs') : !hide('links')) add(lp, 'link');
  for (const lp of trans?.pages ?? []) add(lp, 'transclusion');
  for (const lp of images?.pages ?? []) add(lp, 'image');
  const merged = [...byId.values()].sort((a, b) => a.page.ns - b.page.ns || a.page.id - b.page.id);
  const rows = merged.slice(0, limit);
  const next = merged[limit]?.page;

  const item = (lp: LinkingPage, flags: string[], nested: SafeHtml | ''): SafeHtml =>
    html`<li><a href="${lp.redirect ? indexPath(lp.title, { redirect: 'no' }) : articlePath(lp.title)}"${lp.redirect ? new SafeHtml(' class="mw-redirect"') : ''}>${lp.title}</a>${flags.length ? ` (${flags.join(' | ')})` : ''} <span class="mw-whatlinkshere-tools">(<a href="${specialPath('WhatLinksHere', lp.title.replaceAll(' ', '_'))}">← links</a> | <a href="${indexPath(lp.title, { action: 'edit' })}">edit</a>)</span>${nested}</li>`;
  const list = rows.map((e) => {
    const flags = [e.page.redirect ? 'redirect page' : '', e.transclusion ? 'transclusion' : '', e.image ? 'file link' : ''].filter(Boolean);
    const nested = e.page.redirect && e.page.redirlinks.length ? html`<ul>${e.page.redirlinks.map((r) => item(r, r.redirect ? ['redirect page'] : [], ''))}</ul>` : '';
    return item(e.page, flags, nested);
  });
  const filterLink = (what: string, label: string) => {
    const q: Record<string, string | number> = { target: page.title, ...(namespaces.length ? { namespace: nsParam } : {}) };
    for (const w of ['trans', 'links', 'redirs', 'images']) if (hide(w) !== (w === what)) q[`hide${w}`] = 1;
    return html`<a href="${indexPath('Special:WhatLinksHere', q)}">${hide(what) ? 'Show' : 'Hide'} ${label}</a>`;
  };
  const keep: Record<string, string | number> = { target: page.title, ...(namespaces.length ? { namespace: nsParam } : {}) };
  for (const w of ['trans', 'links', 'redirs', 'images']) if (hide(w)) keep[`hide${w}`] = 1;
  const nav = html`<p class="mw-whatlinkshere-nav">View (${from ? html`<a href="${indexPath('Special:WhatLinksHere', { ...keep, limit })}">first ${limit}</a>` : `first ${limit}`} | ${next ? html`<a href="${indexPath('Special:WhatLinksHere', { ...keep, limit, from: `${next.ns}|${next.id}` })}" class="mw-nextlink">next ${limit}</a>` : `next ${limit}`}) (${[20, 50, 100, 250, 500].map((n, i) => html`${i ? ' | ' : ''}<a href="${indexPath('Special:WhatLinksHere', { ...keep, limit: n, ...(from ? { from } : {}) })}">${n}</a>`)})</p>`;
  const target = html`<strong><a href="${page.missing ? indexPath(page.title, { action: 'edit', redlink: 1 }) : articlePath(page.title)}"${page.missing ? new SafeHtml(' class="new"') : ''}>${page.title}</a></strong>`;
  const body = html`${form}<fieldset class="mw-whatlinkshere-filters"><legend>Filters</legend>${filterLink('trans', 'transclusions')} | ${filterLink('links', 'links')} | ${filterLink('redirs', 'redirects')}${page.ns === 6 ? html` | ${filterLink('images', 'file links')}` : ''}</fieldset>
${list.length ? html`<p>The following pages link to ${target}:</p>${nav}<ul id="mw-whatlinkshere-list">${list}</ul>\n${nav}` : html`<p class="mw-whatlinkshere-none">No pages link to ${target}.</p>`}`;
  send(p, {
    title: `Pages that link to "${page.title}"`,
    subtitle: html`← <a href="${page.redirect ? indexPath(page.title, { redirect: 'no' }) : articlePath(page.title)}">${page.title}</a>`,
    body,
    noindex: true,
    cache: REVALIDATE,
  });
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
