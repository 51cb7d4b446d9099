/*
 * Reading an action API request as PHP does: query string and POST body (urlencoded or
 * multipart/form-data) merged with POST values taking precedence; `name[]` keys are PHP arrays,
 * which the API refuses (apiwarn-unsupportedarray).
 */
import type { Request } from 'express';
import busboy from 'busboy';
import { canonicalMultipart, multipartBoundary } from '../multipart.js';

export interface UploadedFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface ApiRequest {
  method: 'GET' | 'POST';
  /** Query-string pairs in order (the jsonfm link uses them). */
  query: [string, string][];
  /**
   * Names that came in the query string (PHP's $_GET keys; `name[]` counts as `name`), whether
   * or not the body also has them: parameters that must be posted are checked against it.
   */
  queryNames: ReadonlySet<string>;
  /** Merged values by name. */
  values: Map<string, string>;
  /** Names that came as PHP array syntax (`name[]=…`). */
  arrays: Set<string>;
  files: Map<string, UploadedFile>;
  /** Pairs of an application/x-www-form-urlencoded body, in order (an OAuth 1.0a signature covers them). */
  form: [string, string][];
  /** A POST body that is neither form nor multipart (action=cspreport reads its JSON), with its content type. */
  otherBody?: { contentType: string; data: Buffer };
  /** Request headers, lower-case names (WebRequest::getHeader: Accept-Language, User-Agent…). */
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** A POST without Content-Type (MediaWiki warns about it). */
  postWithoutContentType: boolean;
}

/** Largest body read (MediaWiki's default post_max_size is in this range). */
const MAX_BODY_BYTES = 100 * 1024 * 1024;

export function parseQueryString(qs: string): [string, string][] {
  const out: [string, string][] = [];
  for (const part of qs.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const [k, v] = eq < 0 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
    out.push([decodeComponent(k), decodeComponent(v)]);
  }
  return out;
}

function decodeComponent(s: string): string {
  const plus = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(plus);
  } catch {
    // PHP decodes what it can and keeps malformed escapes verbatim.
    return plus.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
}

/** The PHP variable a request key sets: `name[…]` sets `name`. */
function baseName(name: string): string {
  const bracket = name.indexOf('[');
  return bracket > 0 && name.includes(']', bracket) ? name.slice(0, bracket) : name;
}

function addValue(values: Map<string, string>, arrays: Set<string>, name: string, value: string): void {
  const base = baseName(name);
  if (base !== name) {
    arrays.add(base);
    values.delete(base);
    return;
  }
  arrays.delete(name);
  values.set(name, value);
}

function readBody(req: Request): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Reads a multipart/form-data body. Like PHP, a body it cannot parse (no boundary, a malformed
 * part, cut short) yields the values read before the problem rather than an error; and like PHP
 * it reads the forms real libraries write (LF line ends, a quoted boundary, a preamble:
 * canonicalMultipart).
 */
async function readMultipart(req: Request, values: Map<string, string>, arrays: Set<string>, files: Map<string, UploadedFile>): Promise<void> {
  const contentType = String(req.headers['content-type'] ?? '');
  const boundary = multipartBoundary(contentType);
  const body = await readBody(req);
  if (!boundary) return;
  const canonical = canonicalMultipart(body, boundary);
  await new Promise<void>((resolve) => {
    let bb: busboy.Busboy;
    try {
      // The boundary as parsed here, plainly: busboy's own reading of a quoted one is stricter.
      bb = busboy({ headers: { 'content-type': `multipart/form-data; boundary="${boundary.replace(/["\\]/g, '\\$&')}"` }, limits: { fileSize: MAX_BODY_BYTES } });
    } catch {
      resolve();
      return;
    }
    // A part without a name (no or malformed Content-Disposition) sets nothing, as in PHP.
    bb.on('field', (name: string | undefined, value) => {
      if (name !== undefined) addValue(values, arrays, name, value);
    });
    bb.on('file', (name: string | undefined, stream, info) => {
      if (name === undefined) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        // A file part without a filename is an ordinary value in PHP.
        if (info.filename === undefined) addValue(values, arrays, name, Buffer.concat(chunks).toString('utf8'));
        else files.set(name, { filename: info.filename, contentType: info.mimeType, data: Buffer.concat(chunks) });
      });
    });
    bb.on('close', () => resolve());
    bb.on('error', () => resolve());
    bb.end(canonical);
  });
}

export async function readApiRequest(req: Request): Promise<ApiRequest> {
  const url = req.originalUrl ?? req.url;
  const q = url.indexOf('?');
  const query = q < 0 ? [] : parseQueryString(url.slice(q + 1));
  const values = new Map<string, string>();
  const arrays = new Set<string>();
  const files = new Map<string, UploadedFile>();
  let form: [string, string][] = [];
  let otherBody: ApiRequest['otherBody'];
  for (const [k, v] of query) addValue(values, arrays, k, v);
  const method = req.method === 'POST' ? 'POST' : 'GET';
  const contentType = (req.headers['content-type'] ?? '').toLowerCase();
  if (method === 'POST') {
    if (contentType.startsWith('multipart/form-data')) {
      await readMultipart(req, values, arrays, files);
    } else {
      const body = await readBody(req);
      if (contentType === '' || contentType.startsWith('application/x-www-form-urlencoded')) {
        form = parseQueryString(body.toString('utf8'));
        for (const [k, v] of form) addValue(values, arrays, k, v);
      } else {
        otherBody = { contentType, data: body };
      }
    }
  }
  const queryNames = new Set(query.map(([k]) => baseName(k)));
  return { method, query, queryNames, values, arrays, files, form, otherBody, headers: req.headers, postWithoutContentType: method === 'POST' && contentType === '' };
}
