/*
 * Edit summaries to HTML (MediaWiki's CommentParser, as action=parse&summary and parsedcomment
 * show them): the text is escaped, `/* section *\/` becomes an autocomment linking to the section
 * of the page, and `[[Page|text]]` becomes a link (red when the page does not exist). Nothing
 * else is markup in a summary.
 */
import { MalformedTitleError, type TitleCodec } from '../../title/codec.js';
import { anchorEncode } from '../functions.js';
import { titleKey, type PageLookup, type TitleRef } from '../types.js';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
/** wfUrlencode of a DB key. */
const urlKey = (s: string) => encodeURIComponent(s).replace(/%(3B|40|24|21|2A|28|29|2C|2F|7E|3A)/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

const AUTOCOMMENT_RE = /\/\*\s*(.*?)\s*\*\//g;
const LINK_RE = /\[\[\s*:?([^[\]|]+)(?:\|((?:\]?[^\]])*))?\]\]([a-z]*)/g;

export async function formatComment(comment: string, self: TitleRef, codec: TitleCodec, lookup: PageLookup): Promise<string> {
  const selfText = codec.prefixedText(self.ns, self.dbkey);
  let append = '';
  // Sanitizer::escapeHtmlAllowEntities, then autocomments (their brackets escaped so that links skip them).
  // Whether text precedes/follows is MediaWiki's optional look-around captures of any non-newline character.
  let html = escapeHtml(comment).replace(AUTOCOMMENT_RE, (m: string, auto: string, at: number, whole: string) => {
    const post = at + m.length < whole.length && whole[at + m.length] !== '\n';
    const section = anchorEncode(auto.replace(/\[\[:|\[\[|\]\]/g, ''));
    let out = section ? `<a href="/wiki/${urlKey(codec.prefixedDbKey(self.ns, self.dbkey))}#${urlKey(section)}" title="${escapeHtml(selfText)}">→\u200e${auto}</a>` : auto;
    if (post) out += ': ';
    if (out) {
      out = `<span dir="auto"><span class="autocomment">${out}</span>`;
      append += '</span>';
    }
    // Text before an autocomment would get autocomment-prefix, which is empty in English.
    return out.replace(/\[/g, '&#91;').replace(/\]/g, '&#93;');
  });
  html += append;

  const found: { at: number; len: number; target: TitleRef; fragment: string; text: string }[] = [];
  for (const m of html.matchAll(LINK_RE)) {
    let target: TitleRef;
    const raw = m[1]!.replace(/&amp;/g, '&');
    const hash = raw.indexOf('#');
    try {
      const t = codec.parse(hash >= 0 ? raw.slice(0, hash) : raw);
      target = { ns: t.ns, dbkey: t.dbkey };
    } catch (e) {
      if (e instanceof MalformedTitleError) continue;
      throw e;
    }
    if (target.dbkey === '') continue;
    const label = (m[2] ?? m[1]!.trim()) + (m[3] ?? '');
    found.push({ at: m.index, len: m[0].length, target, fragment: hash >= 0 ? raw.slice(hash + 1) : '', text: label });
  }
  if (found.length === 0) return html;
  const exists = await lookup.exist(found.map((f) => f.target));
  let out = '';
  let at = 0;
  for (const f of found) {
    const prefixed = codec.prefixedText(f.target.ns, f.target.dbkey);
    const key = urlKey(codec.prefixedDbKey(f.target.ns, f.target.dbkey));
    const link = exists.has(titleKey(f.target))
      ? `<a href="/wiki/${key}${f.fragment ? `#${urlKey(anchorEncode(f.fragment))}` : ''}" title="${escapeHtml(prefixed)}">${f.text}</a>`
      : `<a href="/w/index.php?title=${key}&amp;action=edit&amp;redlink=1" class="new" title="${escapeHtml(prefixed)} (page does not exist)">${f.text}</a>`;
    out += html.slice(at, f.at) + link;
    at = f.at + f.len;
  }
  return out + html.slice(at);
}
