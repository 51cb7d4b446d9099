import { MalformedTitleError, type ParsedTitle, type TitleCodec } from '../title/codec.js';
import { NS_CATEGORY, NS_FILE, NS_MEDIA, NS_SPECIAL } from '../title/namespaces.js';

/*
 * The two facts a save needs from wikitext before there is a parser: where a redirect points
 * (WikitextContent::getRedirectTargetAndText) and whether the page links anywhere, which decides
 * whether it counts as an article under $wgArticleCountMethod = 'link'.
 */

const REDIRECT_MAGIC_WORD = /^#REDIRECT/i;
const REDIRECT_LINK = /^\s*:?\s*\[{2}(.*?)(?:\|.*?)?\]{2}/s;
/** $wgInvalidRedirectTargets plus Userlogout, which Title::isValidRedirectTarget always refuses. */
const INVALID_SPECIAL_TARGETS = new Set(['Filepath', 'Mypage', 'Mytalk', 'Redirect', 'Userlogout']);
const INTERNAL_LINK = /\[\[([^[\]|\n]+)(?:\|[^\]]*)?\]\]/g;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** PHP's rawurldecode: %XX escapes become bytes; undefined when the result is not UTF-8. */
function rawurldecode(text: string): string | undefined {
  const src = Buffer.from(text, 'utf8');
  const out = Buffer.alloc(src.length);
  let n = 0;
  for (let i = 0; i < src.length; i++) {
    const hex = src[i] === 0x25 ? src.toString('latin1', i + 1, i + 3) : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      out[n++] = parseInt(hex, 16);
      i += 2;
    } else {
      out[n++] = src[i]!;
    }
  }
  try {
    return UTF8.decode(out.subarray(0, n));
  } catch {
    return undefined;
  }
}

function tryParse(codec: TitleCodec, text: string): ParsedTitle | undefined {
  try {
    return codec.parse(text);
  } catch (e) {
    if (e instanceof MalformedTitleError) return undefined;
    throw e;
  }
}

/** The target of a `#REDIRECT [[Target]]` page, or undefined when the text is no valid redirect. */
export function redirectTarget(codec: TitleCodec, text: string): ParsedTitle | undefined {
  const rest = text.replace(/^[ \t\n\r\0\x0B]+/, '');
  if (!REDIRECT_MAGIC_WORD.test(rest)) return undefined;
  const m = REDIRECT_LINK.exec(rest.slice('#REDIRECT'.length));
  if (!m) return undefined;
  let target = m[1]!;
  if (target.includes('%')) {
    const decoded = rawurldecode(target.replace(/^:+/, ''));
    if (decoded === undefined) return undefined; // invalid UTF-8 is no valid title
    target = decoded;
  }
  const title = tryParse(codec, target);
  if (!title) return undefined;
  if (title.ns === NS_SPECIAL) return INVALID_SPECIAL_TARGETS.has(title.dbkey.split('/')[0]!) ? undefined : title;
  return title.dbkey === '' ? undefined : title;
}

/**
 * Whether the text has at least one link that would land in pagelinks: a valid title that is not
 * a file, category, media or special page (unless escaped with a leading colon) and not a bare
 * #fragment. Templates, <nowiki> and comments are not interpreted yet.
 */
export function hasPageLink(codec: TitleCodec, text: string): boolean {
  for (const m of text.matchAll(INTERNAL_LINK)) {
    const raw = m[1]!.trim();
    const title = tryParse(codec, raw);
    if (!title || title.dbkey === '' || title.ns === NS_SPECIAL || title.ns === NS_MEDIA) continue;
    const escaped = raw.startsWith(':');
    if (!escaped && (title.ns === NS_FILE || title.ns === NS_CATEGORY)) continue;
    return true;
  }
  return false;
}
