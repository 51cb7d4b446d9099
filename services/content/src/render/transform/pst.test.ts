import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { escapeWikiText } from '../functions.js';
import { pipeTrick, preSaveTransform, signatureText } from './pst.js';

// Parser::pstPass2's regexes as MediaWiki writes them: the oracle for the one-pass pipe trick.
const TC = `[ %!"$&'()*,\\-./0-9:;=?@A-Z\\\\^_\`a-z~\\x80-\\uFFFF+]`;
const NC = '[ _0-9A-Za-z\\x80-\\uFFFF-]';
const P1 = new RegExp(`\\[\\[(:?${NC}+:|:|)(${TC}+?)( ?\\(${TC}+\\))\\|]]`, 'g');
const P4 = new RegExp(`\\[\\[(:?${NC}+:|:|)(${TC}+?)( ?（${TC}+）)\\|]]`, 'g');
const P3 = new RegExp(`\\[\\[(:?${NC}+:|:|)(${TC}+?)( ?\\(${TC}+\\)|)((?:, |，|، )${TC}+|)\\|]]`, 'g');
const P2 = new RegExp(`\\[\\[\\|(${TC}+)]]`, 'g');
function regexPipeTrick(text: string, title: string): string {
  text = text.replace(P1, '[[$1$2$3|$2]]').replace(P4, '[[$1$2$3|$2]]').replace(P3, '[[$1$2$3$4|$2]]');
  const m = new RegExp(`^(${NC}+:|)${TC}+?( \\(${TC}+\\))$`).exec(title) ?? new RegExp(`^(${NC}+:|)${TC}+?(, ${TC}+|)$`).exec(title);
  if (m && `${m[1]}${m[2]}` !== '') return text.replace(P2, (_all, page: string) => `[[${m[1]}${page}${m[2]}|${page}]]`);
  return text.replace(P2, '[[$1]]');
}

test('the pipe trick: namespaces, parenthesised and comma contexts, the reverse form', () => {
  const cases: [string, string, string][] = [
    ['[[Help:Contents (x)|]]', 'A', '[[Help:Contents (x)|Contents]]'],
    ['[[:Category:Foo (bar)|]]', 'A', '[[:Category:Foo (bar)|Foo]]'],
    ['[[Boston, Massachusetts|]]', 'A', '[[Boston, Massachusetts|Boston]]'],
    ['[[Foo (bar), baz|]]', 'A', '[[Foo (bar), baz|Foo]]'],
    ['[[Foo（bar）|]]', 'A', '[[Foo（bar）|Foo]]'],
    ['[[ab:(c)|]]', 'A', '[[ab:(c)|ab:]]'],
    ['[[|Article]]', 'Page (context)', '[[Article (context)|Article]]'],
    ['[[|Article]]', 'Page, place', '[[Article, place|Article]]'],
    ['[[[[Foo (x)|]]', 'A', '[[[[Foo (x)|Foo]]'],
    ['[[Foo|]] and [[Bar (x)|]]', 'A', '[[Foo|Foo]] and [[Bar (x)|Bar]]'],
  ];
  for (const [text, title, expected] of cases) assert.equal(pipeTrick(text, title), expected, text);
});

test('the one-pass pipe trick answers what MediaWiki’s regexes answer', () => {
  const piece = fc.constantFrom('a', 'B', ' ', '(', ')', ':', ', ', ',', '，', '، ', '（', '）', '[[', ']]', '|', '|]]', 'ns:', '_', '<', '-');
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 14 }), fc.constantFrom('A', 'Ns:Page (x)', 'Page, y'), (parts, title) => {
      const text = parts.join('');
      assert.equal(pipeTrick(text, title), regexPipeTrick(text, title), JSON.stringify(text));
    }),
    { numRuns: 5000 },
  );
});

test('the pre-save transform is linear: long link targets full of parentheses and commas', async () => {
  const ctx = { title: 'A', user: { name: 'X', anonymous: false }, now: new Date(0), expandAll: async (xs: string[]) => xs };
  for (const unit of ['(', 'a (b)', 'a, ', '（', ')', ':a']) {
    const text = `[[${unit.repeat(Math.ceil(400_000 / unit.length))}`;
    const t = performance.now();
    for (const tail of ['', '|]]']) await preSaveTransform(text + tail, ctx);
    const ms = performance.now() - t;
    assert.ok(ms < 1500, `${JSON.stringify(unit)} × n took ${Math.round(ms)} ms`);
  }
});

test('every substitution of a text is expanded in one call, in order, with signatures and the pipe trick applied after', async () => {
  const calls: string[][] = [];
  const ctx = {
    title: 'A',
    user: { name: 'X', anonymous: false },
    now: new Date(0),
    expandAll: async (xs: string[]) => {
      calls.push(xs);
      return xs.map((x, i) => `<${i}:${x}>`);
    },
  };
  const text = `${'{{subst:T|1}}<!-- {{subst:no}} -->'.repeat(3)}{{safesubst:U|{{subst:V}}}} [[P (q)|]] ~~~`;
  const out = await preSaveTransform(text, ctx);
  assert.equal(calls.length, 1);
  assert.deepEqual(calls[0], ['{{T|1}}', '{{T|1}}', '{{T|1}}', '{{U|{{V}}}}']);
  assert.equal(out, '<0:{{T|1}}><!-- {{subst:no}} --><1:{{T|1}}><!-- {{subst:no}} --><2:{{T|1}}><!-- {{subst:no}} --><3:{{U|{{V}}}}> [[P (q)|P]] [[User:X|X]] ([[User talk:X|talk]])');
});

// parserTests.txt's "context links" cases.
describe('pipe trick', () => {
  test('[[Page (context)|]] and [[ns:Page|]] get their label', () => {
    assert.equal(
      pipeTrick('[[Article (context)|]] [[:Bar:Article (context)|]] [[Bar:X (Y) Z|]]', 'Parser test'),
      '[[Article (context)|Article]] [[:Bar:Article (context)|Article]] [[Bar:X (Y) Z|X (Y) Z]]',
    );
    assert.equal(pipeTrick('[[Otherplace، Elsewhere|]]', 'Parser test'), '[[Otherplace، Elsewhere|Otherplace]]');
  });

  test('[[|Page]] without context is just [[Page]]', () => {
    assert.equal(pipeTrick('[[|Article]] [[|Article (context)]]', 'Parser test'), '[[Article]] [[Article (context)]]');
  });

  test('[[|Page]] takes the title’s context, with a colon prefix of the title’s text', () => {
    assert.equal(pipeTrick('[[|Article]]', 'Ns:Somearticle'), '[[Ns:Article|Article]]');
    assert.equal(pipeTrick('[[|Article]]', 'Ns:Somearticle (context)'), '[[Ns:Article (context)|Article]]');
    assert.equal(pipeTrick('[[|Article]]', 'Ns:Somearticle, Context (context)'), '[[Ns:Article (context)|Article]]');
    assert.equal(pipeTrick('[[|Article]]', 'Ns:Somearticle (IGNORED), Context'), '[[Ns:Article, Context|Article]]');
    assert.equal(pipeTrick('[[|Yes, you.]]', 'Who, me? (context)'), '[[Yes, you. (context)|Yes, you.]]');
  });

  test("a namespace page's context comes from its text without the namespace", async () => {
    const ctx = { title: 'Help:Somearticle (context)', titleText: 'Somearticle (context)', user: { name: 'A', anonymous: false }, now: new Date(0), expandAll: async (ws: string[]) => ws };
    assert.equal(await preSaveTransform('[[|Article]]', ctx), '[[Article (context)|Article]]');
  });
});

describe('signatures (Parser::getUserSig), as the reference MediaWiki 1.39 signs', () => {
  const dana = { name: 'Dana', anonymous: false };
  test('the default: the user name and talk links', () => {
    assert.equal(signatureText(dana), '[[User:Dana|Dana]] ([[User talk:Dana|talk]])');
    assert.equal(signatureText({ name: '192.0.2.1', anonymous: true }), '[[Special:Contributions/192.0.2.1|192.0.2.1]]');
    assert.equal(signatureText({ name: "O'Neil", anonymous: false }), '[[User:O&#39;Neil|O&#39;Neil]] ([[User talk:O&#39;Neil|talk]])');
  });
  test('a plain nickname is escaped text, without signatures in it', () => {
    assert.equal(
      signatureText({ ...dana, signature: { nickname: "Ad'min [x] ISBN 1 mailto:a __X__", fancy: false } }),
      '[[User:Dana|Ad&#39;min &#91;x&#93; ISBN 1 mailto&#58;a _&#95;X_&#95;]] ([[User talk:Dana|talk]])',
    );
    assert.equal(
      signatureText({ ...dana, signature: { nickname: '<b>Big</b> ~~~ {{X}}', fancy: false } }),
      '[[User:Dana|&#60;b&#62;Big&#60;/b&#62;  &#123;&#123;X&#125;&#125;]] ([[User talk:Dana|talk]])',
    );
    assert.equal(signatureText({ ...dana, signature: { nickname: '', fancy: false } }), '[[User:Dana|Dana]] ([[User talk:Dana|talk]])');
  });
  test('a fancy nickname is wikitext when well formed, else the plain name', () => {
    assert.equal(signatureText({ ...dana, signature: { nickname: '<b>Big</b> ~~~ {{X}} [[Foo]]', fancy: true } }), '<b>Big</b>  {{SUBST:X}} [[Foo]]');
    assert.equal(signatureText({ ...dana, signature: { nickname: '<b>A &amp; B &nbsp;</b>', fancy: true } }), '<b>A &amp; B &nbsp;</b>');
    assert.equal(signatureText({ ...dana, signature: { nickname: '<b>Big', fancy: true } }), '[[User:Dana|Dana]] ([[User talk:Dana|talk]])');
    assert.equal(signatureText({ ...dana, signature: { nickname: 'a & b', fancy: true } }), '[[User:Dana|Dana]] ([[User talk:Dana|talk]])');
  });
  test('wfEscapeWikiText: line starts, runs and the longest match first', () => {
    assert.equal(escapeWikiText('a\n*b\n\nc!!d'), 'a\n&#42;b\n&#10;c!!d', '1.39 leaves !! alone, as the reference signs a!!b');
    assert.equal(escapeWikiText('http://x'), 'http&#58;//x');
  });
  test('~~~~ in a saved text signs with the nickname', async () => {
    const out = await preSaveTransform('Hi ~~~~', {
      title: 'Talk:X',
      user: { ...dana, signature: { nickname: 'D.', fancy: false } },
      now: new Date('2026-01-02T03:04:05Z'),
      expandAll: async (t) => t,
    });
    assert.equal(out, 'Hi [[User:Dana|D.]] ([[User talk:Dana|talk]]) 03:04, 2 January 2026 (UTC)');
  });
});
