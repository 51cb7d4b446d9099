/* What the file and watchlist suites share: test images, logged-in clients and their tokens. */
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import assert from 'node:assert/strict';
import { WikiClient, type TestWiki } from './harness.js';

/** A real PNG of w×h truecolour pixels; `seed` varies the bytes (and so the SHA-1). */
/** A truecolour PNG; `pixelsPerMetre` adds a pHYs chunk (image editors write 3780, i.e. 96 dpi). */
export function png(w: number, h: number, seed: number, pixelsPerMetre?: number): Buffer {
  return pngOf(w, h, (x, y) => (x * seed + y) % 256, pixelsPerMetre);
}

/** A PNG of random pixels: it hardly compresses, so its size is about w×h×3 (for chunked uploads). */
export function noisyPng(w: number, h: number): Buffer {
  const noise = crypto.randomBytes(w * h * 3);
  return pngOf(w, h, (x, y) => noise[y * w * 3 + x]!);
}

function pngOf(w: number, h: number, byteAt: (x: number, y: number) => number, pixelsPerMetre?: number): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + w * 3);
    for (let x = 0; x < w * 3; x++) row[1 + x] = byteAt(x, y);
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const phys = Buffer.alloc(9);
  if (pixelsPerMetre) {
    phys.writeUInt32BE(pixelsPerMetre, 0);
    phys.writeUInt32BE(pixelsPerMetre, 4);
    phys[8] = 1; // unit: metre
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    ...(pixelsPerMetre ? [chunk('pHYs', phys)] : []),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const SCRIPTED_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>';
export const CLEAN_SVG = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="20"><rect width="5" height="5"/></svg>';

/** A client logged in with action=login (main-account login, as mwclient does). */
export async function loggedIn(wiki: TestWiki, name: string, password: string): Promise<WikiClient & { csrf: string; watchToken: string }> {
  const c = new WikiClient(wiki.baseUrl);
  const lt = (await c.api({ action: 'query', meta: 'tokens', type: 'login' })).json().query.tokens.logintoken;
  const login = (await c.post('/w/api.php', { action: 'login', lgname: name, lgpassword: password, lgtoken: lt, format: 'json' })).json();
  assert.equal(login.login.result, 'Success', JSON.stringify(login));
  const tokens = (await c.api({ action: 'query', meta: 'tokens', type: 'csrf|watch' })).json().query.tokens;
  return Object.assign(c, { csrf: tokens.csrftoken as string, watchToken: tokens.watchtoken as string });
}

/** POST action=upload as multipart/form-data, the way mwclient's site.upload sends it. */
export async function upload(c: WikiClient & { csrf: string }, fields: Record<string, string>, file: Buffer, contentType = 'application/octet-stream') {
  const r = await c.postMultipart('/w/api.php', {
    action: 'upload',
    format: 'json',
    ...fields,
    file: new File([new Uint8Array(file)], fields.filename ?? 'upload', { type: contentType }),
    token: c.csrf,
  });
  assert.equal(r.status, 200);
  return r.json();
}
