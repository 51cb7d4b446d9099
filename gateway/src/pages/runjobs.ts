/*
 * Special:RunJobs (MediaWiki's SpecialRunJobs): the asynchronous job runner's HTTP entry point.
 * A POST signed with the wiki's secret key runs up to `maxjobs` pending jobs through the content
 * service's RunJobs RPC. The signature is MediaWiki's: HMAC-SHA1 over the ksort-ed parameters
 * (without `signature`) in wfArrayToCgi form, so tools that drive MediaWiki's runner keep working.
 * Errors are wfHttpError's bare pages, not the wiki's frame.
 */
import crypto from 'node:crypto';
import type { Response } from 'express';
import { escapeHtml } from '../action/errors.js';
import { ARTICLE_PATH } from '../config.js';
import type { PageHandler, PageRequest } from './request.js';

const REQUIRED = ['title', 'tasks', 'signature', 'sigexpiry'] as const;
const OPTIONAL = ['maxjobs', 'maxtime', 'type', 'async', 'stats'] as const;
/** $wgJobClasses of this wiki: the only job type the content service runs. */
const JOB_TYPES = new Set(['refreshLinks']);

/** PHP's urlencode: everything but [A-Za-z0-9_.-] percent-encoded, spaces as "+". */
export function phpUrlencode(s: string): string {
  return encodeURIComponent(s)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** SpecialRunJobs::getQuerySignature: ksort, wfArrayToCgi, hash_hmac('sha1', …, $wgSecretKey). */
export function runJobsSignature(query: Record<string, string>, secretKey: string): string {
  const cgi = Object.keys(query)
    .sort()
    .map((k) => `${phpUrlencode(k)}=${phpUrlencode(query[k]!)}`)
    .join('&');
  return crypto.createHmac('sha1', secretKey).update(cgi).digest('hex');
}

/** wfHttpError: a bare HTML page with the status and its reason. */
function httpError(res: Response, status: number, reason: string, message: string): void {
  res.status(status);
  res.set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'private, must-revalidate, max-age=0', 'X-Content-Type-Options': 'nosniff' });
  res.send(`<!DOCTYPE html><html><head><title>${escapeHtml(reason)}</title></head><body><h1>${escapeHtml(reason)}</h1><p>${escapeHtml(message)}</p></body></html>`);
}

/** PHP truthiness of a request value ("" and "0" are false). */
const truthy = (v: string | undefined) => v !== undefined && v !== '' && v !== '0';

/** The request's values as WebRequest::getValues(): posted fields over the query string; the title of a /wiki/ path. */
function requestValues(p: PageRequest): Record<string, string> {
  const out: Record<string, string> = {};
  const articlePrefix = ARTICLE_PATH.replace('$1', '');
  // The special page router has decoded this path already, so it is valid percent-encoding.
  if (p.req.path.startsWith(articlePrefix)) out.title = decodeURIComponent(p.req.path.slice(articlePrefix.length));
  for (const source of [p.req.query, p.req.body] as unknown[]) {
    if (!source || typeof source !== 'object') continue;
    for (const [k, v] of Object.entries(source as Record<string, unknown>)) {
      const value = Array.isArray(v) ? v.at(-1) : v;
      if (typeof value === 'string') out[k] = value;
    }
  }
  return out;
}

export const runJobsPage: PageHandler = async (p) => {
  const { res } = p;
  if (p.method !== 'POST') return httpError(res, 400, 'Bad Request', 'Request must be POSTed.');
  const values = requestValues(p);
  const params: Record<string, string> = {};
  for (const k of [...REQUIRED, ...OPTIONAL]) if (values[k] !== undefined) params[k] = values[k];
  const missing = REQUIRED.filter((k) => params[k] === undefined);
  if (missing.length > 0) return httpError(res, 400, 'Bad Request', `Missing parameters: ${missing.join(', ')}`);

  const { signature, ...signed } = params;
  const correct = runJobsSignature(signed, p.deps.config.secretKey);
  const provided = Buffer.from(signature ?? '');
  const verified = p.deps.config.secretKey !== '' && provided.length === correct.length && crypto.timingSafeEqual(provided, Buffer.from(correct));
  const expiry = Number(params.sigexpiry);
  if (!verified || !Number.isFinite(expiry) || expiry < Math.floor(Date.now() / 1000)) {
    return httpError(res, 400, 'Bad Request', 'Invalid or stale signature provided.');
  }

  const maxJobs = Math.max(0, parseInt(params.maxjobs ?? '0', 10) || 0) || 1;
  const maxTimeSeconds = Math.max(0, parseInt(params.maxtime ?? '30', 10) || 0) || 30;
  const run = async () => {
    // JobRunner::run: an unknown job type runs nothing.
    if (params.type !== undefined && !JOB_TYPES.has(params.type)) return { jobs: [], reached: 'none-possible', backoffs: [], elapsed: 0 };
    const r = await p.deps.clients.content.runJobs({ maxJobs, maxTimeMs: maxTimeSeconds * 1000 });
    const jobs = r.jobs.map((j) => ({ type: j.type, status: j.status, error: j.status === 'ok' ? null : j.error, time: Number(j.timeMs) }));
    return { jobs, reached: r.reached, backoffs: [], elapsed: jobs.reduce((n, j) => n + j.time, 0) };
  };

  res.set({ 'Cache-Control': 'private, must-revalidate, max-age=0', 'X-Content-Type-Options': 'nosniff' });
  if (params.async === undefined || truthy(params.async)) {
    // 202 Accepted, then the jobs: clients disconnect without waiting (MediaWiki's POSTSEND update).
    res.on('finish', () => {
      run().catch((e: unknown) => p.deps.log.error({ err: e }, 'Special:RunJobs: running jobs failed'));
    });
    res.status(202).set('Content-Type', 'text/html; charset=utf-8').end();
    return;
  }
  const stats = await run();
  if (truthy(params.stats)) {
    res.status(200).json(stats);
  } else {
    res.status(200).set('Content-Type', 'text/html; charset=utf-8').send('Done\n');
  }
};
