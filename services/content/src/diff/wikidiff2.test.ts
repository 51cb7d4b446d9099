import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GOLDEN_DIR } from '@quire/kit/testing';
import { formatInlineJsonDiff, inlineJsonDiff } from './inline-json.js';
import { tableDiff, tableDiffRows } from './table.js';
import { flatSections } from './sections.js';
import { explodeWords } from './words.js';
import { generatePair, prng } from './revision-pairs.js';
import { GOLDEN_FROM_TEXT, GOLDEN_TO_TEXT } from './golden-sample.js';

const here = path.dirname(fileURLToPath(import.meta.url));

function goldenBody(name: string): string {
  const raw = readFileSync(path.join(GOLDEN_DIR, name), 'utf8');
  const sep = raw.includes('\r\n\r\n') ? '\r\n\r\n' : '\n\n';
  return raw.slice(raw.indexOf(sep) + sep.length);
}

describe('golden samples (MediaWiki 1.39 + wikidiff2 1.13)', () => {
  test('action=compare body: the localised HTML table', () => {
    const golden = JSON.parse(goldenBody('action_compare.http')) as { compare: Record<string, string> };
    assert.equal(tableDiff(GOLDEN_FROM_TEXT, GOLDEN_TO_TEXT), golden.compare['*']);
  });

  test('REST compare: the inline JSON diff, byte for byte, and the sections of both texts', () => {
    const golden = goldenBody('rest_revision_compare.http');
    const parsed = JSON.parse(golden) as { from: { sections: unknown }; to: { sections: unknown }; diff: unknown };
    const ours = formatInlineJsonDiff(inlineJsonDiff(GOLDEN_FROM_TEXT, GOLDEN_TO_TEXT));
    assert.ok(golden.endsWith(`,${ours.slice(1)}`), ours);
    assert.deepEqual(flatSections(GOLDEN_FROM_TEXT), parsed.from.sections);
    assert.deepEqual(flatSections(GOLDEN_TO_TEXT), parsed.to.sections);
  });
});

describe('wikidiff2 behaviour', () => {
  test('words: runs of letters, every other character alone, CJK split per character', () => {
    assert.deepEqual(
      explodeWords('café, 日本語 x_1').map((w) => w.body),
      ['café', ',', ' ', '日', '本', '語', ' ', 'x_1'],
    );
    // A leading space is the suffix of an empty word.
    assert.deepEqual(explodeWords(' a')[0], { body: '', whole: ' ', bytes: 1 });
  });

  test('a changed line: highlight ranges and offsets are UTF-8 bytes', () => {
    const entries = inlineJsonDiff('über\nZürich ist schön\nend', 'über\nZürich war schön\nend');
    assert.deepEqual(entries[1], {
      type: 3,
      lineNumber: 2,
      text: 'Zürich istwar schön',
      offset: { from: 6, to: 6 },
      highlightRanges: [
        { start: 8, length: 3, type: 1 },
        { start: 11, length: 3, type: 0 },
      ],
    });
    assert.deepEqual(entries[2], { type: 0, lineNumber: 3, text: 'end', offset: { from: 25, to: 25 } });
  });

  test('a moved paragraph is a source (4) and a destination (5) linked by anchors', () => {
    const para = 'This paragraph moves to the end of the text unchanged';
    const from = ['alpha', para, 'beta', 'gamma', 'delta', 'epsilon'].join('\n');
    const to = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', `${para} now`].join('\n');
    const entries = inlineJsonDiff(from, to);
    const source = entries.find((e) => e.type === 4)!;
    const destination = entries.find((e) => e.type === 5)!;
    assert.deepEqual(source.moveInfo, { id: 'movedpara_1_0_lhs', linkId: 'movedpara_3_0_rhs', linkDirection: 0 });
    assert.deepEqual(destination.moveInfo, { id: 'movedpara_3_0_rhs', linkId: 'movedpara_1_0_lhs', linkDirection: 1 });
    assert.equal(source.offset.to, null);
    assert.equal(destination.lineNumber, 6);
    assert.deepEqual(destination.highlightRanges, [{ start: para.length, length: 4, type: 0 }]);
    const html = tableDiff(from, to);
    assert.match(html, /<a class="mw-diff-movedpara-left" title="Paragraph was moved. Click to jump to new location." href="#movedpara_3_0_rhs">&#x26AB;<\/a>/);
    assert.match(html, /<a name="movedpara_3_0_rhs"><\/a>/);
  });

  test('two lines of context, "Line n:" headers, escaping of <, > and &', () => {
    const from = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`);
    const to = [...from];
    to[6] = 'line 7 <b>&amp;</b>';
    const html = tableDiff(from.join('\n'), to.join('\n'));
    assert.equal((html.match(/diff-context diff-side-deleted/g) ?? []).length, 4);
    assert.match(html, /<td colspan="2" class="diff-lineno">Line 5:<\/td>/);
    assert.match(html, /<ins class="diffchange diffchange-inline"> &lt;b&gt;&amp;amp;&lt;\/b&gt;<\/ins>/);
    assert.equal(tableDiff('same\ntext', 'same\ntext'), '');
    assert.equal(formatInlineJsonDiff(inlineJsonDiff('', '')), '{"diff": []}');
  });
});

/** php-wikidiff2 answers through wikidiff2-reference.php; absent, the comparison is skipped. */
function phpWikidiff2(): string | undefined {
  const probe = spawnSync('php', ['-r', 'echo function_exists("wikidiff2_inline_json_diff") ? "yes" : "no";'], { encoding: 'utf8' });
  if (probe.error || probe.stdout !== 'yes') {
    return 'php-wikidiff2 is not installed (apt-get install php-cli php-wikidiff2): cannot compare with wikidiff2';
  }
  return undefined;
}

function referenceDiffs(pairs: { from: string; to: string }[]): { json: string; table: string }[] {
  const input = `${pairs.map((p) => JSON.stringify(p)).join('\n')}\n`;
  const out = execFileSync('php', [path.join(here, 'wikidiff2-reference.php')], { input, maxBuffer: 1 << 28, encoding: 'utf8' });
  return out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { json: string; table: string });
}

/** Many short lines from a tiny vocabulary: repeated lines and words stress the LCS tie-breaking. */
function repetitivePair(seed: number): { from: string; to: string } {
  const rnd = prng(seed);
  const voc = ['a', 'b', 'c', 'a b', '', ' ', 'x y z', 'é', '日', '  a'];
  const line = () => Array.from({ length: 1 + Math.floor(rnd() * 6) }, () => voc[Math.floor(rnd() * voc.length)]).join(rnd() < 0.5 ? ' ' : '');
  const from = Array.from({ length: Math.floor(rnd() * (seed % 3 === 0 ? 300 : 40)) }, line);
  const to = from.filter(() => rnd() > 0.15).map((l) => (rnd() < 0.15 ? line() : l));
  for (let k = 0; k < from.length / 5; k++) to.splice(Math.floor(rnd() * to.length), 0, line());
  return { from: from.join('\n'), to: to.join('\n') };
}

describe('agreement with php-wikidiff2 on generated revision pairs', { skip: phpWikidiff2() }, () => {
  const pairs = [...Array.from({ length: 300 }, (_, i) => generatePair(i)), ...Array.from({ length: 150 }, (_, i) => repetitivePair(1000 + i))];
  const reference = phpWikidiff2() === undefined ? referenceDiffs(pairs) : [];

  test(`${pairs.length} pairs: the same inline JSON entries (types, texts, ranges, offsets, moves), byte for byte`, () => {
    const moves = { source: 0, destination: 0, change: 0 };
    pairs.forEach((p, i) => {
      const ours = inlineJsonDiff(p.from, p.to);
      assert.deepEqual(ours, (JSON.parse(reference[i]!.json) as { diff: unknown }).diff, `pair ${i}`);
      assert.equal(formatInlineJsonDiff(ours), reference[i]!.json, `pair ${i}`);
      for (const e of ours) {
        if (e.type === 4) moves.source++;
        if (e.type === 5) moves.destination++;
        if (e.type === 3) moves.change++;
      }
    });
    // The generator exercises every kind of entry, moves included.
    assert.ok(moves.source > 50 && moves.destination > 50 && moves.change > 100, JSON.stringify(moves));
  });

  test(`${pairs.length} pairs: the same HTML table rows`, () => {
    pairs.forEach((p, i) => {
      assert.equal(tableDiffRows(p.from, p.to), reference[i]!.table, `pair ${i}`);
    });
  });
});
