/*
 * The gateway's cache of whole read responses: a repeated anonymous read of a page
 * (REST page/bare, action=query prop=revisions, meta=siteinfo) is answered from memory with no
 * gRPC call. Correctness first:
 * - Any write through this gateway (a request that is not GET/HEAD) empties the cache when it
 *   starts and again when it has answered, so the next read of the same client sees the edit.
 * - Writes through other gateways (and the services' own) arrive through content's change feed
 *   (ChangeFeedFollower): every page change empties the cache. While the feed is not followed,
 *   nothing is cached.
 * - A read that began before an invalidation does not store its answer (a generation counter),
 *   so an answer computed from the data before a change never outlives the change.
 * Only callers without any credentials (no Cookie, no Authorization) and without an Origin
 * (CORS headers follow it) share entries; the keys are the exact request URLs.
 */
import { currentRequestServer } from '../request-server.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import type { ClientReadableStream } from '@grpc/grpc-js';
import type { PageChange } from '../clients/types.js';
import { gauge, type Logger } from '@quire/kit';
import { checkPreconditions } from '../rest/conditional.js';
import { labelRequest, requestEndpoint, responseCacheLookups } from '../observability.js';

export interface CachedResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
  expiresAt: number;
  /** The endpoint (action module, REST route) that made the answer: its replays count under it. */
  endpoint?: string;
}

/** Whether (and how long from now) a request's answer may be kept; undefined: never. */
export type Cacheability = (req: Request) => { ttlMs: number } | undefined;

/** Per-request headers that a replay must not repeat (they are set again for each answer). */
const PER_RESPONSE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'x-quire-grpc-calls', 'x-request-id']);

export class ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  private bytes = 0;
  private generation = 0;
  /** False while page changes cannot be heard of (the feed is not followed): nothing is stored. */
  enabled = false;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string, now = Date.now()): CachedResponse | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.expiresAt <= now) {
      this.bytes -= e.body.length;
      return undefined;
    }
    this.entries.set(key, e); // most recently used last
    return e;
  }

  /** The token a read takes before it starts; `put` refuses it after an invalidation. */
  begin(): number {
    return this.generation;
  }

  put(key: string, since: number, entry: CachedResponse): void {
    if (!this.enabled || since !== this.generation || entry.body.length > this.maxBytes / 16) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.body.length;
    }
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.body.length;
    }
  }

  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.bytes = 0;
  }
}

/** Requests that may change what a read answers (everything but GET and HEAD) empty `caches`. */
export function invalidateOnWrite(...caches: { invalidate(): void }[]): RequestHandler {
  const invalidate = () => {
    for (const c of caches) c.invalidate();
  };
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      invalidate();
      // Again as it answers (before the client can send its next read): a read that ran meanwhile
      // may have stored the data from before the write.
      const end = res.end;
      res.end = function (this: Response, ...args: unknown[]) {
        invalidate();
        return (end as (...a: unknown[]) => Response).apply(this, args);
      } as typeof res.end;
      res.once('close', invalidate);
    }
    next();
  };
}

function anonymousWithoutOrigin(req: Request): boolean {
  return req.method === 'GET' && !req.headers.cookie && !req.headers.authorization && !req.headers.origin && !req.headers['treat-as-untrusted'];
}

const PAGE_TTL_MS = 60_000; // a bound for whatever a page change does not announce

/** Parameters of the action API reads kept, with the values allowed (undefined: any value). */
const ACTION_READ_PARAMS: Record<string, ((v: string) => boolean) | undefined> = {
  action: (v) => v === 'query',
  format: (v) => v === 'json' || v === 'xml' || v === 'php',
  formatversion: undefined,
  utf8: undefined,
  ascii: undefined,
  uselang: undefined,
  errorformat: undefined,
  errorlang: undefined,
  // Titles in the main namespace only: reading one's own user talk page changes state (newtalk).
  titles: (v) => !v.includes(':'),
  // Not prop=info: its `touched` also moves with deferred updates (other pages' templates) that no change announces.
  prop: (v) => v === 'revisions',
  // Not redirects: a redirect may lead to one's own user talk page.
  converttitles: undefined,
  indexpageids: undefined,
  rvprop: undefined,
  rvslots: undefined,
  meta: (v) => v === 'siteinfo',
  siprop: undefined,
  sifilteriw: undefined,
  sishowalldb: undefined,
  sinumberingroup: undefined,
  siinlanguagecode: undefined,
};

/** action=query with titles and prop=revisions (latest revision) and/or meta=siteinfo, anonymous. */
export const actionReadCacheability: Cacheability = (req) => {
  if (!anonymousWithoutOrigin(req)) return undefined;
  const at = req.originalUrl.indexOf('?');
  if (at < 0) return undefined;
  const params = new URLSearchParams(req.originalUrl.slice(at + 1));
  const seen = new Set<string>();
  for (const [k, v] of params) {
    const allowed = ACTION_READ_PARAMS[k];
    if (!(k in ACTION_READ_PARAMS) || seen.has(k) || (allowed && !allowed(v))) return undefined;
    seen.add(k);
  }
  if (!seen.has('action') || (!seen.has('meta') && !(seen.has('prop') && seen.has('titles')))) return undefined;
  // siteinfo's `time` is to the second: kept until the second the request began in is over.
  return { ttlMs: seen.has('meta') ? 1000 - (Date.now() % 1000) : PAGE_TTL_MS };
};

/** GET /v1/page/{title} and /v1/page/{title}/bare of a main-namespace title, anonymous, without a query. */
export const restPageCacheability: Cacheability = (req) => {
  if (!anonymousWithoutOrigin(req) || req.headers['if-match'] || req.headers['if-unmodified-since']) return undefined;
  const m = /^\/v1\/page\/([^/?]+)(\/bare)?$/.exec(req.url);
  if (!m) return undefined;
  let title: string;
  try {
    title = decodeURIComponent(m[1]!);
  } catch {
    return undefined;
  }
  return title.includes(':') ? undefined : { ttlMs: PAGE_TTL_MS };
};

function headerOf(headers: CachedResponse['headers'], name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return Array.isArray(v) ? v.join(', ') : v;
  return undefined;
}

function replay(req: IncomingMessage, res: ServerResponse, hit: CachedResponse): void {
  const etag = headerOf(hit.headers, 'etag');
  const lastModified = headerOf(hit.headers, 'last-modified');
  const conditional = { ifNoneMatch: req.headers['if-none-match'], ifModifiedSince: req.headers['if-modified-since'] };
  const notModified = (etag !== undefined || lastModified !== undefined) && checkPreconditions('GET', conditional, { etag, lastModified: lastModified ? new Date(lastModified) : undefined }) === 304;
  for (const [k, v] of Object.entries(hit.headers)) {
    if ((notModified && /^content-(type|length)$/i.test(k)) || PER_RESPONSE_HEADERS.has(k.toLowerCase())) continue;
    res.setHeader(k, v);
  }
  // Each answer names its own request: X-Request-Id was set for this one (observeRequests).
  responseCacheLookups.inc({ result: 'hit' });
  if (hit.endpoint) labelRequest(res, hit.endpoint);
  res.statusCode = notModified ? 304 : hit.status;
  res.end(notModified ? undefined : hit.body);
}

/** An answer's key: its URL, and the wiki's URL when that follows the request (answers name it in their links). */
function cacheKey(url: string): string {
  return `${currentRequestServer() ?? ''}${url}`;
}

/**
 * In front of the whole app (server.ts): a GET that only an anonymous caller without an Origin
 * could make, whose URL is in the cache, is answered without express. Entries were stored by
 * `cachedReads`, behind the same rules; everything else goes on to `app`.
 */
export function answerFromCache(cache: ResponseCache, app: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const h = req.headers;
    const plain = req.method === 'GET' && !h.cookie && !h.authorization && !h.origin && !h['treat-as-untrusted'] && !h['if-match'] && !h['if-unmodified-since'] && !h['x-quire-count-grpc-calls'];
    const hit = plain && req.url ? cache.get(cacheKey(req.url)) : undefined;
    if (hit) replay(req, res, hit);
    else app(req, res);
  };
}

/** Answers cacheable requests from `cache`, and keeps the 200 answers of the others that are cacheable. */
export function cachedReads(cache: ResponseCache, cacheability: Cacheability): RequestHandler {
  return (req, res, next) => {
    const rule = cacheability(req);
    if (!rule) return next();
    const key = cacheKey(req.originalUrl);
    const hit = cache.get(key);
    if (hit) return replay(req, res, hit);
    responseCacheLookups.inc({ result: 'miss' });
    const since = cache.begin();
    const expiresAt = Date.now() + rule.ttlMs; // from when the answer began to be made
    const chunks: Buffer[] = [];
    const write = res.write;
    const end = res.end;
    const keep = (chunk: unknown, encoding: unknown) => {
      if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') {
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
      }
    };
    res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof res.write;
    res.end = function (this: Response, chunk?: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (end as (...a: unknown[]) => Response).call(this, chunk, ...rest);
    } as typeof res.end;
    res.once('finish', () => {
      // Errors (the action API's travel with status 200), new sessions and partial answers are not kept.
      if (res.statusCode !== 200 || res.getHeader('mediawiki-api-error') !== undefined || res.getHeader('set-cookie') !== undefined) return;
      const headers: Record<string, string | string[]> = {};
      // Names as the handler spelled them (Node ≥ 15.13; @types/node lacks it).
      for (const name of (res as unknown as { getRawHeaderNames(): string[] }).getRawHeaderNames()) {
        const v = res.getHeader(name);
        if (v !== undefined && !PER_RESPONSE_HEADERS.has(name.toLowerCase())) headers[name] = typeof v === 'number' ? String(v) : v;
      }
      const body = Buffer.concat(chunks);
      if (headers['content-length'] !== undefined && Number(headers['content-length']) !== body.length) return;
      cache.put(key, since, { status: 200, headers, body, expiresAt, endpoint: requestEndpoint(res) });
    });
    next();
  };
}

const feedLag = gauge('quire_change_feed_lag_seconds', "Age of the oldest change a consumer of content's change feed has not applied yet", ['consumer']);
const feedConnected = gauge('quire_change_feed_connected', 'Whether a consumer follows the change feed now (1) or is retrying (0)', ['consumer']);
const CONSUMER = { consumer: 'gateway-read-cache' };

export interface ChangeFeedSource {
  changeFeedHead(): Promise<number>;
  streamChanges(fromPosition: number, maxWaitMs: number): ClientReadableStream<PageChange>;
}

/**
 * Follows content's change feed from its head and empties the cache at every page change. The
 * cache is enabled only while the stream is open; after a failure it is emptied and the
 * follower tries again every second.
 */
export class ChangeFeedFollower {
  private stopped = false;
  private stream: ClientReadableStream<PageChange> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private failing = false;

  constructor(
    private readonly source: ChangeFeedSource,
    private readonly cache: ResponseCache,
    private readonly log: Logger,
    private readonly retryMs = 1000,
  ) {}

  start(): this {
    void this.follow(undefined);
    return this;
  }

  stop(): void {
    this.stopped = true;
    feedConnected.set(CONSUMER, 0);
    this.cache.enabled = false;
    this.cache.invalidate();
    clearTimeout(this.retry);
    this.stream?.cancel();
  }

  private async follow(from: number | undefined): Promise<void> {
    if (this.stopped) return;
    let position: number;
    try {
      position = from ?? (await this.source.changeFeedHead());
    } catch (err) {
      return this.failed(err);
    }
    if (this.stopped) return;
    const stream = this.source.streamChanges(position, 30_000);
    this.stream = stream;
    this.cache.enabled = true;
    this.failing = false;
    feedConnected.set(CONSUMER, 1);
    feedLag.set(CONSUMER, 0);
    stream.on('data', (c: PageChange) => {
      position = Math.max(position, c.position);
      this.cache.invalidate();
      // Applied on arrival: the lag is how long the change took to arrive.
      const at = Date.parse(c.changedAt);
      if (!Number.isNaN(at)) feedLag.set(CONSUMER, Math.max(0, (Date.now() - at) / 1000));
    });
    // grpc-js ends a failed stream AND emits its error: only the first of the two goes on, or
    // every failure would start a second follower (their number doubling at each retry).
    let over = false;
    stream.on('end', () => {
      if (over) return;
      over = true;
      void this.follow(position);
    });
    stream.on('error', (err: Error & { code?: number }) => {
      if (over) return;
      over = true;
      if (!this.stopped) this.failed(err);
    });
  }

  private failed(err: unknown): void {
    feedConnected.set(CONSUMER, 0);
    this.cache.enabled = false;
    this.cache.invalidate();
    if (this.stopped) return;
    // Once per outage, not at every retry.
    if (!this.failing) this.log.warn({ err }, 'change feed unavailable: read responses are not cached until it is back');
    this.failing = true;
    this.retry = setTimeout(() => void this.follow(undefined), this.retryMs);
    this.retry.unref();
  }
}
