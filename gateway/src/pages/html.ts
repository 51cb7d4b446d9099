/*
 * HTML of the wiki's pages: a tagged template that escapes every interpolated value unless it is
 * already SafeHtml, so escaping is the default rather than something each page must remember; and
 * the skin (header with search and personal tools, sidebar, tabs, categories) with its security
 * headers (strict CSP, no framing, no caching unless a page says otherwise).
 */
import crypto from 'node:crypto';
import type { Response } from 'express';
import { escapeHtml } from '../action/errors.js';
import type { Caller, GatewayDeps } from '../context.js';
import { ARTICLE_PATH, SCRIPT_PATH } from '../config.js';
import { articlePath, indexPath, specialPath } from './paths.js';
import { SKIN_SCRIPT_PATH } from './skin-script.js';
import { footerLinks } from './footer.js';

/** Markup that is safe to emit as is (built by `html` or from constants). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolated = SafeHtml | string | number | boolean | null | undefined | readonly Interpolated[];

function render(v: Interpolated): string {
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  if (v === null || v === undefined || v === false || v === true) return '';
  return escapeHtml(String(v));
}

/** `html\`<p>${text}</p>\``: strings and numbers are escaped (text and attribute values alike), SafeHtml is kept, arrays are joined, null/booleans vanish. */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** A message text with line breaks as MediaWiki renders them in a message box (the text is escaped). */
export function multiline(text: string): SafeHtml {
  return new SafeHtml(text.split('\n').map(escapeHtml).join('<br>'));
}

export function messageBox(kind: 'error' | 'warning' | 'success' | 'notice', content: Interpolated): SafeHtml {
  return html`<div class="msg msg-${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${content}</div>`;
}

/** A hidden form field. */
export function hidden(name: string, value: string): SafeHtml {
  return html`<input type="hidden" name="${name}" value="${value}">`;
}

/**
 * Rendered wiki content, after MediaWiki 1.39's mediawiki.skinning (thumbnails, floats, tables,
 * external links), mediawiki.page.gallery.styles, mediawiki.toc.styles and Cite's styles, for the
 * legacy media markup the renderer writes and the newer one (<figure typeof="mw:File/Thumb">…,
 * content.media-common/-screen.less) it writes with WIKI_LEGACY_MEDIA_DOM=0. Without images (the policy allows none inline): the
 * external-link and magnify marks are drawn with text and borders.
 */
const CONTENT_STYLE = `
.mw-parser-output .mw-empty-elt{display:none}
.mw-parser-output a.external{color:#36b}
.mw-parser-output a.external::after{content:"\\2197";display:inline-block;margin-left:.1em;font-size:.75em;line-height:1;vertical-align:super;text-decoration:none}
.mw-parser-output a.external.autonumber::after,.mw-parser-output a.external:has(img)::after{content:none}
.mw-parser-output a.new,.mw-parser-output a.new:visited{color:#d73333}
.mw-parser-output .mw-selflink{font-weight:bold;color:inherit}
div.tright,div.floatright,table.floatright{clear:right;float:right}
div.tleft,div.floatleft,table.floatleft{clear:left;float:left}
div.floatright,table.floatright{margin:0 0 .5em .5em}
div.floatleft,table.floatleft{margin:0 .5em .5em 0}
div.floatnone{float:none}
.mw-parser-output div.center{width:100%;text-align:center}
.mw-parser-output div.center *{margin-left:auto;margin-right:auto}
div.thumb{width:auto;background-color:transparent;margin-bottom:.5em}
div.tleft{margin:.5em 1.4em 1.3em 0}
div.tright{margin:.5em 0 1.3em 1.4em}
div.tnone{margin:.5em 0 1.3em}
div.thumbinner{padding:3px;text-align:center;overflow:hidden;border:1px solid #c8ccd1;background-color:#f8f9fa;font-size:94%;max-width:100%}
.thumbimage{background-color:#fff;border:1px solid #c8ccd1}
.mw-parser-output img.thumbimage{max-width:none}
.thumbcaption{text-align:left;line-height:1.4em;padding:3px;border:0;font-size:94%}
.thumbborder{border:1px solid #eaecf0}
.magnify{float:right;margin-left:3px}
.magnify a{display:block;position:relative;width:15px;height:11px;overflow:hidden;border:1px solid #72777d;background:#fff;user-select:none}
.magnify a::after{content:"";position:absolute;right:1px;top:1px;width:5px;height:4px;border:1px solid #72777d}
figure[typeof~="mw:File"],figure[typeof~="mw:File/Frameless"]{margin:0}
figure[typeof~="mw:File"]>figcaption,figure[typeof~="mw:File/Frameless"]>figcaption{display:none}
figure[typeof~="mw:File/Thumb"],figure[typeof~="mw:File/Frame"]{margin:.5em 0 1.3em 1.4em;clear:right;float:right;display:table;text-align:center;border-collapse:collapse;border:1px solid #c8ccd1;border-bottom:0;background-color:#f8f9fa}
figure[typeof~="mw:File/Thumb"]>:first-child>:first-child,figure[typeof~="mw:File/Frame"]>:first-child>:first-child{margin:3px}
figure[typeof~="mw:File/Thumb"]>:first-child>:first-child:not(.mw-broken-media),figure[typeof~="mw:File/Frame"]>:first-child>:first-child:not(.mw-broken-media){border:1px solid #c8ccd1;background:#fff}
figure[typeof~="mw:File/Thumb"]>:first-child>span.mw-broken-media,figure[typeof~="mw:File/Frame"]>:first-child>span.mw-broken-media{display:inline-block;margin:3px 4px;width:180px;font-size:94%}
figure[typeof~="mw:File/Thumb"]>figcaption,figure[typeof~="mw:File/Frame"]>figcaption{display:table-caption;caption-side:bottom;line-height:1.4em;word-break:break-word;text-align:left;padding:0 6px 6px;border:1px solid #c8ccd1;border-top:0;background-color:#f8f9fa;font-size:88.4%}
figure[typeof~="mw:File"].mw-halign-right,figure[typeof~="mw:File/Frameless"].mw-halign-right{margin:0 0 .5em .5em;clear:right;float:right}
figure[typeof~="mw:File"].mw-halign-left,figure[typeof~="mw:File/Frameless"].mw-halign-left{margin:0 .5em .5em 0;clear:left;float:left}
figure[typeof~="mw:File/Thumb"].mw-halign-left,figure[typeof~="mw:File/Frame"].mw-halign-left{margin:.5em 1.4em 1.3em 0;clear:left;float:left}
figure.mw-halign-none{clear:none;float:none}
figure[typeof~="mw:File/Thumb"].mw-halign-none,figure[typeof~="mw:File/Frame"].mw-halign-none{margin:0 0 .5em}
figure.mw-halign-center{margin:0 auto .5em;display:table;border-collapse:collapse;clear:none;float:none}
.mw-valign-middle>:first-child>:first-child{vertical-align:middle}
.mw-valign-baseline>:first-child>:first-child{vertical-align:baseline}
.mw-valign-sub>:first-child>:first-child{vertical-align:sub}
.mw-valign-super>:first-child>:first-child{vertical-align:super}
.mw-valign-top>:first-child>:first-child{vertical-align:top}
.mw-valign-text-top>:first-child>:first-child{vertical-align:text-top}
.mw-valign-bottom>:first-child>:first-child{vertical-align:bottom}
.mw-valign-text-bottom>:first-child>:first-child{vertical-align:text-bottom}
.mw-image-border>:first-child>:first-child:not(.mw-broken-media){border:1px solid #eaecf0}
.mw-gallery-traditional .gallerybox>.thumb:has(>span[typeof])::before{content:"";vertical-align:middle;display:inline-block;height:100%}
.mw-gallery-traditional .gallerybox>.thumb>span[typeof]{vertical-align:middle;display:inline-block}
ul.gallery{margin:2px;padding:2px;display:block}
li.gallerycaption{font-weight:bold;text-align:center;display:block;word-wrap:break-word}
li.gallerybox{vertical-align:top;display:inline-block;margin:0}
li.gallerybox div.thumb{text-align:center;margin:2px;border:1px solid #c8ccd1;background-color:#f8f9fa}
li.gallerybox div.thumb img{display:block;margin:0 auto;max-width:none}
div.gallerytext{overflow:hidden;font-size:94%;padding:2px 4px;word-wrap:break-word}
div.gallerytext p{margin:0}
.galleryfilename{display:block}
.galleryfilename-truncate{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
ul.mw-gallery-nolines li.gallerybox div.thumb{background-color:transparent;border:0}
ul.mw-gallery-nolines li.gallerybox div.gallerytext{text-align:center}
ul.mw-gallery-packed,ul.mw-gallery-packed-overlay,ul.mw-gallery-packed-hover{text-align:center}
ul.mw-gallery-packed li.gallerybox div.thumb,ul.mw-gallery-packed-overlay li.gallerybox div.thumb,ul.mw-gallery-packed-hover li.gallerybox div.thumb{background-color:transparent;border:0}
ul.mw-gallery-packed-hover li.gallerybox,ul.mw-gallery-packed-overlay li.gallerybox{position:relative}
ul.mw-gallery-packed-hover div.gallerytextwrapper{overflow:hidden;height:0}
ul.mw-gallery-packed-hover li.gallerybox:hover div.gallerytextwrapper,ul.mw-gallery-packed-overlay li.gallerybox div.gallerytextwrapper{position:absolute;background:rgba(255,255,255,.8);padding:5px 10px;bottom:0;left:0;height:auto;max-height:40%;overflow:hidden;font-weight:bold;margin:2px}
ul.gallery.mw-gallery-slideshow{display:block;margin:4em 0}
.mw-parser-output table.wikitable{background-color:#f8f9fa;color:#202122;margin:1em 0;border:1px solid #a2a9b1;border-collapse:collapse;width:auto}
.mw-parser-output table.wikitable>tr>th,.mw-parser-output table.wikitable>tr>td,.mw-parser-output table.wikitable>*>tr>th,.mw-parser-output table.wikitable>*>tr>td{border:1px solid #a2a9b1;padding:.2em .4em}
.mw-parser-output table.wikitable>tr>th,.mw-parser-output table.wikitable>*>tr>th{background-color:#eaecf0;text-align:center}
.mw-parser-output table.wikitable>caption{font-weight:bold}
.toc,.mw-warning{border:1px solid #a2a9b1;background-color:#f8f9fa;padding:7px;font-size:95%}
.toc{display:table;margin:.5em 0}
.toc .toctitle{text-align:center;direction:ltr}
.toc h2{display:inline;border:0;padding:0;font-size:100%;font-weight:bold;font-family:inherit;margin:0}
.toc ul{list-style:none;margin:.3em 0 0;padding:0;text-align:left}
.toc ul ul{margin:0 0 0 2em}
.tocnumber{padding-right:.5em;color:#202122}
.toctogglecheckbox{display:none}
.toctogglespan{font-size:94%}
.toctogglespan::before{content:" ["}
.toctogglespan::after{content:"]"}
.toctogglelabel{cursor:pointer;color:#36c}
.toctogglelabel:hover{text-decoration:underline}
.toctogglecheckbox:checked+.toctitle .toctogglelabel::after{content:"show"}
.toctogglecheckbox:not(:checked)+.toctitle .toctogglelabel::after{content:"hide"}
.toctogglecheckbox:checked~ul{display:none}
sup.reference{line-height:1;unicode-bidi:isolate;white-space:nowrap}
ol.references{font-size:90%;margin-bottom:.5em}
.mw-references-columns{column-width:30em}
.mw-references-columns li{break-inside:avoid-column}
.mw-cite-backlink{margin-right:.3em}
.mw-parser-output .error{color:#d33;font-size:larger}
`;

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",sans-serif;color:#202122;background:#f8f9fa}
a{color:#36c;text-decoration:none}a:hover{text-decoration:underline}a.new,a.new:visited{color:#d73333}a:visited{color:#6b4ba1}
#mw-head{display:flex;flex-wrap:wrap;gap:.5em 1em;align-items:center;padding:.5em 1em;background:#fff;border-bottom:1px solid #c8ccd1}
#p-logo{font-weight:bold;font-size:1.25em;color:#202122;margin-right:auto}
#searchform{display:flex;gap:.3em;flex:0 1 22em}
#searchform input[type=search]{flex:1;min-width:6em}
#p-personal ul{list-style:none;display:flex;flex-wrap:wrap;gap:0 .9em;margin:0;padding:0;font-size:.88em}
.layout{display:grid;grid-template-columns:11em minmax(0,1fr);max-width:80em;margin:0 auto}
#mw-panel{padding:1em .5em 1em 1em;font-size:.88em}
#mw-panel h3{font-size:.85em;color:#54595d;margin:.8em 0 .2em;font-weight:normal}
#mw-panel ul{list-style:none;margin:0;padding:0}
#mw-panel li{padding:.2em 0}
div.page{min-width:0;padding:1em}
.tabs{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.3em;font-size:.88em}
.tabs ul{list-style:none;display:flex;flex-wrap:wrap;margin:0;padding:0}
.tabs li a{display:block;padding:.35em .8em;border:1px solid #c8ccd1;border-bottom:0;background:#eaecf0;margin-right:-1px}
.tabs li.selected a{background:#fff;color:#202122}
#content{background:#fff;border:1px solid #c8ccd1;padding:1em 1.5em 1.5em;min-height:20em}
h1,h2{font-family:Georgia,"Linux Libertine",serif;font-weight:normal;border-bottom:1px solid #a2a9b1}
h1{margin:.1em 0 .3em;font-size:1.9em;line-height:1.3}
#contentSub,#siteSub{color:#54595d;font-size:.9em;margin:0 0 .8em}
.mw-editsection{font-size:.7em;font-family:system-ui,sans-serif;margin-left:.8em}
.mw-parser-output img{max-width:100%;height:auto}
pre{white-space:pre-wrap;background:#f8f9fa;border:1px solid #eaecf0;padding:1em;overflow-x:auto}
#catlinks{margin-top:1.5em;border:1px solid #a2a9b1;background:#f8f9fa;padding:.3em .6em;font-size:.9em}
#catlinks ul{display:inline;list-style:none;margin:0;padding:0}
#catlinks li{display:inline;padding:0 .5em;border-left:1px solid #a2a9b1}
#catlinks li:first-child{border-left:0}
#footer{font-size:.8em;color:#54595d;padding:.8em 0}#footer ul{list-style:none;margin:0 0 .4em;padding:0}#footer-places li{display:inline;margin-right:1em}
#p-logo img{vertical-align:middle;margin-right:.4em;max-height:50px}
fieldset{border:1px solid #c8ccd1;border-radius:2px;margin:1em 0;padding:.5em 1em 1em}
legend{font-weight:bold;padding:0 .3em}
label.field{display:block;margin:.8em 0 .2em;font-weight:bold}
input[type=text],input[type=password],input[type=search],input[type=number],select{padding:.4em .5em;border:1px solid #a2a9b1;border-radius:2px;font:inherit}
input[type=text],input[type=password]{width:100%;max-width:30em}
textarea{width:100%;font:14px/1.5 ui-monospace,Menlo,Consolas,monospace;border:1px solid #a2a9b1;border-radius:2px;padding:.5em}
.grants{columns:2 18em;margin:.5em 0}
.grants label{display:block;break-inside:avoid;padding:.1em 0}
.grants code,td code{font-size:.85em;color:#54595d}
.help{color:#54595d;font-size:.9em}
.buttons{margin-top:1em;display:flex;gap:.5em;flex-wrap:wrap;align-items:center}
button,input[type=submit]{font:inherit;font-weight:bold;padding:.4em 1em;border:1px solid #a2a9b1;border-radius:2px;background:#f8f9fa;color:#202122;cursor:pointer}
button.primary{background:#36c;border-color:#36c;color:#fff}
button.destructive{color:#d33;border-color:#d33}
.msg{padding:.6em 1em;margin:1em 0;border:1px solid;border-radius:2px}
.msg-error{background:#fee7e6;border-color:#d33}
.msg-warning{background:#fef6e7;border-color:#fc3}
.msg-success{background:#d5fdf4;border-color:#14866d}
.msg-notice{background:#eaecf0;border-color:#a2a9b1}
.secret{font-family:monospace;font-size:1.1em;background:#eaf3ff;padding:.1em .4em;border-radius:2px;user-select:all}
table{border-collapse:collapse;width:100%;margin:.5em 0}
th,td{text-align:left;padding:.4em .6em;border-bottom:1px solid #eaecf0;vertical-align:top}
.mw-parser-output table th,.mw-parser-output table td{border-bottom:0}
ul.list{padding-left:1.2em}.mw-search-results{list-style:none;padding-left:0}.mw-search-results li{margin-bottom:.8em}ul.list li{margin:.15em 0}
.history li{list-style:none}.history{padding-left:0}
.mw-changeslist-links::before{content:"("}.mw-changeslist-links::after{content:")"}.mw-changeslist-links>span:not(:first-child)::before{content:" | "}
.minor{font-weight:bold}.comment{font-style:italic;color:#54595d}
.mw-plusminus-pos{color:#006400}.mw-plusminus-neg{color:#8b0000}.mw-plusminus-null{color:#a2a9b1}
.searchresult{font-size:.9em}.searchmatch{font-weight:bold}.mw-search-result-data{color:#14866d;font-size:.85em}
table.diff{table-layout:fixed;border-spacing:4px;border-collapse:separate;font-size:.88em}
table.diff col.diff-marker{width:2%}table.diff col.diff-content{width:48%}
table.diff td{padding:.2em .4em;border:0;word-wrap:break-word;white-space:pre-wrap}
td.diff-addedline{border:1px solid #a3d3ff!important;border-left-width:4px!important}
td.diff-deletedline{border:1px solid #ffe49c!important;border-left-width:4px!important}
td.diff-context{background:#f8f9fa;border:1px solid #eaecf0!important;color:#202122}
.diffchange{font-weight:bold}td.diff-addedline .diffchange{background:#d8ecff}td.diff-deletedline .diffchange{background:#feeec8}
td.diff-marker{text-align:right;font-weight:bold;font-size:1.25em;line-height:1.2}td.diff-marker::before{content:attr(data-marker)}
table.diff-editfont-monospace td.diff-addedline,table.diff-editfont-monospace td.diff-deletedline,table.diff-editfont-monospace td.diff-context{font-family:monospace,monospace}
td.diff-lineno{font-weight:bold}td.diff-otitle,td.diff-ntitle{text-align:center}
.mw-editform-buttons{display:flex;gap:.5em;flex-wrap:wrap;margin:.5em 0}
.editOptions{background:#eaecf0;border:1px solid #c8ccd1;padding:.6em 1em;margin-top:-.4em}
#wpAntispam{display:none}
.mw-page-info th{width:40%}
form.inline input[type=text]{width:auto;max-width:14em}
.previewnote{border-bottom:1px solid #a2a9b1;margin-bottom:1em}
[hidden]{display:none!important}
#searchform{position:relative}
.suggestions{position:absolute;top:100%;left:0;right:0;z-index:5;margin:0;padding:0;list-style:none;background:#fff;border:1px solid #a2a9b1;box-shadow:0 2px 2px rgba(0,0,0,.1)}
.suggestions li{margin:0}.suggestions a{display:block;padding:.25em .5em;color:#202122}.suggestions li.selected a,.suggestions a:hover{background:#eaf3ff;text-decoration:none}
.mw-notification{position:fixed;top:1em;right:1em;z-index:10;max-width:24em;padding:.75em 1.25em;background:#fff;border:1px solid #a2a9b1;border-radius:2px;box-shadow:0 2px 4px rgba(0,0,0,.2);cursor:pointer}
${CONTENT_STYLE}
@media (max-width:720px){.layout{grid-template-columns:1fr}#mw-panel{order:2;padding:0 1em}#mw-panel ul{display:flex;flex-wrap:wrap;gap:0 1em}div.page{padding:.5em}#content{padding:.8em}#p-logo{width:100%}}
`;

/**
 * The stylesheet is inline; the CSP allows exactly it by hash. Scripts only from the wiki's own
 * origin (the skin's script; no inline script, no eval), which may call only the wiki itself.
 */
const STYLE_HASH = `'sha256-${crypto.createHash('sha256').update(STYLE).digest('base64')}'`;
export const CONTENT_SECURITY_POLICY = `default-src 'none'; script-src 'self'; connect-src 'self'; style-src ${STYLE_HASH}; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
/**
 * Pages showing rendered wiki content: its style attributes (filtered by the sanitizer) need
 * 'unsafe-inline' styles, which a hash would switch off; still only the skin's script, no frames or foreign loads.
 */
export const WIKI_CONTENT_POLICY = `default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; media-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

/** What MediaWiki sends for pages without a token (no CDN): browsers keep them but revalidate. */
export const REVALIDATE = { control: 'private, must-revalidate, max-age=0' } as const;

/** A tab or a link of the skin's menus; MediaWiki's element id (ca-edit, pt-login…) so tools find it. */
export interface SkinLink {
  id: string;
  text: string;
  href: string;
  selected?: boolean;
  /** A link to a missing page (red). */
  isNew?: boolean;
}

export interface PageOptions {
  title: string;
  body: SafeHtml;
  status?: number;
  /** Origins the page's form may end up at besides this wiki (an OAuth consent redirects to the app). */
  formActionOrigins?: readonly string[];
  /** The heading when it is not the plain title (a page's display title, "Editing X"). */
  heading?: SafeHtml;
  /** Under the heading (#contentSub): "(Redirected from …)", revision navigation. */
  subtitle?: SafeHtml;
  /** Left (namespaces) and right (views, actions) tabs; special pages get one "Special page" tab. */
  tabs?: { namespaces: SkinLink[]; views: SkinLink[] };
  /** The page's categories (#catlinks). */
  categories?: SafeHtml;
  /** "This page was last edited on …". */
  footer?: string;
  /** The body holds rendered wiki content (WIKI_CONTENT_POLICY instead of the hash-only policy). */
  wikiContent?: boolean;
  /** Cache headers of the response (default: private, no-store — pages carry tokens). */
  cache?: { control: string; lastModified?: Date };
  /** Robots: MediaWiki marks edit forms, histories and old revisions noindex,nofollow. */
  noindex?: boolean;
  /** The page the sidebar's page tools are about (Skin::buildNavUrls: an article-related page). */
  pageTools?: PageToolsTarget;
}

export interface PageToolsTarget {
  /** Prefixed title. */
  title: string;
  /** The page exists (Related changes need it, or a category). */
  exists: boolean;
  ns: number;
  /** The revision shown by a view: "Permanent link" to it. */
  revId?: number;
}

/** The toolbox of Vector (Skin::buildNavUrls): what links here, related changes, upload, special pages, permanent link, page information. */
export function toolLinks(target: PageToolsTarget | undefined): SkinLink[] {
  if (!target) return TOOLS;
  const key = target.title.replaceAll(' ', '_');
  const links: SkinLink[] = [{ id: 't-whatlinkshere', text: 'What links here', href: specialPath('WhatLinksHere', key) }];
  if (target.exists || target.ns === 14) links.push({ id: 't-recentchangeslinked', text: 'Related changes', href: specialPath('RecentChangesLinked', key) });
  links.push(...TOOLS);
  if (target.revId) links.push({ id: 't-permalink', text: 'Permanent link', href: indexPath(target.title, { oldid: target.revId }) });
  links.push({ id: 't-info', text: 'Page information', href: indexPath(target.title, { action: 'info' }) });
  return links;
}

function linkItems(links: SkinLink[]): SafeHtml {
  return html`${links.map((l) => html`<li id="${l.id}"${l.selected ? new SafeHtml(' class="selected"') : ''}><a href="${l.href}"${l.isNew ? new SafeHtml(' class="new"') : ''}>${l.text}</a></li>`)}`;
}

/** The personal tools (MediaWiki's p-personal, with its ids). */
function personalLinks(caller: Caller): SafeHtml {
  const u = caller.user;
  if (u.anonymous) {
    return linkItems([
      { id: 'pt-createaccount', text: 'Create account', href: specialPath('CreateAccount') },
      { id: 'pt-login', text: 'Log in', href: specialPath('UserLogin') },
    ]);
  }
  return linkItems([
    { id: 'pt-userpage', text: u.name, href: articlePath(`User:${u.name}`) },
    { id: 'pt-mytalk', text: 'Talk', href: articlePath(`User talk:${u.name}`) },
    { id: 'pt-preferences', text: 'Preferences', href: specialPath('Preferences') },
    { id: 'pt-watchlist', text: 'Watchlist', href: specialPath('Watchlist') },
    { id: 'pt-mycontris', text: 'Contributions', href: specialPath('Contributions', u.name) },
    { id: 'pt-logout', text: 'Log out', href: specialPath('UserLogout') },
  ]);
}

const SIDEBAR: SkinLink[] = [
  { id: 'n-mainpage-description', text: 'Main page', href: articlePath('Main Page') },
  { id: 'n-recentchanges', text: 'Recent changes', href: specialPath('RecentChanges') },
  { id: 'n-randompage', text: 'Random page', href: specialPath('Random') },
];
const TOOLS: SkinLink[] = [
  { id: 't-upload', text: 'Upload file', href: specialPath('Upload') },
  { id: 't-specialpages', text: 'Special pages', href: specialPath('SpecialPages') },
];

function tabsOf(page: PageOptions): SafeHtml {
  const tabs = page.tabs ?? { namespaces: [{ id: 'ca-nstab-special', text: 'Special page', href: '', selected: true }], views: [] };
  const left = tabs.namespaces.map((t) => (t.href === '' ? html`<li id="${t.id}" class="selected"><a>${t.text}</a></li>` : linkItems([t])));
  return html`<nav class="tabs" aria-label="Page tabs"><ul id="p-namespaces">${left}</ul><ul id="p-views">${linkItems(tabs.views)}</ul></nav>`;
}

/**
 * Sends a complete page in the wiki's skin. The headers keep it out of frames (clickjacking),
 * out of shared caches (pages carry tokens and the reader's name) and away from every script
 * and foreign resource.
 */
export function sendPage(res: Response, deps: GatewayDeps, caller: Caller, page: PageOptions): void {
  const sitename = deps.config.sitename;
  const doc = html`<!DOCTYPE html>
<html lang="${deps.config.lang}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} - ${sitename}</title>
<link rel="icon" href="/favicon.ico">
<script src="${SKIN_SCRIPT_PATH}" defer></script>
${page.noindex ? new SafeHtml('<meta name="robots" content="noindex,nofollow">\n') : ''}<style>${new SafeHtml(STYLE)}</style>
</head>
<body>
<header id="mw-head">
<a id="p-logo" href="${articlePath('Main Page')}" title="Visit the main page">${deps.config.logo ? html`<img class="mw-wiki-logo" src="${deps.config.logo}" alt="" height="50">` : ''}${sitename}</a>
<form id="searchform" action="${SCRIPT_PATH}/index.php" role="search" data-api="${SCRIPT_PATH}/api.php" data-article-path="${ARTICLE_PATH}">
${hidden('title', 'Special:Search')}<input type="search" name="search" id="searchInput" placeholder="Search ${sitename}" aria-label="Search ${sitename}">
<button type="submit" name="go" value="Go" id="searchButton">Go</button>
</form>
<nav id="p-personal" aria-label="Personal tools"><ul>${personalLinks(caller)}</ul></nav>
</header>
<div class="layout">
<nav id="mw-panel" aria-label="Site">
<h3>Navigation</h3><ul id="p-navigation">${linkItems(SIDEBAR)}</ul>
<h3>Tools</h3><ul id="p-tb">${linkItems(toolLinks(page.pageTools))}</ul>
</nav>
<div class="page">
${tabsOf(page)}
<main id="content">
<h1 id="firstHeading">${page.heading ?? page.title}</h1>
${page.subtitle ? html`<div id="contentSub">${page.subtitle}</div>` : ''}
<div id="bodyContent">
${page.body}
</div>
${page.categories ?? ''}
</main>
<footer id="footer">${page.footer ? html`<ul id="footer-info"><li id="footer-info-lastmod">${page.footer}</li></ul>` : ''}
<ul id="footer-places">
${footerLinks(deps).map(
  (l) => html`<li id="${l.id}"><a href="${articlePath(l.page)}">${l.text}</a></li>
`,
)}</ul></footer>
</div>
</div>
</body>
</html>
`;
  res.status(page.status ?? 200);
  setSecurityHeaders(res);
  if (page.wikiContent) res.set('Content-Security-Policy', WIKI_CONTENT_POLICY);
  // Browsers apply form-action to the redirects that follow a submission too.
  if (page.formActionOrigins?.length) res.set('Content-Security-Policy', CONTENT_SECURITY_POLICY.replace("form-action 'self'", `form-action 'self' ${page.formActionOrigins.join(' ')}`));
  if (page.cache) {
    // MediaWiki adds an Expires in the past to every page it tells browsers to revalidate.
    res.set({ 'Cache-Control': page.cache.control, Expires: 'Thu, 01 Jan 1970 00:00:00 GMT', Vary: 'Accept-Encoding, Cookie' });
    if (page.cache.control.includes('no-cache')) res.set('Pragma', 'no-cache');
    if (page.cache.lastModified) res.set('Last-Modified', page.cache.lastModified.toUTCString());
  }
  res.set('Content-Type', 'text/html; charset=utf-8');
  res.send(doc.value);
}

/** Every response of the special pages, redirects included. */
export function setSecurityHeaders(res: Response): void {
  res.set({
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'Cache-Control': 'private, no-store',
    Vary: 'Cookie',
  });
}
