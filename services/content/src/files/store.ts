/*
 * Where the bytes of uploaded files live. Objects are addressed by the hex SHA-1 of their content
 * (content-addressed): a write of the same bytes is a no-op, an object never changes once
 * written, and the database rows (image, oldimage, filearchive) are the only index. So a write
 * can happen before the transaction that records it — a rolled-back upload leaves at most an
 * unreferenced object, never a row without bytes — and no transaction spans the two systems.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import { amzDate, sha256Hex, signV4, type SigV4Credentials } from './sigv4.js';

export interface FileStore {
  /** Stores `data` under `key` (idempotent). */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The object's bytes, or undefined when there is none. */
  get(key: string): Promise<Buffer | undefined>;
  has(key: string): Promise<boolean>;
  /** Where objects go, for logs and the README. */
  readonly description: string;
}

export const storageKeyOf = (data: Buffer) => crypto.createHash('sha1').update(data).digest('hex');

const KEY = /^[0-9a-f]{40}$/;
function checkKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`not a storage key: ${key}`);
}

/**
 * The embedded default: a folder (DATA_DIR/files), objects fanned out as ab/cd/<key> so no
 * directory grows huge. Writes go to a temporary file renamed into place, so a reader never
 * sees half an object.
 */
export class LocalFileStore implements FileStore {
  constructor(private readonly root: string) {}

  get description(): string {
    return `folder ${this.root}`;
  }

  private pathOf(key: string): string {
    checkKey(key);
    return path.join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

  async put(key: string, data: Buffer, _contentType?: string): Promise<void> {
    const target = this.pathOf(key);
    if (await this.has(key)) return;
    await fs.mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, target);
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.pathOf(key));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  async has(key: string): Promise<boolean> {
    try {
      await fs.access(this.pathOf(key));
      return true;
    } catch {
      return false;
    }
  }
}

export interface S3Config {
  /** e.g. https://s3.eu-west-1.amazonaws.com or http://minio:9000 (path-style addressing). */
  endpoint: string;
  bucket: string;
  region: string;
  /** Key prefix inside the bucket, e.g. "wiki/files/". */
  prefix: string;
  credentials: SigV4Credentials;
}

/**
 * An S3-compatible bucket (path-style URLs, Signature V4), for deployments with several content
 * instances or none of them with a durable disk.
 */
export class S3FileStore implements FileStore {
  constructor(
    private readonly cfg: S3Config,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  get description(): string {
    return `bucket ${this.cfg.bucket} at ${this.cfg.endpoint}`;
  }

  /** The URL of an object (exported for tests: what gets signed). */
  objectUrl(key: string): URL {
    checkKey(key);
    const base = this.cfg.endpoint.replace(/\/$/, '');
    return new URL(`${base}/${encodeURIComponent(this.cfg.bucket)}/${this.cfg.prefix}${key}`);
  }

  /** The signed request for an operation (separate from sending it, so it can be checked). */
  signedRequest(method: 'GET' | 'PUT' | 'HEAD', key: string, body: Buffer | undefined, contentType: string | undefined, now = new Date()) {
    const url = this.objectUrl(key);
    const payloadHash = sha256Hex(body ?? Buffer.alloc(0));
    const headers: Record<string, string> = { 'x-amz-content-sha256': payloadHash, 'x-amz-date': amzDate(now) };
    if (contentType) headers['content-type'] = contentType;
    return { url, headers: signV4({ method, url, headers, payloadHash }, this.cfg.credentials, this.cfg.region, 's3', now) };
  }

  private async send(method: 'GET' | 'PUT' | 'HEAD', key: string, body?: Buffer, contentType?: string): Promise<Response> {
    const { url, headers } = this.signedRequest(method, key, body, contentType);
    delete headers.host; // fetch sets it, from the same URL
    return this.fetchImpl(url, { method, headers, body: body ? new Uint8Array(body) : undefined });
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    if (await this.has(key)) return;
    const r = await this.send('PUT', key, data, contentType);
    if (!r.ok) throw new Error(`object store PUT ${key}: HTTP ${r.status} ${await r.text()}`);
  }

  async get(key: string): Promise<Buffer | undefined> {
    const r = await this.send('GET', key);
    if (r.status === 404) return undefined;
    if (!r.ok) throw new Error(`object store GET ${key}: HTTP ${r.status}`);
    return Buffer.from(await r.arrayBuffer());
  }

  async has(key: string): Promise<boolean> {
    const r = await this.send('HEAD', key);
    if (r.status === 404) return false;
    if (!r.ok) throw new Error(`object store HEAD ${key}: HTTP ${r.status}`);
    return true;
  }
}
