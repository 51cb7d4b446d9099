/*
 * What every HTML document the gateway sends goes through (REST /html and transform routes, the
 * action API's HTML formats and help, the special pages): the final URL/handler pass of kit's
 * html-safety, and headers that keep a browser from running anything the HTML might still smuggle
 * in — a Content-Security-Policy without any script, and no MIME sniffing.
 */
import type { RequestHandler, Response } from 'express';
import { removeUnsafeAttributes } from '@quire/kit/html-safety';

/**
 * The policy of wiki content documents: no script at all (nothing served here needs one), no
 * plugins or frames; styles, images and media only from this origin (Parsoid documents link
 * /w/load.php and files under /w/images), inline style attributes allowed because rendered
 * wikitext uses them (already filtered by Sanitizer::checkCss). `<base>` may name the wiki's
 * configured server, which Parsoid documents do.
 */
export function contentSecurityPolicy(server: string): string {
  let serverOrigin = '';
  try {
    serverOrigin = ` ${new URL(server).origin}`;
  } catch {
    serverOrigin = '';
  }
  return [
    "default-src 'self'",
    "script-src 'none'",
    "object-src 'none'",
    "frame-src 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self'",
    `base-uri 'self'${serverOrigin}`,
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

export function isHtmlContentType(contentType: string): boolean {
  return /^\s*text\/html\s*(?:;|$)/i.test(contentType);
}

type EndArgs = [chunk?: unknown, encoding?: unknown, callback?: unknown];

/**
 * Middleware for the paths that answer HTML documents: whatever handler answers, an HTML body
 * leaves through `removeUnsafeAttributes` and with `nosniff` and a Content-Security-Policy (the
 * content policy above unless the handler set a stricter one, as the special pages do). It hooks
 * `res.end`, where every body (`res.send`, `res.end`) passes, as compression middleware does.
 */
export function htmlDocumentSafety(server: () => string): RequestHandler {
  return (_req, res, next) => {
    const policy = contentSecurityPolicy(server());
    const end = res.end.bind(res) as (...args: EndArgs) => Response;
    res.end = ((...args: EndArgs) => {
      if (!res.headersSent && isHtmlContentType(String(res.getHeader('Content-Type') ?? ''))) {
        if (res.getHeader('Content-Security-Policy') === undefined) res.setHeader('Content-Security-Policy', policy);
        res.setHeader('X-Content-Type-Options', 'nosniff');
        const [chunk] = args;
        const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : undefined;
        const safe = text === undefined ? undefined : removeUnsafeAttributes(text);
        if (safe !== undefined && safe !== text) {
          if (res.getHeader('Content-Length') !== undefined) res.setHeader('Content-Length', Buffer.byteLength(safe));
          args[0] = safe;
          if (typeof args[1] === 'string') args[1] = 'utf8';
        }
      }
      return end(...args);
    }) as Response['end'];
    next();
  };
}
