import { invalidArgument } from '@quire/kit';
import { NS_MEDIAWIKI, NS_USER } from '../title/namespaces.js';

/*
 * Content models and formats of MediaWiki 1.39's core handlers ($wgContentHandlers): all are text
 * models with one serialization format each; wikitext alone has sections.
 */

export const CONTENT_MODELS = ['wikitext', 'javascript', 'json', 'css', 'text'] as const;
export type ContentModel = (typeof CONTENT_MODELS)[number];

const DEFAULT_FORMAT: Record<ContentModel, string> = {
  wikitext: 'text/x-wiki',
  javascript: 'text/javascript',
  json: 'application/json',
  css: 'text/css',
  text: 'text/plain',
};

export const CONTENT_FORMATS: readonly string[] = Object.values(DEFAULT_FORMAT);

export function isContentModel(model: string): model is ContentModel {
  return (CONTENT_MODELS as readonly string[]).includes(model);
}

export function defaultFormat(model: ContentModel): string {
  return DEFAULT_FORMAT[model];
}

export const supportsSections = (model: ContentModel) => model === 'wikitext';

/**
 * MainSlotRoleHandler::getDefaultModel: scripts and styles by suffix in the MediaWiki namespace
 * and on user subpages, wikitext everywhere else.
 */
export function defaultModelFor(ns: number, dbkey: string): ContentModel {
  if (ns === NS_MEDIAWIKI || (ns === NS_USER && dbkey.includes('/'))) {
    if (dbkey.endsWith('.js')) return 'javascript';
    if (dbkey.endsWith('.css')) return 'css';
    if (dbkey.endsWith('.json')) return 'json';
  }
  return 'wikitext';
}

/** TextContent::normalizeLineEndings, which every text model's pre-save transform applies. */
export function normalizeLineEndings(text: string): string {
  return text.replace(/\r\n?/g, '\n').trimEnd();
}

type JsonToken = { kind: 'punct'; value: string } | { kind: 'scalar'; value: string };

const JSON_TOKEN = /\s*(?:([{}[\],:])|("(?:[^"\\]|\\.)*")|(-?\d[\d.eE+-]*|true|false|null))/y;

/**
 * JsonContent::beautifyJSON: the document re-serialized with tab indentation as PHP's
 * FormatJson::encode( …, "\t", UTF8_OK ) writes it — object keys keep their order (JavaScript's
 * JSON.parse would move integer-like keys first), strings are re-encoded without escaping "/" or
 * non-ASCII characters. `text` must be valid JSON.
 */
function beautifyJson(text: string): string {
  const tokens: JsonToken[] = [];
  JSON_TOKEN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (JSON_TOKEN.lastIndex < text.length && (m = JSON_TOKEN.exec(text))) {
    if (m[1]) tokens.push({ kind: 'punct', value: m[1] });
    else if (m[2]) tokens.push({ kind: 'scalar', value: JSON.stringify(JSON.parse(m[2]) as string) });
    else if (m[3]) tokens.push({ kind: 'scalar', value: m[3] });
    else break;
  }
  let out = '';
  let depth = 0;
  const indent = () => `\n${'\t'.repeat(depth)}`;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    if (t.kind === 'scalar') out += t.value;
    else if (t.value === '{' || t.value === '[') {
      const empty = next?.kind === 'punct' && (next.value === '}' || next.value === ']');
      if (empty) {
        out += t.value + next.value;
        i++;
      } else {
        depth++;
        out += t.value + indent();
      }
    } else if (t.value === '}' || t.value === ']') {
      depth--;
      out += indent() + t.value;
    } else if (t.value === ',') out += `,${indent()}`;
    else out += ': ';
  }
  return out;
}

/**
 * The pre-save transform and validation of a model (ContentHandler::preSaveTransform +
 * validateSave): line endings and trailing whitespace for every model; JSON must parse
 * (MediaWiki's `invalid-json-data`) and is pretty-printed.
 */
export function prepareContent(model: ContentModel, text: string): string {
  const normalized = normalizeLineEndings(text);
  if (model !== 'json') return normalized;
  try {
    JSON.parse(normalized);
  } catch {
    throw invalidArgument('invalid-json-data', 'Invalid JSON: Syntax error');
  }
  return beautifyJson(normalized);
}
