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
import { SCRIPT_PATH } from '../config.js';
import { articlePath, indexPath, specialPath } from './paths.js';

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
.mw-parser-output table.wikitable{border:1px solid #a2a9b1;width:auto}
.mw-parser-output table.wikitable th,.mw-parser-output table.wikitable td{border:1px solid #a2a9b1}
.toc{display:inline-block;border:1px solid #a2a9b1;background:#f8f9fa;padding:.4em .9em;font-size:.9em}
.toc ul{list-style:none;padding-left:1em;margin:.2em 0}
pre{white-space:pre-wrap;background:#f8f9fa;border:1px solid #eaecf0;padding:1em;overflow-x:auto}
#catlinks{margin-top:1.5em;border:1px solid #a2a9b1;background:#f8f9fa;padding:.3em .6em;font-size:.9em}
#catlinks ul{display:inline;list-style:none;margin:0;padding:0}
#catlinks li{display:inline;padding:0 .5em;border-left:1px solid #a2a9b1}
#catlinks li:first-child{border-left:0}
#footer{font-size:.8em;color:#54595d;padding:.8em 0}
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
td.diff-lineno{font-weight:bold}td.diff-otitle,td.diff-ntitle{text-align:center}
.mw-editform-buttons{display:flex;gap:.5em;flex-wrap:wrap;margin:.5em 0}
.editOptions{background:#eaecf0;border:1px solid #c8ccd1;padding:.6em 1em;margin-top:-.4em}
#wpAntispam{display:none}
.mw-page-info th{width:40%}
form.inline input[type=text]{width:auto;max-width:14em}
.previewnote{border-bottom:1px solid #a2a9b1;margin-bottom:1em}
@media (max-width:720px){.layout{grid-template-columns:1fr}#mw-panel{order:2;padding:0 1em}#mw-panel ul{display:flex;flex-wrap:wrap;gap:0 1em}div.page{padding:.5em}#content{padding:.8em}#p-logo{width:100%}}
`;

/** The stylesheet is inline; the CSP allows exactly it by hash, and nothing else (no script at all). */
const STYLE_HASH = `'sha256-${crypto.createHash('sha256').update(STYLE).digest('base64')}'`;
export const CONTENT_SECURITY_POLICY = `default-src 'none'; style-src ${STYLE_HASH}; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;
/**
 * Pages showing rendered wiki content: its style attributes (filtered by the sanitizer) need
 * 'unsafe-inline' styles, which a hash would switch off; still no script, frames or foreign loads.
 */
export const WIKI_CONTENT_POLICY = `default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self'; media-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

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
${page.noindex ? new SafeHtml('<meta name="robots" content="noindex,nofollow">\n') : ''}<style>${new SafeHtml(STYLE)}</style>
</head>
<body>
<header id="mw-head">
<a id="p-logo" href="${articlePath('Main Page')}">${sitename}</a>
<form id="searchform" action="${SCRIPT_PATH}/index.php" role="search">
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
${page.footer ? html`<footer id="footer">${page.footer}</footer>` : ''}
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
