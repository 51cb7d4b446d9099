/*
 * End-to-end harness: the real wiki (scripts/stack.ts — three gRPC services and the gateway in
 * this process) on a fresh test environment, and an HTTP client for it with a cookie jar. Suites
 * run once per backend of testBackends(): embedded PGlite, and the real PostgreSQL/Redis when
 * DATABASE_URL/REDIS_URL are set.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GOLDEN_DIR, FIXTURES_DIR, makeTestEnv, type Backend, type TestEnv } from '@quire/kit/testing';
import { startStack, type Stack } from '../scripts/stack.js';

export { testBackends, type Backend } from '@quire/kit/testing';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SHAPE_COMPARE = path.join(FIXTURES_DIR, 'shape-compare.cjs');
export { GOLDEN_DIR };

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON; throws with the body in the message when it is not JSON. */
  json<T = any>(): T;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Send the cookie jar's cookies and store the ones set (default true). */
  cookies?: boolean;
}

/** A minimal cookie jar: name → value, as a browser would keep them for one host. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  store(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '' || value === 'deleted';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

/** An HTTP client bound to a base URL. */
export class WikiClient {
  readonly jar = new CookieJar();

  constructor(public baseUrl: string) {}

  async request(method: string, path: string, body?: RequestInit['body'], opts: RequestOptions = {}): Promise<HttpResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    const useCookies = opts.cookies ?? true;
    if (useCookies && this.jar.cookies.size > 0) headers.cookie = this.jar.header();
    const r = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    if (useCookies) this.jar.store(r.headers);
    const text = await r.text();
    return {
      status: r.status,
      headers: r.headers,
      text,
      json<T>() {
        try {
          return JSON.parse(text) as T;
        } catch {
          throw new Error(`${method} ${path}: response is not JSON (status ${r.status}): ${text.slice(0, 500)}`);
        }
      },
    };
  }

  get(path: string, opts?: RequestOptions): Promise<HttpResponse> {
    return this.request('GET', path, undefined, opts);
  }

  /** POST application/x-www-form-urlencoded. */
  post(path: string, form: Record<string, string>, opts: RequestOptions = {}): Promise<HttpResponse> {
    return this.request('POST', path, new URLSearchParams(form).toString(), {
      ...opts,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...opts.headers },
    });
  }

  /** POST multipart/form-data (fetch sets the boundary). */
  postMultipart(path: string, fields: Record<string, string | Blob>, opts?: RequestOptions): Promise<HttpResponse> {
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    return this.request('POST', path, fd, opts);
  }

  /** GET /w/api.php with the given parameters (format=json unless given). */
  api(params: Record<string, string>, opts?: RequestOptions): Promise<HttpResponse> {
    return this.get(`/w/api.php?${new URLSearchParams({ format: 'json', ...params })}`, opts);
  }

  /** GET /w/rest.php + path. */
  rest(path: string, opts?: RequestOptions): Promise<HttpResponse> {
    return this.get(`/w/rest.php${path}`, opts);
  }
}

export interface TestWiki extends WikiClient {
  backend: Backend;
  testEnv: TestEnv;
  stack: Stack;
  /** Stops the stack and starts it again on the same data (DATA_DIR / database). */
  restart(): Promise<void>;
  /** Stops the stack and removes the test environment. */
  close(): Promise<void>;
}

/**
 * Starts the whole wiki on a fresh environment of `backend` (PORT=0: the gateway picks a free
 * port). `extraEnv` adds configuration, e.g. GROUP_PERMISSIONS_JSON.
 */
export async function startWiki(backend: Backend, extraEnv: NodeJS.ProcessEnv = {}): Promise<TestWiki> {
  const testEnv = await makeTestEnv(backend, { PORT: '0', HOST: '127.0.0.1', ...extraEnv });
  let stack: Stack;
  try {
    stack = await startStack(testEnv.env);
  } catch (e) {
    await testEnv.cleanup();
    throw e;
  }
  const client = new WikiClient(stack.url);
  const wiki = Object.assign(client, {
    backend,
    testEnv,
    stack,
    async restart() {
      await wiki.stack.stop();
      wiki.stack = await startStack(testEnv.env);
      wiki.baseUrl = wiki.stack.url;
    },
    async close() {
      try {
        await wiki.stack.stop();
      } finally {
        await testEnv.cleanup();
      }
    },
  });
  return wiki;
}

/** Runs shape-compare.js against a golden sample; resolves with its exit code and output. */
export function shapeCompareSample(sampleFile: string, url: string, ignore: readonly string[] = []): Promise<{ code: number; output: string }> {
  const args = [SHAPE_COMPARE, ...(ignore.length ? ['--ignore', ignore.join(',')] : []), '--sample', sampleFile, url];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

/** A raw HTTP response file of the golden set: status, headers (lower-case names) and body. */
export interface GoldenSample {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export async function readGolden(name: string): Promise<GoldenSample> {
  const fs = await import('node:fs/promises');
  const raw = await fs.readFile(path.join(GOLDEN_DIR, name), 'utf8');
  const sep = raw.includes('\r\n\r\n') ? '\r\n\r\n' : '\n\n';
  const cut = raw.indexOf(sep);
  const head = raw.slice(0, cut).split(/\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return { status: Number(head[0]?.split(' ')[1]), headers, body: raw.slice(cut + sep.length) };
}

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function shapeMap(v: unknown, at: string, out: Map<string, string>, ignore: ReadonlySet<string>): Map<string, string> {
  const t = typeOf(v);
  out.set(at || '$', t);
  if (t === 'object') {
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (ignore.has(k)) continue;
      // Numeric keys (formatversion 1 objects keyed by page id) fold into one, as shape-compare.js does.
      shapeMap(x, `${at}.${/^-?\d+$/.test(k) ? '<id>' : k}`, out, ignore);
    }
  } else if (t === 'array') {
    for (const x of v as unknown[]) shapeMap(x, `${at}[]`, out, ignore);
  }
  return out;
}

/**
 * The differences in shape between a golden sample and a live response — status, content type,
 * and every key path with its value type — by the rules of conformance/golden/shape-compare.cjs, for
 * requests that tool cannot make (POST bodies, cookies). Empty when the shapes agree.
 */
export function shapeProblems(golden: GoldenSample, ours: HttpResponse, ignore: readonly string[] = []): string[] {
  const problems: string[] = [];
  if (golden.status !== ours.status) problems.push(`status: ${golden.status} vs ${ours.status}`);
  const ct = (v: string | null | undefined) => (v ?? '').split(';')[0]!.trim();
  if (ct(golden.headers['content-type']) !== ct(ours.headers.get('content-type'))) {
    problems.push(`content-type: ${ct(golden.headers['content-type'])} vs ${ct(ours.headers.get('content-type'))}`);
  }
  const parse = (s: string) => {
    try {
      return { ok: true as const, v: JSON.parse(s) as unknown };
    } catch {
      return { ok: false as const };
    }
  };
  const a = parse(golden.body);
  const b = parse(ours.text);
  if (!a.ok || !b.ok) {
    if (a.ok !== b.ok) problems.push(`body: ${a.ok ? 'JSON' : 'not JSON'} vs ${b.ok ? 'JSON' : 'not JSON'}`);
    return problems;
  }
  const skip = new Set(ignore);
  const sa = shapeMap(a.v, '', new Map(), skip);
  const sb = shapeMap(b.v, '', new Map(), skip);
  for (const [p, t] of sa) {
    if (!sb.has(p)) problems.push(`missing: ${p} (${t})`);
    else if (sb.get(p) !== t) problems.push(`type differs at ${p}: ${t} vs ${sb.get(p)}`);
  }
  for (const [p, t] of sb) if (!sa.has(p)) problems.push(`extra: ${p} (${t})`);
  return problems;
}
