/*
 * The file layer without a wiki around it: MIME sniffing and dimensions from real file headers,
 * the SVG script check, the local FileStore, and S3 request signing against AWS's published
 * Signature V4 examples (the S3 store cannot be exercised further without a server).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { detectsHtml, sniffFile, svgHasScript } from './mime.js';
import { amzDate, sha256Hex, signV4 } from './sigv4.js';
import { LocalFileStore, S3FileStore, storageKeyOf } from './store.js';
import { fileUrlPath, hashPath } from './paths.js';

const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

function png(w: number, h: number, colorType = 2): Buffer {
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
  ihdr.set([8, colorType, 0, 0, 0], 8);
  const raw = Buffer.alloc(h * (1 + w * 3));
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

test('sniffing: PNG, GIF, JPEG, WebP, PDF and SVG with their dimensions; unknown bytes are nothing', () => {
  const p = sniffFile(png(32, 24));
  assert.deepEqual([p?.mime, p?.mediaType, p?.width, p?.height, p?.bits], ['image/png', 'BITMAP', 32, 24, 8]);
  assert.deepEqual(
    p?.metadata.find((m) => m.name === 'colorType'),
    { name: 'colorType', value: 'truecolour' },
  );
  assert.equal(sniffFile(png(1, 1, 6))?.metadata.find((m) => m.name === 'colorType')?.value, 'truecolour-alpha');

  // GIF89a 3×2, global colour table of 2^(0+1) entries, one image descriptor.
  const gif = Buffer.from('474946383961030002008000000000ffffff2c00000000030002000002028c0a003b', 'hex');
  const g = sniffFile(gif);
  assert.deepEqual([g?.mime, g?.width, g?.height], ['image/gif', 3, 2]);

  // A baseline JPEG header: SOI, APP0 (JFIF), SOF0 8-bit 40×30.
  const jpeg = Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.from('ffc0000b080' + '01e' + '0028' + '01011100', 'hex'), Buffer.from('ffd9', 'hex')]);
  const j = sniffFile(jpeg);
  assert.deepEqual([j?.mime, j?.width, j?.height, j?.bits], ['image/jpeg', 40, 30, 8]);

  // WebP lossless: VP8L with 14-bit width-1 and height-1 fields (100×50).
  const bits = (100 - 1) | ((50 - 1) << 14);
  const vp8l = Buffer.alloc(30);
  vp8l.write('RIFF', 0, 'latin1');
  vp8l.writeUInt32LE(22, 4);
  vp8l.write('WEBPVP8L', 8, 'latin1');
  vp8l.writeUInt32LE(9, 16);
  vp8l[20] = 0x2f;
  vp8l.writeUInt32LE(bits, 21);
  const w = sniffFile(vp8l);
  assert.deepEqual([w?.mime, w?.width, w?.height], ['image/webp', 100, 50]);

  assert.deepEqual(sniffFile(Buffer.from('%PDF-1.7\n%âãÏÓ\n'))?.mime, 'application/pdf');
  const svg = sniffFile(Buffer.from('<?xml version="1.0"?>\n<!-- drawn -->\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100" width="50"/>'));
  assert.deepEqual([svg?.mime, svg?.mediaType, svg?.width, svg?.height], ['image/svg+xml', 'DRAWING', 50, 25]);
  assert.equal(sniffFile(Buffer.from('<html><body>hi</body></html>')), undefined);
  assert.equal(sniffFile(Buffer.from('just text')), undefined);
});

test('scripts: HTML a browser would sniff, and SVG that could run script, are detected', () => {
  assert.ok(detectsHtml(Buffer.concat([png(1, 1), Buffer.from('<script>alert(1)</script>')]), 'image/png'));
  assert.ok(!detectsHtml(png(4, 4), 'image/png'));
  assert.ok(svgHasScript('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'));
  assert.ok(svgHasScript('<svg xmlns="http://www.w3.org/2000/svg"><g onload="alert(1)"/></svg>'));
  assert.ok(svgHasScript('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:alert(1)"><text>x</text></a></svg>'));
  assert.ok(svgHasScript('<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><body xmlns="http://www.w3.org/1999/xhtml"/></foreignObject></svg>'));
  assert.ok(svgHasScript('<!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg"/>'));
  assert.ok(svgHasScript('<svg xmlns="http://www.w3.org/2000/svg"><set attributeName="href" to="javascript:alert(1)"/></svg>'));
  assert.ok(!svgHasScript('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="5" style="fill:red"/><a href="https://example.org/"><text>ok</text></a></svg>'));
});

test("PHP in a file's head or tail makes it PHP (MimeAnalyzer), whatever image it starts as", () => {
  const php = Buffer.from('<?php system($_GET["c"]); ?>');
  assert.equal(sniffFile(Buffer.concat([png(1, 1), php]))?.mime, 'application/x-php');
  // After 100 KB of image data, still within the tail MediaWiki reads.
  assert.equal(sniffFile(Buffer.concat([png(1, 1), Buffer.alloc(100_000), php]))?.mime, 'application/x-php');
  assert.equal(sniffFile(Buffer.concat([png(1, 1), Buffer.from('<\x00?\x00p\x00h\x00p\x00', 'latin1')]))?.mime, 'application/x-php');
  assert.equal(sniffFile(png(1, 1))?.mime, 'image/png');
  assert.equal(sniffFile(Buffer.from('%PDF-1.7\n<?php ?>'))?.mime, 'application/pdf');
});

test('SVG references: only fragments, image data: URLs and http(s) links (<a>) pass, as checkSvgScriptCallback', () => {
  const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">${body}</svg>`;
  for (const bad of [
    '<image xlink:href="https://evil.example/track.png" width="1" height="1"/>',
    '<image href="//evil.example/x.png"/>',
    '<use xlink:href="https://evil.example/sprite.svg#a"/>',
    '<image xlink:href="file:///etc/passwd"/>',
    '<image xlink:href="data:text/html;base64,PHNjcmlwdD4="/>',
    '<rect fill="url(https://evil.example/f.svg#p)"/>',
    '<rect style="stroke: url(http://evil.example/p)"/>',
  ]) {
    assert.ok(svgHasScript(svg(bad)), bad);
  }
  for (const good of [
    '<image xlink:href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>',
    '<defs><linearGradient id="g"/></defs><use xlink:href="#g"/><rect fill="url(#g)" style="stroke:url(#g)"/>',
    '<a xlink:href="https://example.org/"><text>ok</text></a>',
  ]) {
    assert.ok(!svgHasScript(svg(good)), good);
  }
});

test("URLs of versions follow MediaWiki's hash paths", () => {
  assert.equal(hashPath('Example.png'), '7/70/');
  assert.equal(fileUrlPath('Example.png'), '/w/images/7/70/Example.png');
  assert.equal(fileUrlPath('QtestA13168.png', '20261121071019!QtestA13168.png'), '/w/images/archive/c/cd/20261121071019%21QtestA13168.png');
});

test('the local store: content-addressed, idempotent, absent objects are undefined', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-files-'));
  try {
    const store = new LocalFileStore(dir);
    const data = png(2, 2);
    const key = storageKeyOf(data);
    assert.equal(await store.has(key), false);
    await store.put(key, data, 'image/png');
    await store.put(key, data, 'image/png');
    assert.ok((await store.get(key))?.equals(data));
    assert.ok(await fs.stat(path.join(dir, key.slice(0, 2), key.slice(2, 4), key)));
    assert.equal(await store.get('0'.repeat(40)), undefined);
    await assert.rejects(store.get('../../etc/passwd'), /not a storage key/);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('Signature V4: AWS test suite "get-vanilla" and "get-vanilla-query-order-key-case"', () => {
  const creds = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
  const now = new Date('2015-08-30T12:36:00Z');
  assert.equal(amzDate(now), '20150830T123600Z');
  const sign = (url: string) =>
    signV4({ method: 'GET', url: new URL(url), headers: { Host: 'example.amazonaws.com', 'X-Amz-Date': '20150830T123600Z' }, payloadHash: EMPTY_SHA256 }, creds, 'us-east-1', 'service', now)
      .Authorization;
  assert.equal(
    sign('https://example.amazonaws.com/'),
    'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
  );
  assert.match(sign('https://example.amazonaws.com/?Param2=value2&Param1=value1') ?? '', /Signature=b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500$/);
});

test('Signature V4: the S3 examples of the AWS documentation (GET object with Range, PUT object)', () => {
  const creds = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
  const now = new Date('2013-05-24T00:00:00Z');
  const get = signV4(
    {
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { Host: 'examplebucket.s3.amazonaws.com', Range: 'bytes=0-9', 'x-amz-content-sha256': EMPTY_SHA256, 'x-amz-date': '20130524T000000Z' },
      payloadHash: EMPTY_SHA256,
    },
    creds,
    'us-east-1',
    's3',
    now,
  );
  assert.equal(
    get.Authorization,
    'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
  );
  const body = 'Welcome to Amazon S3.';
  const put = signV4(
    {
      method: 'PUT',
      url: new URL('https://examplebucket.s3.amazonaws.com/test$file.text'),
      headers: {
        Host: 'examplebucket.s3.amazonaws.com',
        Date: 'Fri, 24 May 2013 00:00:00 GMT',
        'x-amz-date': '20130524T000000Z',
        'x-amz-storage-class': 'REDUCED_REDUNDANCY',
        'x-amz-content-sha256': sha256Hex(body),
      },
      payloadHash: sha256Hex(body),
    },
    creds,
    'us-east-1',
    's3',
    now,
  );
  assert.equal(sha256Hex(body), '44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
  assert.match(put.Authorization ?? '', /SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd$/);
});

test('the S3 store signs path-style object requests with the payload hash', () => {
  const store = new S3FileStore({ endpoint: 'http://minio:9000/', bucket: 'wiki', region: 'eu-west-1', prefix: 'files/', credentials: { accessKeyId: 'AK', secretAccessKey: 'SK' } });
  const key = storageKeyOf(Buffer.from('x'));
  const data = Buffer.from('x');
  const req = store.signedRequest('PUT', key, data, 'image/png', new Date('2026-01-02T03:04:05Z'));
  assert.equal(req.url.toString(), `http://minio:9000/wiki/files/${key}`);
  assert.equal(req.headers['x-amz-content-sha256'], sha256Hex(data));
  assert.equal(req.headers['x-amz-date'], '20260102T030405Z');
  assert.match(
    req.headers.Authorization ?? '',
    /^AWS4-HMAC-SHA256 Credential=AK\/20260102\/eu-west-1\/s3\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
  );
  assert.throws(() => store.objectUrl('../x'), /not a storage key/);
});
