/*
 * <ref> and <references/> (Extension:Cite): numbered footnote markers and the list of notes,
 * with named refs reused, groups, and Cite's ids (cite_ref-…, cite_note-…).
 */
import type { StripItem } from './expand.js';
import { escapeAttr, safeEncodeAttr } from './sanitizer.js';

interface Ref {
  group: string;
  name: string | undefined;
  /** Number within its group. */
  number: number;
  /** Global key (Cite's counter over all refs). */
  key: number;
  html: string | undefined;
  uses: number;
}

export interface CiteState {
  refs: Ref[];
  byName: Map<string, Ref>;
  counter: number;
  /** Groups whose list was already output. */
  listed: Set<string>;
}

const idPart = (s: string) => s.replace(/[\t\n\f\r ]+/g, '_');

function refId(r: Ref, use: number): string {
  return r.name !== undefined ? `cite_ref-${idPart(r.name)}_${r.key}-${use}` : `cite_ref-${r.key}`;
}

function noteId(r: Ref): string {
  return r.name !== undefined ? `cite_note-${idPart(r.name)}-${r.key}` : `cite_note-${r.key}`;
}

const error = (msg: string) => `<span class="error mw-ext-cite-error" lang="en" dir="ltr">Cite error: ${msg}</span>`;

export function renderCite(state: CiteState, item: StripItem, renderContent: (wikitext: string) => string, parsoid: boolean): string {
  const group = item.attrs.group ?? '';
  if (item.name === 'references') {
    if (item.content && item.content.trim() !== '') renderContent(item.content);
    state.listed.add(group);
    const refs = state.refs.filter((r) => r.group === group);
    // Listed refs are done: later refs of the group start a new list.
    state.refs = state.refs.filter((r) => r.group !== group);
    for (const [k, r] of state.byName) if (r.group === group) state.byName.delete(k);
    if (refs.length === 0) return '';
    const items = refs.map((r) => {
      let back: string;
      if (r.uses <= 1) {
        back = parsoid
          ? `<a href="#${escapeAttr(refId(r, 0))}" rel="mw:referencedBy"><span class="mw-linkback-text">↑ </span></a>`
          : `<a href="#${escapeAttr(refId(r, 0))}">↑</a>`;
      } else {
        const links = Array.from({ length: r.uses }, (_, i) => `<sup><a href="#${escapeAttr(refId(r, i))}">${r.number}.${i}</a></sup>`);
        back = `↑ ${links.join(' ')}`;
      }
      const text = r.html ?? error(`The named reference <code>${r.name ?? ''}</code> was invoked but never defined.`);
      if (parsoid) return `<li id="${safeEncodeAttr(noteId(r))}"><span class="mw-cite-backlink">${back}</span> <span id="mw-reference-text-${safeEncodeAttr(noteId(r))}" class="mw-reference-text reference-text">${text}</span></li>`;
      return `<li id="${safeEncodeAttr(noteId(r))}"><span class="mw-cite-backlink">${back}</span> <span class="reference-text">${text}</span>\n</li>`;
    });
    const groupAttr = group ? ` data-mw-group="${safeEncodeAttr(group)}"` : '';
    if (parsoid) return `<div class="mw-references-wrap" typeof="mw:Extension/references"><ol class="mw-references references"${groupAttr}>${items.join('')}</ol></div>`;
    return `<div class="mw-references-wrap"><ol class="references"${groupAttr}>\n${items.join('\n')}\n</ol></div>`;
  }
  const name = item.attrs.name?.trim() || undefined;
  const content = item.content?.trim() ? item.content : undefined;
  if (name === undefined && content === undefined) return error('Invalid <code>&lt;ref&gt;</code> tag; refs with no content must have a name.');
  let ref = name !== undefined ? state.byName.get(`${group}\u0000${name}`) : undefined;
  if (!ref) {
    state.counter++;
    ref = { group, name, number: state.refs.filter((r) => r.group === group).length + 1, key: state.counter, html: undefined, uses: 0 };
    state.refs.push(ref);
    if (name !== undefined) state.byName.set(`${group}\u0000${name}`, ref);
  }
  if (content !== undefined && ref.html === undefined) ref.html = renderContent(content);
  const use = ref.uses++;
  const label = `${group ? `${group} ` : ''}${ref.number}`;
  if (parsoid) {
    return `<sup class="mw-ref reference" id="${safeEncodeAttr(refId(ref, use))}" rel="dc:references" typeof="mw:Extension/ref"><a href="#${escapeAttr(noteId(ref))}"><span class="mw-reflink-text">[${label}]</span></a></sup>`;
  }
  return `<sup id="${safeEncodeAttr(refId(ref, use))}" class="reference"><a href="#${escapeAttr(noteId(ref))}">&#91;${label}&#93;</a></sup>`;
}
