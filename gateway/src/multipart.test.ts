import { test } from 'node:test';
import assert from 'node:assert/strict';
import busboy from 'busboy';
import { canonicalMultipart, multipartBoundary } from './multipart.js';

/** What busboy reads from a body after canonicalMultipart: fields, and files with their bytes. */
function read(body: Buffer, boundary: string): Promise<{ fields: [string, string][]; files: [string, string, Buffer][] }> {
  return new Promise((resolve, reject) => {
    const fields: [string, string][] = [];
    const files: [string, string, Buffer][] = [];
    const bb = busboy({ headers: { 'content-type': `multipart/form-data; boundary="${boundary}"` } });
    bb.on('field', (n, v) => fields.push([n, v]));
    bb.on('file', (n, s, info) => {
      const chunks: Buffer[] = [];
      s.on('data', (c: Buffer) => chunks.push(c));
      s.on('end', () => files.push([n, info.filename ?? '', Buffer.concat(chunks)]));
    });
    bb.on('close', () => resolve({ fields, files }));
    bb.on('error', reject);
    bb.end(canonicalMultipart(body, boundary));
  });
}

test('the boundary, quoted (with "=" inside, as Python writes it) or not', () => {
  assert.equal(multipartBoundary('multipart/form-data; boundary="===============8140555481445819803=="'), '===============8140555481445819803==');
  assert.equal(multipartBoundary('multipart/form-data; boundary=----abc'), '----abc');
  assert.equal(multipartBoundary('multipart/form-data; charset=utf-8; BOUNDARY="a b"'), 'a b');
  assert.equal(multipartBoundary('multipart/form-data'), undefined);
});

test("Python's email package: LF line ends, MIME-Version headers, lower-case Content-disposition, binary content kept", async () => {
  const b = '===============8140555481445819803==';
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x0a, 0x00, 0x0d, 0x0a, 0x2d, 0x2d]);
  const body = Buffer.concat([
    Buffer.from(
      `--${b}\nContent-Type: text/plain; charset="utf-8"\nMIME-Version: 1.0\nContent-disposition: form-data; name="action"\n\nupload\n` +
        `--${b}\nContent-Type: text/plain; charset="utf-8"\nMIME-Version: 1.0\nContent-disposition: form-data; name="comment"\n\ntwo\nlines\n` +
        `--${b}\nContent-Type: image/png\nMIME-Version: 1.0\nContent-disposition: form-data; name="file"; filename="Test.png"\n\n`,
    ),
    png,
    Buffer.from(`\n--${b}--\n`),
  ]);
  const r = await read(body, b);
  assert.deepEqual(r.fields, [
    ['action', 'upload'],
    ['comment', 'two\nlines'],
  ]);
  assert.equal(r.files.length, 1);
  assert.equal(r.files[0]![1], 'Test.png');
  assert.deepEqual(r.files[0]![2], png);
});

test('a blank line or a preamble before the first boundary, and CRLF bodies as they are', async () => {
  const b = 'xyz';
  const strict = Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--${b}--\r\n`);
  assert.equal(canonicalMultipart(strict, b), strict);
  for (const pre of ['\r\n', '\n', 'This is a multi-part message in MIME format.\n']) {
    const r = await read(Buffer.concat([Buffer.from(pre), strict]), b);
    assert.deepEqual(r.fields, [['a', '1']], JSON.stringify(pre));
  }
  const lf = await read(Buffer.from(`\n--${b}\nContent-Disposition: form-data; name="a"\n\n1\n--${b}--\n`), b);
  assert.deepEqual(lf.fields, [['a', '1']]);
});
