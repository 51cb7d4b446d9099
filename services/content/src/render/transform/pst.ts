/*
 * The pre-save transform of wikitext (MediaWiki's Parser::preSaveTransform): `{{subst:…}}` and
 * `{{safesubst:…}}` expanded, signatures (`~~~` name, `~~~~` name and time, `~~~~~` time), the
 * pipe trick (`[[ns:Page (context)|]]`, `[[|Page]]`) and trailing whitespace. Text inside
 * `<nowiki>`, `<pre>` and comments is left alone, as MediaWiki's strip state leaves it.
 */

export interface PstUser {
  name: string;
  anonymous: boolean;
}

export interface PstContext {
  /** Prefixed text of the page being saved. */
  title: string;
  /** Its text without the namespace (Title::getText), for the reverse pipe trick; else `title` without its first prefix. */
  titleText?: string;
  user: PstUser;
  now: Date;
  /** Expands the wikitext of one substitution (`{{Template|…}}` without its subst: prefix). */
  expand(wikitext: string): Promise<string>;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `H:i, j F Y (T)` in UTC: the signature's timestamp ($wgLocaltimezone is UTC here). */
export function signatureTimestamp(d: Date): string {
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${hh}:${mm}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} (UTC)`;
}

/** MediaWiki's `signature` / `signature-anon` messages (no custom nickname preference). */
export function signatureText(user: PstUser): string {
  return user.anonymous ? `[[Special:Contributions/${user.name}|${user.name}]]` : `[[User:${user.name}|${user.name}]] ([[User talk:${user.name}|talk]])`;
}

/** Regions the transform must not touch: nowiki, pre, comments. */
const PROTECTED_RE = /<nowiki(?:\s[^>]*)?>[\s\S]*?(?:<\/nowiki\s*>|$)|<pre(?:\s[^>]*)?>[\s\S]*?(?:<\/pre\s*>|$)|<!--[\s\S]*?(?:-->|$)/gi;

/** Applies `f` to the text outside protected regions. */
async function outsideProtected(text: string, f: (s: string) => Promise<string> | string): Promise<string> {
  let out = '';
  let at = 0;
  for (const m of text.matchAll(PROTECTED_RE)) {
    out += (await f(text.slice(at, m.index))) + m[0];
    at = m.index + m[0].length;
  }
  return out + (await f(text.slice(at)));
}

const SUBST_RE = /\{\{\s*(?:safe)?subst:/gi;

/** The end (exclusive) of the `{{…}}` opened at `start`, by brace nesting; -1 when unclosed. */
function closingBraces(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length - 1; i++) {
    if (text[i] === '{' && text[i + 1] === '{') {
      depth++;
      i++;
    } else if (text[i] === '}' && text[i + 1] === '}') {
      depth--;
      i++;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

async function substitute(text: string, ctx: PstContext): Promise<string> {
  let out = '';
  let at = 0;
  SUBST_RE.lastIndex = 0;
  for (let m = SUBST_RE.exec(text); m; m = SUBST_RE.exec(text)) {
    const end = closingBraces(text, m.index);
    if (end < 0) break;
    // Nested substitutions expand with their container.
    const inner = `{{${text.slice(m.index + m[0].length, end).replace(SUBST_RE, '{{')}`;
    out += text.slice(at, m.index) + (await ctx.expand(inner));
    at = end;
    SUBST_RE.lastIndex = end;
  }
  return out + text.slice(at);
}

// Title::legalChars(), and the namespace characters of Parser::pstPass2.
const TC = `[ %!"$&'()*,\\-./0-9:;=?@A-Z\\\\^_\`a-z~\\x80-\\uFFFF+]`;
const NC = '[ _0-9A-Za-z\\x80-\\uFFFF-]';
const PIPE_CONTEXT = new RegExp(`\\[\\[(:?${NC}+:|:|)(${TC}+?)( ?\\(${TC}+\\))\\|]]`, 'g');
const PIPE_FULLWIDTH = new RegExp(`\\[\\[(:?${NC}+:|:|)(${TC}+?)( ?（${TC}+）)\\|]]`, 'g');
const PIPE_COMMA = new RegExp(`\\[\\[(:?${NC}+:|:|)(${TC}+?)( ?\\(${TC}+\\)|)((?:, |，|، )${TC}+|)\\|]]`, 'g');
const PIPE_REVERSE = new RegExp(`\\[\\[\\|(${TC}+)]]`, 'g');
const TITLE_PARENS = new RegExp(`^(${NC}+:|)${TC}+?( \\(${TC}+\\))$`);
const TITLE_COMMA = new RegExp(`^(${NC}+:|)${TC}+?(, ${TC}+|)$`);

/**
 * Parser::pstPass2's pipe trick. `titleText` is the page's title without its namespace
 * (Title::getText: a colon in it is part of the name, as "Ns:Page" in the main namespace), whose
 * "(context)" or ", context" — with that leading "Ns:" — a `[[|Page]]` link takes.
 */
export function pipeTrick(text: string, titleText: string): string {
  text = text.replace(PIPE_CONTEXT, '[[$1$2$3|$2]]').replace(PIPE_FULLWIDTH, '[[$1$2$3|$2]]').replace(PIPE_COMMA, '[[$1$2$3$4|$2]]');
  const m = TITLE_PARENS.exec(titleText) ?? TITLE_COMMA.exec(titleText);
  if (m && `${m[1]}${m[2]}` !== '') return text.replace(PIPE_REVERSE, (_all, page: string) => `[[${m[1]}${page}${m[2]}|${page}]]`);
  // Without context the title would only be repeated.
  return text.replace(PIPE_REVERSE, '[[$1]]');
}

export async function preSaveTransform(text: string, ctx: PstContext): Promise<string> {
  text = text.replace(/\r\n?/g, '\n');
  const sig = signatureText(ctx.user);
  const time = signatureTimestamp(ctx.now);
  const out = await outsideProtected(text, async (part) => {
    part = await substitute(part, ctx);
    part = part.replace(/~~~~~|~~~~|~~~/g, (m) => (m.length === 5 ? time : m.length === 4 ? `${sig} ${time}` : sig));
    return pipeTrick(part, ctx.titleText ?? ctx.title.replace(/^[^:]*:/, ''));
  });
  return out.replace(/[ \t\n\r\0\x0B]+$/, '');
}
