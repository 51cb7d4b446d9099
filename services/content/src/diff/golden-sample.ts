/*
 * Texts that reproduce the golden samples action_compare.http and rest_revision_compare.http
 * (revisions 2 and 3 of "Anchor sample page" on MediaWiki 1.39). Only the last lines of the old
 * text appear in the diff; the lines before them are rebuilt with the byte lengths that put
 * "== Section one ==" at offset 69 and the blank line at offset 162, as the samples report.
 */
const pad = (s: string, bytes: number) => s.padEnd(bytes, '.');

export const GOLDEN_FROM_TEXT = [
  pad('Intro of the anchor sample page', 68),
  '== Section one ==',
  pad('Body of section one', 40),
  pad('More of section one', 33),
  '',
  '[[Category:Anchor samples]]',
].join('\n');

export const GOLDEN_TO_TEXT = `${GOLDEN_FROM_TEXT}\n\n== Section two ==\nA second edit adds this section.`;
