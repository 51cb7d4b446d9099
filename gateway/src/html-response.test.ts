import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { contentSecurityPolicy, htmlDocumentSafety } from './html-response.js';

const ATTACK = '<a href="jav&#x61;script:alert(1)" onclick="x()">a</a><img src="data:text/html,x"><div style="background:url(javascript:x)">d</div>';
const SAFE_ATTACK = '<a>a</a><img><div style="/* insecure input */">d</div>';

describe('htmlDocumentSafety', () => {
  let server: Server;
  let base = '';
  before(async () => {
    const app = express();
    app.use(
      '/doc',
      htmlDocumentSafety(() => 'http://wiki.example:8080/'),
    );
    app.get('/doc/send', (_req, res) => res.type('text/html').send(ATTACK));
    app.get('/doc/end', (_req, res) => {
      res.setHeader('Content-Type', 'text/html;charset=UTF-8');
      res.setHeader('Content-Length', Buffer.byteLength(ATTACK));
      res.end(ATTACK);
    });
    app.get('/doc/json', (_req, res) => res.json({ html: ATTACK }));
    app.get('/doc/strict', (_req, res) => res.set('Content-Security-Policy', "default-src 'none'").type('text/html').send('<p>x</p>'));
    app.get('/file', (_req, res) => res.type('text/html').send(ATTACK));
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  for (const path of ['/doc/send', '/doc/end']) {
    test(`${path}: the HTML leaves without refused URLs, with CSP and nosniff`, async () => {
      const r = await fetch(base + path);
      assert.equal(r.status, 200);
      const body = await r.text();
      assert.equal(body, SAFE_ATTACK);
      assert.equal(r.headers.get('content-length'), String(Buffer.byteLength(SAFE_ATTACK)));
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
      const csp = r.headers.get('content-security-policy') ?? '';
      assert.equal(csp, contentSecurityPolicy('http://wiki.example:8080/'));
      assert.match(csp, /script-src 'none'/);
      assert.match(csp, /base-uri 'self' http:\/\/wiki\.example:8080(;|$)/);
      assert.doesNotMatch(csp, /unsafe-eval|script-src[^;]*unsafe-inline/);
    });
  }

  test('JSON is not an HTML document and passes untouched', async () => {
    const r = await fetch(`${base}/doc/json`);
    assert.deepEqual(await r.json(), { html: ATTACK });
    assert.equal(r.headers.get('content-security-policy'), null);
  });

  test("a handler's stricter policy is kept", async () => {
    const r = await fetch(`${base}/doc/strict`);
    assert.equal(r.headers.get('content-security-policy'), "default-src 'none'");
    assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
  });

  test('paths outside the mounted ones (uploaded files) are left alone', async () => {
    const r = await fetch(`${base}/file`);
    assert.equal(await r.text(), ATTACK);
  });

  test('a server that is not a URL still yields a policy', () => {
    assert.match(contentSecurityPolicy('not a url'), /^default-src 'self'; script-src 'none';.*base-uri 'self';/);
  });
});
