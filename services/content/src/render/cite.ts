/*
 * <ref> and <references/> (Extension:Cite 1.39): numbered footnote markers and the list of notes,
 * with named refs reused, list-defined refs, follow=, dir=, groups, responsive lists, Cite's ids
 * (cite_ref-…, cite_note-…) and its error messages (i18n/en.json), which put the page in the
 * tracking category "Pages with reference errors".
 */
import type { StripItem } from './expand.js';
import { jsonAttr } from './parsoid.js';
import { escapeAttr, escapeHtml, escapeIdForLinkAs, safeEncodeAttr, type FragmentMode } from './sanitizer.js';

interface Ref {
  group: string;
  name: string | undefined;
  /** Number within its group; unset for a follow= part whose parent came later. */
  number: number | undefined;
  /** Global key (Cite's refSequence). */
  key: number;
  /** The ref's body as written (for the duplicate check) and rendered. */
  raw: string | undefined;
  html: string | undefined;
  /** Cite's count: -1 for an anonymous ref, else uses minus one. */
  count: number;
  dir: string | undefined;
  follow: string | undefined;
}

export interface CiteState {
  /** The refs not listed yet, by group, in order (per group: filtering all refs for each new one was quadratic). */
  groups: Map<string, Ref[]>;
  /** Named refs not listed yet, by group and name (`group\0name`). */
  byName: Map<string, Ref>;
  counter: number;
  /** Groups whose list was already output. */
  listed: Set<string>;
  /** Numbers handed out per group since its last list. */
  groupSeq?: Map<string, number>;
  /** The group of the <references> whose body is being rendered (list-defined refs). */
  inReferences?: string;
  /** Errors of refs inside that body, shown after the list. */
  referencesErrors?: string[];
  /** Some Cite error was shown: the page goes in the tracking category. */
  hadError?: boolean;
  /** $wgFragmentMode's first mode, for the ids and links of refs and notes; html5 when unset. */
  fragmentMode?: FragmentMode;
}

export const CITE_ERROR_CATEGORY = 'Pages with reference errors';

/** Cite's messages (extensions/Cite/i18n/en.json), $1/$2 filled with already-escaped values. */
const MESSAGES: Record<string, string> = {
  cite_error_ref_invalid_dir: 'Invalid <code>dir="$1"</code>, must be <code>ltr</code> or <code>rtl</code>',
  cite_error_ref_numeric_key: 'Invalid <code>&lt;ref&gt;</code> tag; name cannot be a simple integer. Use a descriptive title',
  cite_error_ref_no_key: 'The opening <code>&lt;ref&gt;</code> tag is malformed or has a bad name',
  cite_error_ref_too_many_keys: 'Invalid <code>&lt;ref&gt;</code> tag; invalid names, e.g. too many',
  cite_error_ref_no_input: 'Invalid <code>&lt;ref&gt;</code> tag; refs with no name must have content',
  cite_error_references_duplicate_key: 'Invalid <code>&lt;ref&gt;</code> tag; name "$1" defined multiple times with different content',
  cite_error_references_invalid_parameters: 'Invalid parameter in <code>&lt;references&gt;</code> tag',
  cite_error_references_no_text: 'Invalid <code>&lt;ref&gt;</code> tag; no text was provided for refs named <code>$1</code>',
  cite_error_included_ref: 'Closing <code>&lt;/ref&gt;</code> missing for <code>&lt;ref&gt;</code> tag',
  cite_error_group_refs_without_references: '<code>&lt;ref&gt;</code> tags exist for a group named "$1", but no corresponding <code>&lt;references group="$1"/&gt;</code> tag was found',
  cite_error_references_group_mismatch: '<code>&lt;ref&gt;</code> tag in <code>&lt;references&gt;</code> has conflicting group attribute "$1".',
  cite_error_references_missing_group: '<code>&lt;ref&gt;</code> tag with name "$2" defined in <code>&lt;references&gt;</code> has group attribute "$1" which does not appear in prior text.',
  cite_error_references_missing_key: '<code>&lt;ref&gt;</code> tag with name "$1" defined in <code>&lt;references&gt;</code> is not used in prior text.',
  cite_error_references_no_key: '<code>&lt;ref&gt;</code> tag defined in <code>&lt;references&gt;</code> has no name attribute.',
  cite_error_empty_references_define: '<code>&lt;ref&gt;</code> tag with name "$1" defined in <code>&lt;references&gt;</code> group "$2" has no content.',
};

type CiteError = [key: string, ...params: string[]];

function errorHtml(state: CiteState, [key, ...params]: CiteError): string {
  state.hadError = true;
  const msg = MESSAGES[key]!.replace(/\$(\d)/g, (_, n: string) => params[Number(n) - 1] ?? '');
  return `<span class="error mw-ext-cite-error" lang="en" dir="ltr">Cite error: ${msg}</span>`;
}

/** AnchorFormatter::normalizeKey: the id with spaces as underscores and runs of underscores as one. */
/** AnchorFormatter::normalizeKey: Sanitizer::escapeIdForLink in the wiki's fragment mode, runs of underscores as one. */
const normalizeKey = (state: CiteState, s: string) =>
  // A name's whitespace is one space by then (Sanitizer::decodeTagAttributes on the tag's attributes).
  escapeIdForLinkAs(s.replace(/[\t\n\f\r ]+/g, ' '), state.fragmentMode ?? 'html5').replace(/__+/g, '_');

function refId(state: CiteState, r: Ref, use: number): string {
  return normalizeKey(state, r.name !== undefined ? `cite_ref-${r.name}_${r.key}-${use}` : `cite_ref-${r.key}`);
}

function noteId(state: CiteState, r: Ref): string {
  return normalizeKey(state, r.name !== undefined ? `cite_note-${r.name}-${r.key}` : `cite_note-${r.key}`);
}

const isDigits = (s: string | undefined) => s !== undefined && /^[0-9]+$/.test(s);

/** A <ref> or <references> tag inside a ref's body means its closing tag is missing (Cite's check, without its paired-tag removal, which is not linear). */
function hasOpenRefTag(text: string): boolean {
  let noComments = '';
  let at = 0;
  for (;;) {
    const open = text.indexOf('<!--', at);
    if (open < 0) break;
    noComments += text.slice(at, open);
    const close = text.indexOf('-->', open + 4);
    at = close < 0 ? text.length : close + 3;
  }
  noComments += text.slice(at);
  const m = /<ref(?:erences)?\b/i.exec(noComments);
  return m !== null && noComments.indexOf('>', m.index) >= 0;
}

const REF_ATTRS = new Set(['group', 'name', 'extends', 'follow', 'dir']);

export function renderCite(state: CiteState, item: StripItem, renderContent: (wikitext: string) => string, parsoid: boolean): string {
  return item.name === 'references' ? renderReferences(state, item, renderContent, parsoid) : renderRef(state, item, renderContent, parsoid);
}

function renderRef(state: CiteState, item: StripItem, renderContent: (wikitext: string) => string, parsoid: boolean): string {
  // Sanitizer::decodeTagAttributes trims values.
  const attrs = Object.fromEntries(Object.entries(item.attrs).map(([k, v]) => [k.toLowerCase(), v.trim()]));
  const inRefs = state.inReferences;
  const group = attrs.group ?? inRefs ?? '';
  const name = attrs.name || undefined;
  const follow = attrs.follow || undefined;
  const dir = attrs.dir;
  let text = item.content;
  const err = validateRef(state, attrs, text, group, name, follow, dir);
  if (err && inRefs !== undefined) {
    (state.referencesErrors ??= []).push(errorHtml(state, err));
    return '';
  }
  if (text !== undefined && text.trim() === '') text = undefined;
  if (inRefs !== undefined) {
    // A list-defined ref: it gives the text of a ref used earlier, and no marker.
    const ref = state.byName.get(`${group}\u0000${name}`)!;
    if (text === undefined) return '';
    if (ref.raw === undefined) {
      ref.raw = text;
      ref.html = renderContent(text);
    } else if (ref.raw !== text) ref.html += ` ${errorHtml(state, ['cite_error_references_duplicate_key', escapeHtml(name!)])}`;
    return '';
  }
  if (err) return errorHtml(state, err);

  const refs = groupRefs(state, group);
  if (follow !== undefined) {
    const parent = state.byName.get(`${group}\u0000${follow}`);
    if (parent) {
      if (text !== undefined) {
        const html = renderContent(text);
        parent.html = parent.html === undefined ? ` ${html}` : `${parent.html} ${html}`;
      }
    } else {
      refs.push({ group, name, number: undefined, key: ++state.counter, raw: text, html: text === undefined ? undefined : renderContent(text), count: -1, dir, follow });
    }
    return '';
  }
  let ref = name !== undefined ? state.byName.get(`${group}\u0000${name}`) : undefined;
  if (!ref) {
    ref = { group, name, number: undefined, key: ++state.counter, raw: text, html: undefined, count: name !== undefined ? 0 : -1, dir, follow: undefined };
    if (text !== undefined) ref.html = renderContent(text);
    refs.push(ref);
    if (name !== undefined) state.byName.set(`${group}\u0000${name}`, ref);
  } else {
    ref.count++;
    if (ref.raw === undefined && text !== undefined) {
      ref.raw = text;
      ref.html = renderContent(text);
      ref.dir = dir;
    } else if (text !== undefined && text !== ref.raw) {
      ref.html += ` ${errorHtml(state, ['cite_error_references_duplicate_key', escapeHtml(name!)])}`;
    }
  }
  if (ref.number === undefined) {
    const seq = (state.groupSeq ??= new Map());
    ref.number = (seq.get(group) ?? 0) + 1;
    seq.set(group, ref.number);
  }
  const use = Math.max(ref.count, 0);
  const label = `${group ? `${group} ` : ''}${ref.number}`;
  if (parsoid) {
    // Parsoid's data-mw: the tag's attributes, and where its body went (the list item's text).
    const dataMw = { name: 'ref', attrs: item.attrs, ...(text !== undefined ? { body: { id: `mw-reference-text-${noteId(state, ref)}` } } : {}) };
    return `<sup class="mw-ref reference" id="${safeEncodeAttr(refId(state, ref, use))}" rel="dc:references" typeof="mw:Extension/ref" data-mw='${jsonAttr(dataMw)}'><a href="#${escapeAttr(noteId(state, ref))}"><span class="mw-reflink-text">[${label}]</span></a></sup>`;
  }
  return `<sup id="${safeEncodeAttr(refId(state, ref, use))}" class="reference"><a href="#${escapeAttr(noteId(state, ref))}">&#91;${safeEncodeAttr(label)}&#93;</a></sup>`;
}

function groupRefs(state: CiteState, group: string): Ref[] {
  let refs = state.groups.get(group);
  if (!refs) {
    refs = [];
    state.groups.set(group, refs);
  }
  return refs;
}

/** Cite::validateRef: the first error of a <ref>, if any. */
function validateRef(
  state: CiteState,
  attrs: Record<string, string>,
  text: string | undefined,
  group: string,
  name: string | undefined,
  follow: string | undefined,
  dir: string | undefined,
): CiteError | undefined {
  if (isDigits(name) || isDigits(attrs.extends) || isDigits(follow)) return ['cite_error_ref_numeric_key'];
  // Book referencing (extends=) is off in 1.39's default configuration; unknown attributes are "too many".
  if (attrs.extends || Object.keys(attrs).some((k) => !REF_ATTRS.has(k))) return ['cite_error_ref_too_many_keys'];
  if (follow && name) return ['cite_error_ref_too_many_keys'];
  if (dir !== undefined && !['ltr', 'rtl'].includes(dir.toLowerCase())) return ['cite_error_ref_invalid_dir', escapeHtml(dir)];
  if (state.inReferences === undefined) {
    if (!name) {
      if (text === undefined) return ['cite_error_ref_no_key'];
      if (text.trim() === '') return ['cite_error_ref_no_input'];
    }
    if (text !== undefined && hasOpenRefTag(text)) return ['cite_error_included_ref'];
    return undefined;
  }
  if (group !== state.inReferences) return ['cite_error_references_group_mismatch', safeEncodeAttr(group)];
  if (!name) return ['cite_error_references_no_key'];
  if (text === undefined || text.trim() === '') return ['cite_error_empty_references_define', safeEncodeAttr(name), safeEncodeAttr(group)];
  if (!state.groups.has(group)) return ['cite_error_references_missing_group', safeEncodeAttr(group), safeEncodeAttr(name)];
  if (!state.byName.has(`${group}\u0000${name}`)) return ['cite_error_references_missing_key', safeEncodeAttr(name)];
  return undefined;
}

function renderReferences(state: CiteState, item: StripItem, renderContent: (wikitext: string) => string, parsoid: boolean): string {
  const attrs = Object.fromEntries(Object.entries(item.attrs).map(([k, v]) => [k.toLowerCase(), v.trim()]));
  // Nested <references> are not lists of their own.
  if (state.inReferences !== undefined) return '';
  const group = attrs.group ?? '';
  const invalid = Object.keys(attrs).some((k) => k !== 'group' && k !== 'responsive');
  state.inReferences = group;
  try {
    if (item.content && item.content.trim() !== '') renderContent(item.content);
  } finally {
    state.inReferences = undefined;
  }
  if (invalid) {
    state.referencesErrors = [];
    return errorHtml(state, ['cite_error_references_invalid_parameters']);
  }
  state.listed.add(group);
  let html = formatList(state, group, attrs.responsive === undefined ? true : attrs.responsive !== '0', parsoid, item);
  if (state.referencesErrors?.length) {
    html += `\n${state.referencesErrors.join('<br />\n')}`;
    state.referencesErrors = [];
  }
  return html;
}

/** Lists and forgets a group's refs: later refs of the group start a new list. */
function formatList(state: CiteState, group: string, responsive: boolean, parsoid: boolean, item: StripItem): string {
  const refs = state.groups.get(group) ?? [];
  state.groups.delete(group);
  state.groupSeq?.delete(group);
  for (const r of refs) if (r.name !== undefined) state.byName.delete(`${group}\u0000${r.name}`);
  const groupAttr = group && parsoid ? ` data-mw-group="${safeEncodeAttr(group)}"` : '';
  // Parsoid keeps an empty list and says whether the list was written or added (html→wikitext needs both).
  const dataMw = parsoid ? ` data-mw='${jsonAttr({ name: 'references', attrs: item.attrs, ...(item.src === '' ? { autoGenerated: true } : {}) })}'` : '';
  if (refs.length === 0) return parsoid ? `<div class="mw-references-wrap" typeof="mw:Extension/references"${dataMw}><ol class="mw-references references"${groupAttr}></ol></div>` : '';
  // Follow= parts without a parent sort first (they have no number), as Cite's uasort.
  const sorted = [...refs.filter((r) => r.number === undefined), ...refs.filter((r) => r.number !== undefined)];
  const items = sorted.map((r) => {
    const text = r.html === undefined ? errorHtml(state, ['cite_error_references_no_text', escapeHtml(r.name ?? String(r.key))]) : undefined;
    if (r.follow !== undefined && !parsoid) return `<p id="${safeEncodeAttr(normalizeKey(state, `cite_note-${r.follow}`))}"><span class="reference-text">${r.html ?? ''}</span>\n</p>`;
    let back: string;
    if (r.count < 1) {
      back = parsoid ? `<a href="#${escapeAttr(refId(state, r, 0))}" rel="mw:referencedBy"><span class="mw-linkback-text">↑ </span></a>` : `<a href="#${escapeAttr(refId(state, r, 0))}">↑</a>`;
    } else {
      const width = String(r.count).length;
      const links = Array.from({ length: r.count + 1 }, (_, i) => `<sup><a href="#${escapeAttr(refId(state, r, i))}">${r.number}.${String(i).padStart(width, '0')}</a></sup>`);
      back = `↑ ${links.join(' ')}`;
    }
    const dirClass = r.dir !== undefined ? ` class="mw-cite-dir-${escapeAttr(r.dir.toLowerCase())}"` : '';
    if (parsoid)
      return `<li id="${safeEncodeAttr(noteId(state, r))}"${dirClass}><span class="mw-cite-backlink">${back}</span> <span id="mw-reference-text-${safeEncodeAttr(noteId(state, r))}" class="mw-reference-text reference-text">${text ?? r.html}</span></li>`;
    return `<li id="${safeEncodeAttr(noteId(state, r))}"${dirClass}><span class="mw-cite-backlink">${back}</span> ${text ?? `<span class="reference-text">${r.html}</span>\n`}</li>`;
  });
  if (parsoid) return `<div class="mw-references-wrap" typeof="mw:Extension/references"${dataMw}><ol class="mw-references references"${groupAttr}>${items.join('')}</ol></div>`;
  const list = `<ol class="references">\n${items.join('\n')}\n</ol>`;
  if (!responsive) return list;
  return `<div class="mw-references-wrap${refs.length > 10 ? ' mw-references-columns' : ''}">${list}</div>`;
}

/** What Cite adds at the end of the page (ParserAfterParse): the default group's unlisted refs, an error for other groups'. */
export function citeLeftovers(state: CiteState, parsoid: boolean): string {
  let s = '';
  for (const group of [...state.groups.keys()]) {
    if ((state.groups.get(group) ?? []).length === 0) continue;
    if (group === '') s += formatList(state, group, true, parsoid, { name: 'references', attrs: {}, content: undefined, src: '' });
    else {
      state.groups.delete(group);
      s += `<br />${errorHtml(state, ['cite_error_group_refs_without_references', safeEncodeAttr(group)])}`;
    }
  }
  return s === '' ? '' : `\n${s}`;
}
