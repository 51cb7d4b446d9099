/*
 * Generated revision pairs for checking the diff against wikidiff2: random wikitext and a
 * random edit of it (word edits, line additions and deletions, paragraph moves, unicode).
 * Seeded, so a failing pair can be reproduced by its index.
 */

const VOCABULARY = [
  'the',
  'wiki',
  'page',
  'edit',
  'revision',
  'of',
  'and',
  'a',
  'to',
  'in',
  'is',
  'history',
  'article',
  '[[Link]]',
  '[[Main Page|home]]',
  "'''bold'''",
  "''italic''",
  '{{Template|x=1}}',
  '<ref>cite</ref>',
  'café',
  'naïve',
  'Zürich',
  'Москва',
  'слово',
  'Ελλάδα',
  '日本語',
  '中文字',
  'عربى',
  '😀',
  '🚀x',
  '1,234',
  '42',
  '—',
  '&',
  '<b>',
  'x<y',
  '"quoted"',
  'tab\there',
  'e\u0301',
  '한국어',
];

/** A small deterministic PRNG (mulberry32). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generatePair(seed: number): { from: string; to: string } {
  const rnd = prng(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const sentence = () => Array.from({ length: 1 + int(14) }, () => pick(VOCABULARY)).join(pick([' ', ' ', ' ', '  ', ', ']));
  const line = () => {
    const r = rnd();
    if (r < 0.12) return '';
    if (r < 0.2) return `${'='.repeat(2 + int(2))} ${sentence()} ${'='.repeat(2 + int(2))}`;
    if (r < 0.27) return `* ${sentence()}`;
    if (r < 0.3) return ` ${sentence()}`;
    return sentence();
  };
  const lines = Array.from({ length: int(30) }, line);
  const edited = [...lines];
  const edits = 1 + int(6);
  for (let e = 0; e < edits; e++) {
    const at = int(edited.length + 1);
    const kind = int(9);
    if (kind === 0) edited.splice(at, 0, ...Array.from({ length: 1 + int(4) }, line));
    else if (kind === 1 && edited.length > 0) edited.splice(at, 1 + int(3));
    else if (kind <= 4 && edited[at] !== undefined) {
      // Word edits inside one line.
      const words = edited[at]!.split(' ');
      const n = 1 + int(3);
      for (let k = 0; k < n; k++) {
        const w = int(words.length + 1);
        const op = int(3);
        if (op === 0) words.splice(w, 0, pick(VOCABULARY));
        else if (op === 1) words.splice(w, 1);
        else words[w] = pick(VOCABULARY);
      }
      edited[at] = words.join(' ');
    } else if (kind === 5 && edited.length > 2) {
      // Move a paragraph elsewhere, sometimes with a small edit.
      const len = 1 + int(3);
      const moved = edited.splice(int(edited.length), len);
      if (rnd() < 0.5 && moved[0] !== undefined) moved[0] = `${moved[0]} ${pick(VOCABULARY)}`;
      edited.splice(int(edited.length + 1), 0, ...moved);
    } else if (kind === 6 && edited[at] !== undefined) edited[at] = line();
    else if (kind === 7 && edited[at] !== undefined) edited.splice(at, 0, edited[at]!);
    else if (kind === 8 && edited[at] !== undefined) edited[at] = `${edited[at]}${pick(['.', ' ', '!', ' 😀'])}`;
  }
  const join = (ls: string[]) => ls.join('\n') + (rnd() < 0.2 ? '\n' : '');
  return { from: join(lines), to: join(edited) };
}
