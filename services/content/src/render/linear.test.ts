/*
 * Every pass of the renderer is linear (or n log n) in its input, also for hostile texts: one
 * anonymous action=parse of `[[` repeated 60,000 times took 23 s (quadratic: findLinks scanned the
 * rest of the text from every opener), and held the render thread from every other request.
 * Each shape renders at n and 4n units; the time may grow about fourfold, not sixteen (the bound
 * is 8x plus a margin, robust to a shared machine's noise), and 100,000 units of the shapes
 * reported render within a few seconds (MediaWiki: 0.2–0.5 s).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryLookup, renderTest } from './testing.js';
import type { RenderRequest } from './types.js';

const repeat = (unit: string) => (n: number) => unit.repeat(n);
const lines = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join('\n');
const each = (n: number, unit: (i: number) => string) => Array.from({ length: n }, (_, i) => unit(i)).join('');

/** [name, text of n units, units for the smaller size (default 5000)]. */
const SHAPES: [string, (n: number) => string, number?][] = [
  ['[[', repeat('[[')],
  ['[[:', repeat('[[:')],
  ['[[#', repeat('[[#')],
  ['[http://x ', repeat('[http://x ')],
  ['[[File:', repeat('[[File:')],
  ['[[a|', repeat('[[a|')],
  ['[[a| … ]] nested', (n) => `${'[[a|'.repeat(n)}${']]'.repeat(n)}`],
  ['[[ … ]] balanced', (n) => `${'[['.repeat(n)}${']]'.repeat(n)}`],
  ['[', repeat('[')],
  ['[[Category:A]] ', repeat('[[Category:A]] ')],
  ['[[en:A]] ', repeat('[[en:A]] ')],
  ['distinct interwiki links', (n) => each(n, (i) => `[[wikt:A${i}]]`)],
  ['distinct external links', (n) => each(n, (i) => `[http://x.example/${i} a]`)],
  ['distinct files', (n) => each(n, (i) => `[[File:X${i}.png]]`)],
  ['[http://x + spaces', (n) => `[http://x${' '.repeat(n)}\n`],
  ['free URL and commas', (n) => `http://x.example/${','.repeat(n)}a`],
  ['{{', repeat('{{')],
  ['{{{', repeat('{{{')],
  ['{{ … }} nested', (n) => `${'{{'.repeat(n)}x${'}}'.repeat(n)}`],
  ['{{{ … }}} nested', (n) => `${'{{{'.repeat(n)}x${'}}}'.repeat(n)}`],
  ['{{a|{{x}}', repeat('{{a|{{x}}'), 2000],
  ["''", repeat("''")],
  ["'''''x", repeat("'''''x")],
  ['<ref>', repeat('<ref>')],
  ['<ref>x', repeat('<ref>x')],
  ['<ref>x</ref>', repeat('<ref>x</ref>'), 2000],
  ['refs of distinct groups', (n) => each(n, (i) => `<ref group=g${i}>x</ref>`) + each(n, (i) => `<references group=h${i}/>`), 1000],
  ['<nowiki>', repeat('<nowiki>')],
  ['<pre>', repeat('<pre>')],
  ['<gallery>', repeat('<gallery>')],
  ['<!---->', repeat('<!---->')],
  ['<div>', repeat('<div>')],
  ['<div> … </b>', (n) => `${'<div>'.repeat(n)}${'</b>'.repeat(n)}`],
  ['{|', repeat('{|')],
  ['{|\\n', repeat('{|\n'), 2000],
  ['nested tables', (n) => `${'{|\n|\n'.repeat(n)}${'|}\n'.repeat(n)}`, 2000],
  ['*', repeat('*')],
  [':', repeat(':')],
  ['#', repeat('#')],
  ['list nesting', (n) => lines(n, (i) => `${'*#:'.repeat(1 + (i % 20))} x`), 2000],
  [';a://', (n) => `;${'a://'.repeat(n)}`],
  ['=', repeat('=')],
  ['=x=\\n', repeat('=x=\n'), 1000],
  ['= and spaces', (n) => `=${' '.repeat(n)}x`],
  ['= and comments', (n) => `=${'<!--'.repeat(n)}=`],
  ['-{', repeat('-{')],
  ['__TOC__', repeat('__TOC__')],
  ['&amp;', repeat('&amp;')],
  ['&', repeat('&')],
  ['long line', (n) => 'x'.repeat(n * 5)],
  ['blank lines', repeat('\n\n')],
  ['mix', (n) => each(n, (i) => ['[[', '{{', "''", '<div>', '[http://x ', '{|', '-{', '<ref>'][i % 8]!)],
  ['mix of labels and lists', (n) => each(n, (i) => ['[[a|', '[[File:x|', '{{{', '<b>', '\n*', '\n=', '&amp;', '__TOC__', '[//a '][i % 9]!)],
];

const lookup = new MemoryLookup({ 'Main Page': 'x' });

async function renderMs(text: string, req: Partial<RenderRequest>): Promise<number> {
  const started = performance.now();
  await renderTest(text, { pages: lookup, req: { limitReport: true, editSections: true, ...req } });
  return performance.now() - started;
}

/** The faster of `tries` renders (a single one may have waited for the CPU). */
async function bestMs(text: string, req: Partial<RenderRequest>, tries: number): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let k = 0; k < tries; k++) best = Math.min(best, await renderMs(text, req));
  return best;
}

for (const mode of ['legacy', 'parsoid'] as const) {
  describe(`rendering time grows linearly with hostile input (${mode})`, () => {
    for (const [name, shape, units = 5000] of SHAPES) {
      test(`${name} x${units} and x${units * 4}`, async () => {
        const req: Partial<RenderRequest> = mode === 'parsoid' ? { mode } : {};
        await renderMs(shape(100), req); // warm the code paths up
        const small = await bestMs(shape(units), req, 2);
        const big4 = shape(units * 4);
        let large = await renderMs(big4, req);
        const bound = (ms: number) => ms <= 8 * small + 150;
        if (!bound(large)) large = Math.min(large, await renderMs(big4, req));
        assert.ok(bound(large), `${name}: ${Math.round(small)} ms for ${units} units, ${Math.round(large)} ms for ${units * 4}`);
      });
    }
  });
}

describe('100,000 units of the shapes reported render in a few seconds', () => {
  for (const unit of ['[[', '[[:', '[[#', '[http://x ', '[[File:', '{{', '<ref>', "''"]) {
    test(`${unit} x100000`, async () => {
      const ms = await bestMs(unit.repeat(100_000), {}, 1);
      assert.ok(ms < 4000, `${unit} x100000 took ${Math.round(ms)} ms`);
    });
  }

  test('an expandtemplates of {{ and {{{ nested 5000 deep answers MediaWiki’s expansion depth error, not a stack overflow', async () => {
    const r = await renderTest(`${'{{{'.repeat(5000)}x${'}}}'.repeat(5000)}${'{{'.repeat(5000)}y${'}}'.repeat(5000)}`, { req: { expandOnly: true } });
    assert.match(r.html, /<span class="error">Expansion depth limit exceeded<\/span>/);
    assert.deepEqual(r.warnings, ['Expansion depth limit exceeded']);
  });
});
