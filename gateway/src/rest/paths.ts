/*
 * Path templates and matching (MediaWiki's PathTemplateMatcher\PathMatcher): a template is split
 * on `/`; `{name}` matches exactly one whole segment (never a `/`), literals match the raw
 * (still percent-encoded) segment. Templates of one method that could match the same path are
 * refused (MediaWiki's PathConflict), so a match is unambiguous. Matched parameter values
 * are rawurldecoded afterwards, so `%2F` puts a slash in a title and `+` stays a plus.
 */
import { SCRIPT_PATH } from '../config.js';
import type { HttpMethod, RouteDecl } from './types.js';

/** Where the REST API is mounted (MediaWiki's $wgRestPath). */
export const REST_PATH = `${SCRIPT_PATH}/rest.php`;

type Segment = { literal: string } | { param: string };

interface CompiledRoute {
  route: RouteDecl;
  segments: Segment[];
}

export interface PathMatch {
  route: RouteDecl;
  /** Decoded path parameter values by name. */
  params: Record<string, string>;
}

function templateSegments(template: string): Segment[] {
  return template.split('/').map((part) => (/^\{[^{}/]+\}$/.test(part) ? { param: part.slice(1, -1) } : { literal: part }));
}

/** Names of the `{params}` of a path template, in order. */
export function templateParamNames(template: string): string[] {
  return templateSegments(template).flatMap((s) => ('param' in s ? [s.param] : []));
}

/** PHP rawurlencode: everything but A-Z a-z 0-9 - _ . ~ is percent-encoded. */
export function rawUrlEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * MediaWiki's Handler::urlEncodeTitle, the "pretty" form of a title in URLs the REST API builds
 * for a page (CreationHandler's Location): spaces as underscores, PHP urlencode, then
 * `; @ $ ! * ( ) , ~ :` left as they are. Slashes and pluses stay encoded.
 */
export function urlEncodeTitle(title: string): string {
  return encodeURIComponent(title.replace(/ /g, '_'))
    .replace(/'/g, '%27')
    .replace(/%(3B|40|24|2C|3A)/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** PHP rawurldecode: lenient (a stray `%` stays as is), `+` is not a space; bytes decoded as UTF-8. */
export function rawUrlDecode(value: string): string {
  if (!value.includes('%')) return value;
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const hex = value.slice(i + 1, i + 3);
    if (value[i] === '%' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(value[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Substitutes `{params}` of a template with rawurlencoded values (MediaWiki Router::substPathParams). */
export function substPathParams(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^{}/]+)\}/g, (whole, name: string) => (name in params ? rawUrlEncode(params[name] ?? '') : whole));
}

function segmentsConflict(a: Segment[], b: Segment[]): boolean {
  return (
    a.length === b.length &&
    a.every((s, i) => {
      const t = b[i];
      return t !== undefined && ('param' in s || 'param' in t || s.literal === t.literal);
    })
  );
}

/** The route table of one router, indexed by method. */
export class PathMatcher {
  private readonly byMethod = new Map<HttpMethod, CompiledRoute[]>();

  /** @throws Error when two routes of the same method could match the same path (as MediaWiki's PathConflict). */
  constructor(routes: readonly RouteDecl[]) {
    for (const route of routes) {
      const compiled = { route, segments: templateSegments(route.path) };
      const list = this.byMethod.get(route.method) ?? [];
      const clash = list.find((other) => segmentsConflict(other.segments, compiled.segments));
      if (clash) throw new Error(`REST route ${route.method} ${route.path} conflicts with ${clash.route.path}`);
      list.push(compiled);
      this.byMethod.set(route.method, list);
    }
  }

  match(method: HttpMethod, relPath: string): PathMatch | undefined {
    const parts = relPath.split('/');
    // Conflicting templates are refused in the constructor, so at most one route can match.
    const found = this.byMethod.get(method)?.find((c) => c.segments.length === parts.length && c.segments.every((s, i) => 'param' in s || s.literal === parts[i]));
    if (!found) return undefined;
    const params: Record<string, string> = {};
    found.segments.forEach((s, i) => {
      if ('param' in s) params[s.param] = rawUrlDecode(parts[i] ?? '');
    });
    return { route: found.route, params };
  }

  /** Methods that have a route for this path, in route-table order, HEAD first when GET is there (as MediaWiki). */
  allowedMethods(relPath: string): string[] {
    const allowed: string[] = [];
    for (const method of this.byMethod.keys()) if (this.match(method, relPath)) allowed.push(method);
    return allowed.includes('GET') ? ['HEAD', ...allowed] : allowed;
  }
}
