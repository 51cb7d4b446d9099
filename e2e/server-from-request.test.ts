/*
 * The wiki's URL ($wgServer): unset, the address the client used (WebRequest::detectServer), so
 * a client of http://127.0.0.1:PORT follows links with its cookies; set (WIKI_SERVER), fixed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { startWiki, type TestWiki } from './harness.js';

/** GET with a Host header of our choosing (fetch does not let one be set). */
function getWithHost(port: number, host: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const SITEINFO = '/w/api.php?action=query&meta=siteinfo&format=json&formatversion=2';
const serverOf = async (port: number, host: string) => JSON.parse((await getWithHost(port, host, SITEINFO)).body).query.general.server as string;

describe('the wiki URL follows the request when WIKI_SERVER is unset', () => {
  let wiki: TestWiki;
  let port: number;
  before(async () => {
    wiki = await startWiki('embedded');
    port = Number(new URL(wiki.stack.url).port);
  });
  after(async () => wiki?.close());

  test('siteinfo, REST links and the read cache each name the address used', async () => {
    // Anonymous reads are cached: each address must get its own answer, in either order.
    assert.equal(await serverOf(port, `127.0.0.1:${port}`), `http://127.0.0.1:${port}`);
    assert.equal(await serverOf(port, `localhost:${port}`), `http://localhost:${port}`);
    assert.equal(await serverOf(port, `127.0.0.1:${port}`), `http://127.0.0.1:${port}`);
    assert.equal(await serverOf(port, `Wiki.Example:${port}`), `http://wiki.example:${port}`);
    // No port in Host: the port the request came in on (SERVER_PORT).
    assert.equal(await serverOf(port, '127.0.0.1'), `http://127.0.0.1:${port}`);
    // A Host that is no host name falls back to the configured default.
    assert.equal(await serverOf(port, 'bad host/x'), `http://localhost:${port}`);
    // REST: the history segment links name the address used.
    const seg = JSON.parse((await getWithHost(port, `127.0.0.1:${port}`, '/w/rest.php/v1/page/Main_Page/history')).body);
    assert.ok(typeof seg.latest === 'string', JSON.stringify(seg));
    assert.ok(seg.latest.startsWith(`http://127.0.0.1:${port}/w/rest.php/`), seg.latest);
  });

  test('X-Forwarded-Host and -Proto from a peer that is not a trusted proxy are ignored', async () => {
    const r = await new Promise<string>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: SITEINFO, headers: { host: `127.0.0.1:${port}`, 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(JSON.parse(r).query.general.server, `http://127.0.0.1:${port}`);
  });
});

describe('WIKI_SERVER fixes the wiki URL', () => {
  let wiki: TestWiki;
  let port: number;
  before(async () => {
    port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    wiki = await startWiki('embedded', { PORT: String(port), WIKI_SERVER: 'https://wiki.example.org' });
  });
  after(async () => wiki?.close());

  test('whatever Host the request names', async () => {
    assert.equal(await serverOf(port, `127.0.0.1:${port}`), 'https://wiki.example.org');
    assert.equal(await serverOf(port, 'evil.example'), 'https://wiki.example.org');
  });
});
