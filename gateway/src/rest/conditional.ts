/*
 * Conditional requests (MediaWiki's ConditionalHeaderUtil, RFC 7232): If-Match and
 * If-Unmodified-Since fail with 412; If-None-Match and If-Modified-Since answer 304 to GET/HEAD
 * (If-None-Match matching a write is a 412).
 */
import type { Validators } from './types.js';

interface EntityTag {
  weak: boolean;
  contents: string;
}

/** Entity tags of an If-Match / If-None-Match header; `*` is returned as the string "*". */
function parseEtagList(header: string): (EntityTag | '*')[] {
  const tags: (EntityTag | '*')[] = [];
  for (const m of header.matchAll(/(W\/)?"([^"]*)"|\*/g)) {
    tags.push(m[0] === '*' ? '*' : { weak: m[1] !== undefined, contents: m[2] ?? '' });
  }
  return tags;
}

function parseEtag(etag: string): EntityTag {
  const tag = parseEtagList(etag)[0];
  if (!tag || tag === '*') throw new Error(`Invalid ETag returned by a route: ${etag}`);
  return tag;
}

/** An HTTP date (RFC 1123, RFC 850 or asctime) in whole seconds, or undefined when unparseable. */
function parseHttpDate(value: string): number | undefined {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

export function formatHttpDate(date: Date): string {
  return date.toUTCString();
}

export interface ConditionalHeaders {
  ifMatch?: string;
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  ifUnmodifiedSince?: string;
}

/** 304 or 412 when the conditional headers say so, else undefined (proceed). */
export function checkPreconditions(method: string, headers: ConditionalHeaders, validators: Validators): 304 | 412 | undefined {
  const resourceTag = validators.etag !== undefined ? parseEtag(validators.etag) : undefined;
  const lastModified = validators.lastModified ? Math.floor(validators.lastModified.getTime() / 1000) : undefined;
  const hasRepresentation = validators.hasRepresentation ?? resourceTag !== undefined;
  const getOrHead = method === 'GET' || method === 'HEAD';

  if (headers.ifMatch !== undefined) {
    // Strong comparison; a weak tag in the request still matches (MediaWiki's Varnish hack).
    const match = parseEtagList(headers.ifMatch).some((tag) => (tag === '*' ? hasRepresentation : resourceTag !== undefined && !resourceTag.weak && resourceTag.contents === tag.contents));
    if (!match) return 412;
  } else if (headers.ifUnmodifiedSince !== undefined) {
    const date = parseHttpDate(headers.ifUnmodifiedSince);
    if (date !== undefined && (lastModified === undefined || lastModified > date)) return 412;
  }

  if (headers.ifNoneMatch !== undefined) {
    // Weak comparison. `*` matches any existing resource as RFC 7232 says (MediaWiki never
    // matches it), so `If-None-Match: *` on a write means "only if it does not exist yet".
    const match = parseEtagList(headers.ifNoneMatch).some((tag) => (tag === '*' ? hasRepresentation : resourceTag !== undefined && resourceTag.contents === tag.contents));
    if (match) return getOrHead ? 304 : 412;
  } else if (getOrHead && headers.ifModifiedSince !== undefined) {
    const date = parseHttpDate(headers.ifModifiedSince);
    if (date !== undefined && lastModified !== undefined && lastModified <= date) return 304;
  }
  return undefined;
}
