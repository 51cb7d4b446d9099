/*
 * The parts of action=parse that MediaWiki takes from the skin and the edit page rather than the
 * parser output: the categories box (Skin::getCategories), the subpage trail of the subtitle
 * (Skin::prepareSubtitle) and the limit report table of a preview (EditPage::getPreviewLimitReport).
 */
import type { ParseResponse } from '../../clients/types.js';
import { articlePath, indexPath } from '../../pages/paths.js';
import { escapeHtml } from '../errors.js';

/** Html::element's attribute value: `&` and `"` escaped (and `<`, `>` as htmlspecialchars does). */
const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** LinkRenderer::makeLink: a known page's link, or a red link to its edit form. */
export function pageLink(title: string, text: string, exists: boolean): string {
  return exists
    ? `<a href="${attr(articlePath(title))}" title="${attr(title)}">${escapeHtml(text)}</a>`
    : `<a href="${attr(indexPath(title, { action: 'edit', redlink: 1 }))}" class="new" title="${attr(`${title} (page does not exist)`)}">${escapeHtml(text)}</a>`;
}

export interface BoxCategory {
  /** The category's name, without the namespace. */
  name: string;
  missing: boolean;
  hidden: boolean;
}

/**
 * Skin::getCategories: the #catlinks box, normal categories under "Category"/"Categories", hidden
 * ones under "Hidden category"/"Hidden categories", whose class says whether they show (the
 * reader's showhiddencats option, or a category page) or stay hidden.
 */
export function categoriesHtml(categories: readonly BoxCategory[], ns: number, showHiddenOption: boolean): string {
  const item = (c: BoxCategory) => `<li>${pageLink(`Category:${c.name.replaceAll('_', ' ')}`, c.name.replaceAll('_', ' '), !c.missing)}</li>`;
  const normal = categories.filter((c) => !c.hidden);
  const hidden = categories.filter((c) => c.hidden);
  let inner = '';
  if (normal.length > 0) {
    inner += `<div id="mw-normal-catlinks" class="mw-normal-catlinks">${pageLink('Special:Categories', normal.length === 1 ? 'Category' : 'Categories', true)}: <ul>${normal.map(item).join('')}</ul></div>`;
  }
  const showHidden = showHiddenOption || ns === 14;
  if (hidden.length > 0) {
    const cls = showHiddenOption ? 'mw-hidden-cats-user-shown' : ns === 14 ? 'mw-hidden-cats-ns-shown' : 'mw-hidden-cats-hidden';
    inner += `<div id="mw-hidden-catlinks" class="mw-hidden-catlinks ${cls}">${hidden.length === 1 ? 'Hidden category' : 'Hidden categories'}: <ul>${hidden.map(item).join('')}</ul></div>`;
  }
  const allHidden = normal.length === 0 && !(hidden.length > 0 && showHidden);
  return `<div id="catlinks" class="catlinks${allHidden ? ' catlinks-allhidden' : ''}" data-mw="interface">${inner}</div>`;
}

/**
 * Skin::subPageSubtitleInternal: in a namespace with subpages, links to the existing pages above
 * a subpage ("< Parent | Parent/Child"), each link's text the part of the path since the last one.
 * `exists` says which of the prefixes (`A`, `A/B`…) are known pages.
 */
export function subpageSubtitle(title: string, exists: ReadonlySet<string>): string {
  const parts = title.split('/');
  if (parts.length < 2) return '';
  parts.pop();
  let out = '';
  let count = 0;
  let growing = '';
  let display = '';
  for (const part of parts) {
    growing += part;
    display += part;
    if (exists.has(growing)) {
      count++;
      out += count > 1 ? '&lrm; | ' : '&lt; ';
      out += `<a href="${attr(articlePath(growing))}" title="${attr(growing)}">${escapeHtml(display)}</a>`;
      display = '';
    } else {
      display += '/';
    }
    growing += '/';
  }
  return out === '' ? '' : `<span class="subpages">${out}</span>`;
}

/** The prefixes of a subpage's title that may be its parents (`A`, `A/B` of `A/B/C`). */
export function subpageParents(title: string): string[] {
  const parts = title.split('/');
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** Language::formatNum for English: thousands separated by commas. */
const num = (n: number) => n.toLocaleString('en-US');

/**
 * EditPage::getPreviewLimitReport: the limit report rows that have a label, as the preview shows
 * them under "Parser profiling data".
 */
export function limitReportHtml(r: ParseResponse): string {
  const l = r.limits;
  if (!l) return '';
  const seconds = (s: number) => `${s.toFixed(3)} ${s.toFixed(3) === '1.000' ? 'second' : 'seconds'}`;
  const rows: [string, string][] = [
    ['CPU time usage', seconds(l.cpuSeconds)],
    ['Real time usage', seconds(l.wallSeconds)],
    ['Preprocessor visited node count', `${num(l.ppVisitedNodes)}/${num(1000000)}`],
    ['Post-expand include size', `${num(l.postExpandIncludeSize)}/${num(2097152)} bytes`],
    ['Template argument size', `${num(l.templateArgumentSize)}/${num(2097152)} bytes`],
    ['Highest expansion depth', `${num(l.expansionDepth)}/${num(100)}`],
    ['Expensive parser function count', `${num(l.expensiveFunctions)}/${num(100)}`],
    ['Unstrip recursion depth', `0/${num(20)}`],
    ['Unstrip post-expand size', `${num(l.unstripSize)}/${num(5000000)} bytes`],
  ];
  return (
    '<div class="mw-limitReportExplanation"><p>Parser profiling data:\n</p></div><div class="preview-limit-report-wrapper"><table class="preview-limit-report wikitable"><tbody>' +
    rows.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('') +
    '</tbody></table></div>'
  );
}

/**
 * The ResourceLoader modules the parser output asks for (ParserOutput::getModules and
 * getModuleStyles), from what the page's HTML holds: Cite's for footnotes,
 * the gallery's styles for a gallery, the redirect page's styles for a redirect.
 */
export function outputModules(html: string): { modules: string[]; styles: string[] } {
  const modules: string[] = [];
  const styles: string[] = [];
  // Cite's <ref> hook asks for them (a footnote mark, or the error of a ref it refused).
  if (/<sup [^>]*class="reference"|class="error mw-ext-cite-error"/.test(html)) {
    modules.push('ext.cite.ux-enhancements');
    styles.push('ext.cite.styles');
  }
  if (/<ul class="gallery mw-gallery-/.test(html)) styles.push('mediawiki.page.gallery.styles');
  if (/<div class="redirectMsg">/.test(html)) styles.push('mediawiki.action.view.redirectPage');
  return { modules, styles };
}
