/*
 * The benchmarks' article: ~50 KB of what real articles hold (an infobox, sections, links, red
 * links, formatting, references through a citation template, lists, tables, a parser function),
 * and the templates it uses. The renderer's benchmark (render.ts) and the side-by-side parse
 * scenario (run.ts) render the same text.
 */
export const TEMPLATES: Record<string, string> = {
  'Template:Infobox': '{| class="infobox"\n! colspan="2" | {{{title|{{PAGENAME}}}}}\n|-\n| Born || {{{born|unknown}}}\n|-\n| Field || {{{field|}}}\n|}',
  'Template:Cite': "{{{author}}}. ''{{{title}}}''. {{#if:{{{year|}}}|({{{year}}})}}",
  'Template:Main': ":''Main article: [[{{{1}}}]]''",
};

/** A ~50 KB article: sections of prose with links, formatting, references, lists and a table. */
export function article(targetBytes = 50_000): string {
  let out = "{{Infobox|title=Sample|born=1900|field=Testing}}\nThe '''sample''' is an article used to measure rendering.\n\n";
  let n = 0;
  while (Buffer.byteLength(out) < targetBytes) {
    n++;
    out += `== Section ${n} ==\n{{Main|Topic ${n}}}\n`;
    out += `Paragraph ${n} links to [[Main Page]], [[Topic ${n}|a topic]] and [[Missing ${n}]], with '''bold''', ''italic'' and an [http://example.com/${n} external link].<ref>{{Cite|author=Author ${n}|title=Work ${n}|year=20${n % 100}}}</ref> `;
    out += 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '.repeat(3);
    out += `\n\n* item one of ${n}\n* item two with [[Link ${n}]]\n** nested\n\n{| class="wikitable"\n! A !! B\n|-\n| ${n} || {{#expr: ${n} * 2}}\n|}\n\n`;
  }
  return `${out}== References ==\n<references/>\n[[Category:Samples]]`;
}
