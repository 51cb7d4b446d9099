/*
 * Edit summaries to HTML (MediaWiki's CommentParser, as action=parse&summary and parsedcomment
 * show them): the text is escaped, `/* section *\/` becomes an autocomment linking to the section
 * of the page, and `[[Page|text]]` becomes a link (red when the page does not exist, mw-redirect
 * for a redirect; `[[Media:…]]` links the file). Nothing else is markup in a summary. Many
 * comments are formatted with one lookup of all their links (CommentFormatter::createBatch).
 */
import { MalformedTitleError, type TitleCodec } from '../../title/codec.js';
import { NS_MEDIA, NS_SPECIAL } from '../../title/namespaces.js';
import { decodeEntities } from '../expand.js';
import { anchorEncode } from '../functions.js';
import { titleKey, type PageFacts, type PageLookup, type TitleRef } from '../types.js';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
/** wfUrlencode of a DB key. */
const urlKey = (s: string) => encodeURIComponent(s).replace(/%(3B|40|24|21|2A|28|29|2C|2F|7E|3A)/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));

const AUTOCOMMENT_RE = /\/\*\s*(.*?)\s*\*\//g;
const LINK_RE = /\[\[\s*:?([^[\]|]+)(?:\|((?:\]?[^\]])*))?\]\]([a-z]*)/g;

interface CommentLink {
  at: number;
  len: number;
  /** A page (with a fragment) or, for `[[Media:…]]`, a file by DB key. */
  target: TitleRef;
  media: boolean;
  fragment: string;
  /** The link's inner HTML (already escaped). */
  text: string;
}

/** A comment's HTML with autocomments done, and the `[[links]]` in it still to be made. */
function scanComment(comment: string, self: TitleRef | undefined, codec: TitleCodec, samePage = false): { html: string; links: CommentLink[] } {
  const selfText = self ? codec.prefixedText(self.ns, self.dbkey) : '';
  let append = '';
  // Sanitizer::escapeHtmlAllowEntities (character references decoded, then all escaped), then
  // autocomments (their brackets escaped so that links skip them). Whether text precedes/follows
  // is MediaWiki's optional look-around captures of any non-newline character.
  let html = escapeHtml(decodeEntities(comment)).replace(AUTOCOMMENT_RE, (m: string, auto: string, at: number, whole: string) => {
    const post = at + m.length < whole.length && whole[at + m.length] !== '\n';
    const section = anchorEncode(auto.replace(/\[\[:|\[\[|\]\]/g, ''));
    // On the same page (CommentParser's $local) the link is to the bare fragment.
    const attrs = samePage || !self ? `href="#${urlKey(section)}"` : `href="/wiki/${urlKey(codec.prefixedDbKey(self.ns, self.dbkey))}#${urlKey(section)}" title="${escapeHtml(selfText)}"`;
    // Without a page (CommentFormatter over rows that name none) the section is not linked.
    let out = section && (self || samePage) ? `<a ${attrs}>→\u200e${auto}</a>` : auto;
    if (post) out += ': ';
    if (out) {
      out = `<span dir="auto"><span class="autocomment">${out}</span>`;
      append += '</span>';
    }
    // Text before an autocomment would get autocomment-prefix, which is empty in English.
    return out.replace(/\[/g, '&#91;').replace(/\]/g, '&#93;');
  });
  html += append;

  const links: CommentLink[] = [];
  for (const m of html.matchAll(LINK_RE)) {
    let target = m[1]!;
    // Urlencoded titles are decoded (Parser::replaceInternalLinks), for the text as well.
    if (target.includes('%')) {
      try {
        target = decodeURIComponent(target).replace(/</g, '&lt;').replace(/>/g, '&gt;');
      } catch {
        /* not valid percent-encoding: left as written */
      }
    }
    const text = (m[2] || target) + (m[3] ?? '');
    const raw = target.replace(/^:/, '').replace(/&amp;/g, '&');
    if (raw === '') continue;
    const hash = raw.indexOf('#');
    let page: TitleRef;
    try {
      if (hash === 0 && !self) continue;
      const t = hash === 0 ? self! : codec.parse(hash > 0 ? raw.slice(0, hash) : raw);
      page = { ns: t.ns, dbkey: t.dbkey };
    } catch (e) {
      if (e instanceof MalformedTitleError) continue;
      throw e;
    }
    if (page.dbkey === '') continue;
    const media = page.ns === NS_MEDIA;
    links.push({ at: m.index, len: m[0].length, target: page, media, fragment: hash >= 0 ? raw.slice(hash + 1) : '', text });
  }
  return { html, links };
}

function linkComment(html: string, links: CommentLink[], codec: TitleCodec, pages: ReadonlyMap<string, PageFacts>, files: ReadonlyMap<string, { url: string }>): string {
  let out = '';
  let at = 0;
  for (const f of links) {
    let link: string;
    if (f.media) {
      // Linker::makeMediaLinkFile: the file itself, or its upload form.
      const name = escapeHtml(f.target.dbkey.replace(/_/g, ' '));
      const file = files.get(f.target.dbkey);
      link = file
        ? `<a href="${escapeHtml(file.url)}" class="internal" title="${name}">${f.text}</a>`
        : `<a href="/w/index.php?title=Special:Upload&amp;wpDestFile=${urlKey(f.target.dbkey)}" class="new" title="${name}">${f.text}</a>`;
    } else {
      const prefixed = codec.prefixedText(f.target.ns, f.target.dbkey);
      const key = urlKey(codec.prefixedDbKey(f.target.ns, f.target.dbkey));
      const facts = pages.get(titleKey(f.target));
      // Special pages are always known (Title::isAlwaysKnown).
      link =
        facts || f.target.ns === NS_SPECIAL
          ? `<a href="/wiki/${key}${f.fragment ? `#${urlKey(anchorEncode(f.fragment))}` : ''}"${facts?.isRedirect ? ' class="mw-redirect"' : ''} title="${escapeHtml(prefixed)}">${f.text}</a>`
          : `<a href="/w/index.php?title=${key}&amp;action=edit&amp;redlink=1" class="new" title="${escapeHtml(prefixed)} (page does not exist)">${f.text}</a>`;
    }
    out += html.slice(at, f.at) + link;
    at = f.at + f.len;
  }
  return out + html.slice(at);
}

export interface CommentOf {
  comment: string;
  /** The page the comment is about: autocomments link to its sections (none: they are not linked). */
  self?: TitleRef;
  /** The comment is shown on that page itself: autocomments link to the bare fragment. */
  samePage?: boolean;
}

/** Formats many comments with one existence lookup of all the pages they link to (CommentBatch). */
export async function formatComments(items: readonly CommentOf[], codec: TitleCodec, lookup: PageLookup): Promise<string[]> {
  const scanned = items.map((i) => scanComment(i.comment, i.self, codec, i.samePage));
  const links = scanned.flatMap((s) => s.links);
  const pages = links.some((l) => !l.media) ? await lookup.exist(links.filter((l) => !l.media && l.target.ns >= 0).map((l) => l.target)) : new Map<string, PageFacts>();
  const media = [...new Set(links.filter((l) => l.media).map((l) => l.target.dbkey))];
  const files = media.length > 0 ? await lookup.files(media) : new Map<string, { url: string }>();
  return scanned.map((s) => (s.links.length > 0 ? linkComment(s.html, s.links, codec, pages, files) : s.html));
}

export async function formatComment(comment: string, self: TitleRef, codec: TitleCodec, lookup: PageLookup, samePage = false): Promise<string> {
  const [html] = await formatComments([{ comment, self, samePage }], codec, lookup);
  return html!;
}
