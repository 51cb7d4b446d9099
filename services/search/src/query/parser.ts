/*
 * The wiki's search syntax, parsed once into an engine-neutral form:
 *   words (implicit AND), OR, -word / NOT word, "phrases", word* (prefix), intitle:word or
 *   intitle:"phrase", prefix:Title start (takes the rest of the query), and a namespace prefix at
 *   the start ("Talk:foo", "all:foo").
 * AND binds tighter than OR: `a b OR c` is (a AND b) OR c.
 */

export interface Literal {
  kind: 'word' | 'phrase';
  text: string;
  /** word*: matches words starting with `text`. */
  prefix: boolean;
  negated: boolean;
  /** intitle: matches the title only. */
  titleOnly: boolean;
}

export interface ParsedQuery {
  /** OR of AND-groups; every group has at least one literal. */
  groups: Literal[][];
  /** prefix: filter, the title start as written ("Help:Foo"); undefined when absent. */
  titlePrefix?: string;
  /** Namespaces from a namespace prefix ("all" for all:); undefined: the request's namespaces. */
  namespaces?: number[] | 'all';
  /** The words and phrases to highlight (positive literals). */
  highlight: string[];
}

/** Namespace names (lower-case, spaces) → id, for "Talk:foo"; from the content service. */
export type NamespaceLookup = (name: string) => number | undefined;

const TOKEN = /\s*(-?)(intitle:|prefix:)?("([^"]*)"?|[^\s"]+)/y;

function namespacePrefix(query: string, lookup: NamespaceLookup): { rest: string; namespaces?: number[] | 'all' } {
  const m = /^\s*([^:"\s][^:"]*?)\s*:(.*)$/s.exec(query);
  if (!m) return { rest: query };
  const name = m[1]!.toLowerCase().replace(/_/g, ' ');
  if (name === 'all') return { rest: m[2]!, namespaces: 'all' };
  if (name === 'intitle' || name === 'prefix') return { rest: query };
  const ns = lookup(name);
  return ns === undefined ? { rest: query } : { rest: m[2]!, namespaces: [ns] };
}

export function parseQuery(input: string, lookup: NamespaceLookup): ParsedQuery {
  const { rest, namespaces } = namespacePrefix(input, lookup);
  let text = rest;
  let titlePrefix: string | undefined;
  // prefix: takes everything after it (titles contain spaces).
  const p = /(?:^|\s)prefix:(.*)$/s.exec(text);
  if (p) {
    titlePrefix = p[1]!.trim().replace(/_/g, ' ');
    text = text.slice(0, p.index);
  }
  const groups: Literal[][] = [[]];
  let negateNext = false;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    const [, minus, field, raw, quoted] = m;
    if (quoted === undefined && field === undefined && minus === '') {
      if (raw === 'OR') {
        if (groups[groups.length - 1]!.length > 0) groups.push([]);
        continue;
      }
      if (raw === 'AND') continue;
      if (raw === 'NOT') {
        negateNext = true;
        continue;
      }
    }
    const negated = minus === '-' || negateNext;
    negateNext = false;
    const isPhrase = quoted !== undefined;
    let body = isPhrase ? quoted : raw!;
    const prefix = !isPhrase && body.endsWith('*') && body.length > 1;
    if (prefix) body = body.replace(/\*+$/, '');
    body = body.trim();
    if (body === '' || !/[\p{L}\p{N}]/u.test(body)) continue;
    groups[groups.length - 1]!.push({
      kind: isPhrase || /\s/.test(body) ? 'phrase' : 'word',
      text: body,
      prefix,
      negated,
      titleOnly: field === 'intitle:',
    });
  }
  const nonEmpty = groups.filter((g) => g.length > 0);
  return {
    groups: nonEmpty,
    ...(titlePrefix !== undefined && titlePrefix !== '' ? { titlePrefix } : {}),
    ...(namespaces !== undefined ? { namespaces } : {}),
    highlight: nonEmpty
      .flat()
      .filter((l) => !l.negated)
      .map((l) => l.text),
  };
}

/** True when nothing positive is asked for (only negations, or nothing at all): no results. */
export function isEmptyQuery(q: ParsedQuery): boolean {
  return !q.groups.some((g) => g.some((l) => !l.negated)) && q.titlePrefix === undefined;
}
