import { redirectTarget } from '../content/wikitext.js';
import type { TitleCodec } from '../title/codec.js';
import type { ContentModel } from './models.js';

/*
 * ContentHandler::getChangeType and what follows from it: the automatic summary of an edit
 * without one (getAutosummary) and the software change tag (getChangeTag).
 */

export interface ContentSnapshot {
  model: ContentModel;
  text: string;
}

type ChangeType = 'blank' | 'new-redirect' | 'changed-redirect-target' | 'removed-redirect' | 'newpage' | 'newblank' | 'replace' | 'contentmodelchange';

/** CommentStore::COMMENT_CHARACTER_LIMIT, in bytes as Language::truncateForDatabase counts. */
const SUMMARY_LIMIT = 500;
const ELLIPSIS = '...';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

function target(codec: TitleCodec, c: ContentSnapshot | undefined) {
  return c && c.model === 'wikitext' ? redirectTarget(codec, c.text) : undefined;
}

function fullText(codec: TitleCodec, t: { ns: number; dbkey: string; fragment: string }): string {
  return codec.prefixedText(t.ns, t.dbkey) + (t.fragment ? `#${t.fragment}` : '');
}

function changeType(codec: TitleCodec, old: ContentSnapshot | undefined, next: ContentSnapshot): ChangeType | undefined {
  const oldTarget = target(codec, old);
  const newTarget = target(codec, next);
  if (old && bytes(old.text) > 0 && bytes(next.text) === 0) return 'blank';
  if (newTarget) {
    if (!oldTarget) return 'new-redirect';
    if (fullText(codec, newTarget) !== fullText(codec, oldTarget)) return 'changed-redirect-target';
  } else if (oldTarget) {
    return 'removed-redirect';
  }
  if (!old) return bytes(next.text) === 0 ? 'newblank' : 'newpage';
  if (bytes(old.text) > 10 * bytes(next.text)) return 'replace';
  if (old.model !== next.model) return 'contentmodelchange';
  return undefined;
}

/** Language::truncateForDatabase: at most `max` bytes including the ellipsis, whole characters only. */
function truncate(text: string, max: number): string {
  if (bytes(text) <= max) return text;
  let out = '';
  for (const ch of text) {
    if (bytes(out + ch) > max - ELLIPSIS.length) break;
    out += ch;
  }
  return out + ELLIPSIS;
}

/** TextContent/WikitextContent::getTextForSummary: one line, truncated, no dangling link. */
function textForSummary(c: ContentSnapshot, max: number): string {
  const t = truncate(c.text.replace(/[\n\r]/g, ' '), Math.max(0, max));
  return c.model === 'wikitext' ? t.replace(/\[\[([^\]]*)\]?$/, '$1') : t;
}

export interface ChangeFacts {
  /** The automatic summary for an edit given without one ("" when none applies), in English. */
  autoSummary: string;
  /** The message it is made of (its key and parameters), for the wiki's own text of it. */
  message?: { key: string; params: string[] };
  /** The software tag of the change, if any (mw-blank, mw-new-redirect, …). */
  tag?: string;
}

const TAGGED: ReadonlySet<ChangeType> = new Set(['blank', 'new-redirect', 'changed-redirect-target', 'removed-redirect', 'replace', 'contentmodelchange']);

export function describeChange(codec: TitleCodec, old: ContentSnapshot | undefined, next: ContentSnapshot): ChangeFacts {
  const type = changeType(codec, old, next);
  if (!type) return { autoSummary: '' };
  const tag = TAGGED.has(type) ? `mw-${type}` : undefined;
  const withTag = (autoSummary: string, key?: string, ...params: string[]): ChangeFacts => ({
    autoSummary,
    ...(key ? { message: { key, params } } : {}),
    ...(tag ? { tag } : {}),
  });
  const room = (template: string) => SUMMARY_LIMIT - bytes(template);
  switch (type) {
    case 'new-redirect': {
      const to = fullText(codec, target(codec, next)!);
      return withTag(`Redirected page to [[${to}]]`, 'autoredircomment', to);
    }
    case 'changed-redirect-target': {
      const from = fullText(codec, target(codec, old)!);
      const to = fullText(codec, target(codec, next)!);
      return withTag(`Changed redirect target from [[${from}]] to [[${to}]]`, 'autosumm-changed-redirect-target', from, to);
    }
    case 'removed-redirect': {
      const from = fullText(codec, target(codec, old)!);
      return withTag(`Removed redirect to [[${from}]]`, 'autosumm-removed-redirect', from);
    }
    case 'newpage': {
      const text = textForSummary(next, room('Created page with "$1"'));
      return withTag(`Created page with "${text}"`, 'autosumm-new', text);
    }
    case 'blank':
      return withTag('Blanked the page', 'autosumm-blank');
    case 'replace': {
      const text = textForSummary(next, room('Replaced content with "$1"'));
      return withTag(`Replaced content with "${text}"`, 'autosumm-replace', text);
    }
    case 'newblank':
      return withTag('Created blank page', 'autosumm-newblank');
    case 'contentmodelchange':
      return withTag('');
  }
}
