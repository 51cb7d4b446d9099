/*
 * Parts of a page shown below its content by the article view and the edit form alike: the
 * categories box (Skin::getCategoryLinks) and the list of templates used (TemplatesOnThisPageFormatter).
 */
import type { PageRecord } from '../clients/types.js';
import { html, SafeHtml } from './html.js';
import { articlePath, indexPath, specialPath } from './paths.js';
import type { PageRequest } from './request.js';
import { ownOptions } from '../signature.js';

/** A user's boolean option (their override, else MediaWiki's default of 0). */
export async function userOptionOn(p: PageRequest, name: string): Promise<boolean> {
  const v = (await ownOptions(p.deps, p.caller))[name];
  return v === true || v === 1 || v === '1';
}

/**
 * The categories box (#catlinks), as Skin::getCategoryLinks: links to the category pages (red for
 * missing ones); categories marked __HIDDENCAT__ go under "Hidden categories", shown only to readers
 * who chose "Show hidden categories" and on category pages.
 */
export async function categoryBox(p: PageRequest, page: PageRecord, categories: { name: string; missing: boolean }[]): Promise<SafeHtml | undefined> {
  if (categories.length === 0) return undefined;
  const existing = categories.filter((c) => !c.missing).map((c) => c.name);
  const info = existing.length ? await p.deps.clients.content.getCategoryInfo({ names: existing }) : undefined;
  const hiddenNames = new Set((info?.categories ?? []).filter((c) => c.hidden).map((c) => c.name));
  const visible = categories.filter((c) => !hiddenNames.has(c.name));
  const hidden = categories.filter((c) => hiddenNames.has(c.name));
  const showHidden = hidden.length > 0 && (page.ns === 14 || (await userOptionOn(p, 'showhiddencats')));
  const items = (list: typeof categories) =>
    list.map(
      (c) =>
        html`<li><a href="${c.missing ? indexPath(`Category:${c.name}`, { action: 'edit', redlink: 1 }) : articlePath(`Category:${c.name}`)}"${c.missing ? new SafeHtml(' class="new"') : ''}>${c.name.replaceAll('_', ' ')}</a></li>`,
    );
  const normal = visible.length
    ? html`<div id="mw-normal-catlinks" class="mw-normal-catlinks"><a href="${specialPath('Categories')}">${visible.length === 1 ? 'Category' : 'Categories'}</a>: <ul>${items(visible)}</ul></div>`
    : '';
  const hiddenBox = showHidden
    ? html`<div id="mw-hidden-catlinks" class="mw-hidden-catlinks ${page.ns === 14 ? 'mw-hidden-cats-ns-shown' : 'mw-hidden-cats-user-shown'}">${hidden.length === 1 ? 'Hidden category' : 'Hidden categories'}: <ul>${items(hidden)}</ul></div>`
    : '';
  if (!normal && !hiddenBox) return undefined;
  return html`<div id="catlinks" class="catlinks">${normal}${hiddenBox}</div>`;
}

/** The heading of the templates list: the saved page's, a preview's, or a section's (EditPage::getTemplates). */
export type TemplatesUsedKind = 'page' | 'preview' | 'section';

const TEMPLATES_USED: Record<TemplatesUsedKind, string> = {
  page: 'Templates used on this page:',
  preview: 'Templates used in this preview:',
  section: 'Templates used in this section:',
};

/** TemplatesOnThisPageFormatter::format: each template with its edit (or create) link, by title. */
export function templatesUsed(templates: readonly { title: string; exists: boolean }[], kind: TemplatesUsedKind): SafeHtml | '' {
  if (templates.length === 0) return '';
  const sorted = [...templates].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  const items = sorted.map((t) =>
    t.exists
      ? html`<li><a href="${articlePath(t.title)}" title="${t.title}">${t.title}</a> (<a href="${indexPath(t.title, { action: 'edit' })}" title="${t.title}">edit</a>) </li>`
      : html`<li><a href="${indexPath(t.title, { action: 'edit', redlink: 1 })}" class="new" title="${t.title} (page does not exist)">${t.title}</a> (<a href="${indexPath(t.title, { action: 'edit', redlink: 1 })}" class="new" title="${t.title} (page does not exist)">create</a>) </li>`,
  );
  return html`<div class="templatesUsed"><div class="mw-templatesUsedExplanation"><p>${TEMPLATES_USED[kind]}</p></div><ul>${items}</ul></div>`;
}
