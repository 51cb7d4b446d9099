import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cspreportModule, readCspReport } from './cspreport.js';
import { acceptLanguages } from '../query/userinfo.js';
import { fakeContext, stripMeta } from '../query/testing.js';
import { MessageUsageError } from '../errors.js';

const request = (contentType: string | undefined, body: string) => ({
  header: (name: string) => (name === 'content-type' ? contentType : name === 'content-length' ? String(Buffer.byteLength(body)) : undefined),
  otherBody: { contentType: contentType ?? '', data: Buffer.from(body) },
});

const refused = (reason: string) => (e: unknown) => {
  assert.ok(e instanceof MessageUsageError);
  assert.equal(e.code, `cspreport-${reason}`);
  assert.equal(e.info, `Error processing CSP report: ${reason}.`);
  assert.equal(e.httpStatus, 400);
  return true;
};

test('cspreport: the content type, the size, the JSON and its csp-report key are checked as ApiCSPReport does', () => {
  assert.throws(() => readCspReport(request('application/json; charset=utf-8', '{"csp-report":{}}')), refused('wrongformat'));
  assert.throws(() => readCspReport(request(undefined, '{}')), refused('wrongformat'));
  assert.throws(() => readCspReport(request('application/json', 'x'.repeat(9000))), refused('toobig'));
  assert.throws(() => readCspReport(request('application/json', 'not json')), refused('json-error-syntax'));
  assert.throws(() => readCspReport(request('application/csp-report', '[1]')), refused('missingkey'));
  assert.deepEqual(readCspReport(request('application/csp-report', '{"csp-report":{"blocked-uri":"http://x/"}}')), { 'blocked-uri': 'http://x/' });
});

test('cspreport logs the report and answers success', async () => {
  const { ctx } = fakeContext(cspreportModule, { reportonly: true, source: 'x' }, {});
  const logged: unknown[][] = [];
  Object.assign(ctx, request('application/json', '{"csp-report":{"blocked-uri":"http://evil.example/a.js?q=1","document-uri":"http://w/wiki/X","line-number":3}}'));
  (ctx.deps as unknown as Record<string, unknown>).log = { warn: (...a: unknown[]) => logged.push(a) };
  await cspreportModule.execute(ctx);
  assert.equal(ctx.result.cspreport, 'success');
  assert.equal(logged[0]![1], '[source=x, report-only] Received CSP report: <http://evil.example> blocked from being loaded on <http://w/wiki/X>:3');
});

test("acceptlang: WebRequest::getAcceptLang's order, lower case, q=0 dropped, the last q of a repeated code", () => {
  assert.deepEqual(stripMeta(acceptLanguages('de-DE,de;q=0.9,en;q=0.5')), [
    { q: 1, code: 'de-de' },
    { q: 0.9, code: 'de' },
    { q: 0.5, code: 'en' },
  ]);
  assert.deepEqual(stripMeta(acceptLanguages('en;q=0.5, fr, de;q=0, EN-gb;q=0.7, fr;q=0.8')), [
    { q: 0.8, code: 'fr' },
    { q: 0.7, code: 'en-gb' },
    { q: 0.5, code: 'en' },
  ]);
  assert.deepEqual(stripMeta(acceptLanguages(undefined)), []);
  assert.equal(acceptLanguages('en')[0]!._content, 'code');
});
