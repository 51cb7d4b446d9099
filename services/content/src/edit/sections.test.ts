import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getSection, replaceSection } from './sections.js';

// What MediaWiki 1.39's WikitextContent::getSection answers for the same texts and ids (run with
// maintenance/eval.php on the reference wiki).
const CASES: [string, [string, string | null][]][] = [
  [
    'Intro\n<includeonly>\n== Inc ==\ninc text\n</includeonly>\n== Page ==\npage text',
    [
      ['1', '== Page ==\npage text'],
      ['T-1', '== Inc ==\ninc text\n</includeonly>'],
      ['T-2', '== Page ==\npage text'],
      ['2', null],
    ],
  ],
  [
    '<noinclude>\n== Doc ==\ndoc\n</noinclude>\n== Real ==\nreal',
    [
      ['1', '== Doc ==\ndoc\n</noinclude>'],
      ['2', '== Real ==\nreal'],
      ['T-1', '== Real ==\nreal'],
      ['T-2', null],
    ],
  ],
  [
    '== Out ==\nx\n<onlyinclude>\n== In ==\ny\n</onlyinclude>\n== After ==\nz',
    [
      ['1', '== Out ==\nx\n<onlyinclude>'],
      ['T-1', '== In ==\ny\n</onlyinclude>\n== After ==\nz'],
      ['T-2', null],
      ['3', '== After ==\nz'],
    ],
  ],
];

test('sections: "N" counts headings as the page shows them, "T-N" as the template is included (MediaWiki\'s answers)', () => {
  for (const [text, ids] of CASES) {
    for (const [id, expected] of ids) assert.equal(getSection(text, id) ?? null, expected, `${JSON.stringify(text)} section ${id}`);
  }
});

test('sections: replacing a template section replaces that stretch of the text', () => {
  const text = 'Intro\n<includeonly>\n== Inc ==\ninc text\n</includeonly>\n== Page ==\npage text';
  assert.equal(replaceSection(text, 'T-1', '== Inc ==\nnew'), 'Intro\n<includeonly>\n== Inc ==\nnew\n\n== Page ==\npage text');
  assert.equal(replaceSection(text, '1', '== Page ==\nedited'), 'Intro\n<includeonly>\n== Inc ==\ninc text\n</includeonly>\n== Page ==\nedited');
  assert.equal(replaceSection(text, 'T-3', 'x'), undefined);
  // Headings in comments and nowiki never count, in either mode.
  const hidden = '<!--\n== C ==\n-->\n<nowiki>\n== N ==\n</nowiki>\n== Real ==\nr';
  assert.equal(getSection(hidden, '1'), '== Real ==\nr');
  assert.equal(getSection(hidden, 'T-1'), '== Real ==\nr');
});
