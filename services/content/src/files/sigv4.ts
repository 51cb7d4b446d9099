/*
 * AWS Signature Version 4 for S3-compatible object stores (AWS S3, MinIO, Ceph RGW, R2, GCS in
 * interoperability mode), with node:crypto only: the four requests the FileStore makes do not
 * justify an SDK of several megabytes. Checked against AWS's published test vectors.
 */
import crypto from 'node:crypto';

export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SigV4Request {
  method: string;
  url: URL;
  /** Header names in any case; `host` is taken from the URL when absent. */
  headers: Record<string, string>;
  /** Hex SHA-256 of the body, or "UNSIGNED-PAYLOAD". */
  payloadHash: string;
}

const hmac = (key: crypto.BinaryLike, data: string) => crypto.createHmac('sha256', key).update(data, 'utf8').digest();
export const sha256Hex = (data: crypto.BinaryLike) => crypto.createHash('sha256').update(data).digest('hex');

/** RFC 3986 encoding as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
function uriEncode(s: string, keepSlash: boolean): string {
  const e = encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return keepSlash ? e.replace(/%2F/g, '/') : e;
}

/** The canonical URI: S3 does not normalize paths, so each segment is encoded once as given. */
function canonicalPath(url: URL, service: string): string {
  const raw = url.pathname || '/';
  if (service === 's3')
    return raw
      .split('/')
      .map((seg) => uriEncode(decodeURIComponent(seg), false))
      .join('/');
  // Other services normalize the path (the test vectors are "service" requests).
  const segments: string[] = [];
  for (const seg of raw.split('/')) {
    if (seg === '..') segments.pop();
    else if (seg !== '.' && seg !== '') segments.push(seg);
  }
  const path = `/${segments.map((seg) => uriEncode(decodeURIComponent(seg), false)).join('/')}`;
  return raw.endsWith('/') && path !== '/' ? `${path}/` : path;
}

function canonicalQuery(url: URL): string {
  const pairs: [string, string][] = [];
  for (const part of url.search.replace(/^\?/, '').split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const k = decodeURIComponent((eq < 0 ? part : part.slice(0, eq)).replace(/\+/g, ' '));
    const v = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '));
    pairs.push([uriEncode(k, false), uriEncode(v, false)]);
  }
  pairs.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

/** 20150830T123600Z */
export function amzDate(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/**
 * Signs a request: returns the headers to send (the given ones plus x-amz-date, the security
 * token when there is one, and Authorization).
 */
export function signV4(req: SigV4Request, creds: SigV4Credentials, region: string, service: string, now: Date): Record<string, string> {
  const date = amzDate(now);
  const day = date.slice(0, 8);
  const headers: Record<string, string> = { ...req.headers };
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  if (!lower.has('host')) {
    headers.host = req.url.host;
    lower.set('host', req.url.host);
  }
  if (!lower.has('x-amz-date')) {
    headers['x-amz-date'] = date;
    lower.set('x-amz-date', date);
  }
  if (creds.sessionToken && !lower.has('x-amz-security-token')) {
    headers['x-amz-security-token'] = creds.sessionToken;
    lower.set('x-amz-security-token', creds.sessionToken);
  }
  const names = [...lower.keys()].sort();
  const canonicalHeaders = names.map((n) => `${n}:${lower.get(n)!.trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const canonicalRequest = [req.method, canonicalPath(req.url, service), canonicalQuery(req.url), canonicalHeaders, signedHeaders, req.payloadHash].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonicalRequest)].join('\n');
  const kDate = hmac(`AWS4${creds.secretAccessKey}`, day);
  const kSigning = hmac(hmac(hmac(kDate, region), service), 'aws4_request');
  const signature = crypto.createHmac('sha256', kSigning).update(stringToSign, 'utf8').digest('hex');
  headers.Authorization = `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
