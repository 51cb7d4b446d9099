/*
 * HTML of the special pages: a tagged template that escapes every interpolated value unless it is
 * already SafeHtml, so escaping is the default rather than something each page must remember; and
 * the page frame with its security headers (strict CSP, no framing, no caching).
 */
import crypto from 'node:crypto';
import type { Response } from 'express';
import { escapeHtml } from '../action/errors.js';
import type { Caller, GatewayDeps } from '../context.js';
import { specialPath } from './paths.js';

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
  values.forEach((v, i) => (out += render(v) + (strings[i + 1] ?? '')));
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
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#202122;background:#f8f9fa}
header{display:flex;justify-content:space-between;align-items:center;padding:.5em 1.5em;background:#fff;border-bottom:1px solid #c8ccd1}
header .site{font-weight:bold;font-size:1.2em}
header nav a{margin-left:1em}
main{max-width:52em;margin:1.5em auto;padding:1em 2em 2em;background:#fff;border:1px solid #c8ccd1;border-radius:2px}
h1{font-family:Georgia,"Linux Libertine",serif;font-weight:normal;border-bottom:1px solid #a2a9b1;margin:.2em 0 .8em}
a{color:#36c}
fieldset{border:1px solid #c8ccd1;border-radius:2px;margin:1em 0;padding:.5em 1em 1em}
legend{font-weight:bold;padding:0 .3em}
label.field{display:block;margin:.8em 0 .2em;font-weight:bold}
input[type=text],input[type=password]{box-sizing:border-box;width:100%;max-width:24em;padding:.4em .5em;border:1px solid #a2a9b1;border-radius:2px;font:inherit}
.grants{columns:2 18em;margin:.5em 0}
.grants label{display:block;break-inside:avoid;padding:.1em 0}
.grants code,td code{font-size:.85em;color:#54595d}
.help{color:#54595d;font-size:.9em}
.buttons{margin-top:1em;display:flex;gap:.5em;flex-wrap:wrap;align-items:center}
button{font:inherit;font-weight:bold;padding:.4em 1em;border:1px solid #a2a9b1;border-radius:2px;background:#f8f9fa;color:#202122;cursor:pointer}
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
`;

/** The stylesheet is inline; the CSP allows exactly it by hash, and nothing else (no script at all). */
const STYLE_HASH = `'sha256-${crypto.createHash('sha256').update(STYLE).digest('base64')}'`;
export const CONTENT_SECURITY_POLICY = `default-src 'none'; style-src ${STYLE_HASH}; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

export interface PageOptions {
  title: string;
  body: SafeHtml;
  status?: number;
  /** Origins the page's form may end up at besides this wiki (an OAuth consent redirects to the app). */
  formActionOrigins?: readonly string[];
}

function personalLinks(caller: Caller): SafeHtml {
  if (caller.user.anonymous) return html`<nav><a href="${specialPath('UserLogin')}">Log in</a></nav>`;
  return html`<nav><span>${caller.user.name}</span><a href="${specialPath('BotPasswords')}">Bot passwords</a><a href="${specialPath('UserLogout')}">Log out</a></nav>`;
}

/**
 * Sends a complete page. The headers keep it out of frames (clickjacking), out of caches (pages
 * carry tokens and freshly generated passwords) and away from every script and foreign resource.
 */
export function sendPage(res: Response, deps: GatewayDeps, caller: Caller, page: PageOptions): void {
  const doc = html`<!DOCTYPE html>
<html lang="${deps.config.lang}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title} - ${deps.config.sitename}</title>
<style>${new SafeHtml(STYLE)}</style>
</head>
<body>
<header><span class="site">${deps.config.sitename}</span>${personalLinks(caller)}</header>
<main>
<h1>${page.title}</h1>
${page.body}
</main>
</body>
</html>
`;
  res.status(page.status ?? 200);
  setSecurityHeaders(res);
  // Browsers apply form-action to the redirects that follow a submission too.
  if (page.formActionOrigins?.length) res.set('Content-Security-Policy', CONTENT_SECURITY_POLICY.replace("form-action 'self'", `form-action 'self' ${page.formActionOrigins.join(' ')}`));
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
