/*
 * Accept-Language variant conversion of the REST html routes: a Serbian wiki
 * converts between Cyrillic (sr-ec) and Latin (sr-el) with MediaWiki's SrConverter tables; an
 * English wiki passes the HTML through and says so in Content-Language.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startWiki, testBackends, type TestWiki } from './harness.js';

const ANON_TOKEN = '+\\';

async function edit(wiki: TestWiki, title: string, text: string): Promise<void> {
  const r = await wiki.post('/w/api.php', { action: 'edit', title, text, token: ANON_TOKEN, format: 'json' });
  assert.equal(r.json().edit?.result, 'Success', r.text);
}

for (const backend of testBackends()) {
  describe(`language variants on ${backend}`, () => {
    let sr: TestWiki;
    before(async () => {
      sr = await startWiki(backend, { WIKI_LANG: 'sr' });
      await edit(sr, 'Ћирилица', 'Љубав и њива, џем. Луј XIV <code>код</code> [[Ћирилица|веза]]');
      await edit(sr, 'Latinica', 'Ljubav i njiva, džem. Luj XIV');
    });
    after(() => sr?.close());

    test('sr-el converts Cyrillic text to Latin (Roman numerals, code and links targets untouched)', async () => {
      const r = await sr.rest('/v1/page/%D0%8B%D0%B8%D1%80%D0%B8%D0%BB%D0%B8%D1%86%D0%B0/html', { headers: { 'Accept-Language': 'sr-el' } });
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-language'), 'sr-el');
      assert.match(r.text, /Ljubav i njiva, džem\. Luj XIV <code[^>]*>код<\/code>/);
      assert.match(r.text, /title="Ћирилица"[^>]*>veza<\/a>/);
      assert.match(r.text, /<meta http-equiv="content-language" content="sr-el"\/>/);
      const etagLatin = r.headers.get('etag');
      // The Cyrillic variant is the text as written, with its own validators.
      const c = await sr.rest('/v1/page/%D0%8B%D0%B8%D1%80%D0%B8%D0%BB%D0%B8%D1%86%D0%B0/html', { headers: { 'Accept-Language': 'sr-ec' } });
      assert.equal(c.headers.get('content-language'), 'sr-ec');
      assert.match(c.text, /Љубав и њива, џем\. Луј XIV/);
      assert.notEqual(c.headers.get('etag'), etagLatin);
    });

    test('sr-ec converts Latin text to Cyrillic; q-values pick the variant; other languages pass through', async () => {
      const r = await sr.rest('/v1/page/Latinica/html', { headers: { 'Accept-Language': 'en;q=0.5, sr-ec;q=0.9' } });
      assert.equal(r.headers.get('content-language'), 'sr-ec');
      assert.match(r.text, /Љубав и њива, џем\. Луј XIV/);
      const en = await sr.rest('/v1/page/Latinica/html', { headers: { 'Accept-Language': 'en' } });
      assert.equal(en.headers.get('content-language'), 'sr');
      assert.match(en.text, /Ljubav i njiva, džem\. Luj XIV/);
      const w = await sr.rest('/v1/page/Latinica/with_html', { headers: { 'Accept-Language': 'sr-ec' } });
      assert.match(w.json().html, /Љубав и њива/);
      assert.equal(w.headers.get('content-language'), 'sr-ec');
    });
  });

  describe(`no variants in English on ${backend}`, () => {
    let en: TestWiki;
    before(async () => {
      en = await startWiki(backend);
      await edit(en, 'Plain', 'Ljubav Љубав');
    });
    after(() => en?.close());

    test('the HTML passes through unconverted, with Content-Language en and Vary: Accept-Language', async () => {
      const plain = await en.rest('/v1/page/Plain/html');
      const r = await en.rest('/v1/page/Plain/html', { headers: { 'Accept-Language': 'sr-el' } });
      assert.equal(r.headers.get('content-language'), 'en');
      assert.equal(r.text, plain.text);
      assert.match(r.text, /Ljubav Љубав/);
    });

    // The route's Vary (Accept-Encoding, Accept-Language) and the CORS Vary: Origin are merged.
    test('Vary names Accept-Language and Origin', async () => {
      const r = await en.rest('/v1/page/Plain/html', { headers: { 'Accept-Language': 'sr-el' } });
      const vary = (r.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase());
      assert.ok(vary.includes('accept-language') && vary.includes('origin') && vary.includes('accept-encoding'), vary.join(', '));
    });
  });
}
