/*
 * Reads MediaWiki's parser test files (format version 2), as Parsoid's TestFileReader and its
 * Grammar.pegphp do in MediaWiki 1.39: `!! test` … `!! end` items with named sections,
 * `!! options` / `!! config` parsed into values, `!! article` / `!! text` / `!! endarticle`,
 * `!! hooks` / `!! functionhooks`, `#` comments. A section's text is its lines joined by "\n"
 * (no trailing newline), as the grammar's `text` rule.
 *
 * Each test also gets a `section`: the nearest preceding `### Heading` comment line (exactly three
 * `#`; the first such line of a comment block; lines of only `#` are rules, not headings), or '' when the file
 * has none before it (the caller then uses the file name).
 */

const BANG = /^!!\s*/;

/** The keyword of a `!!` line (`!! html/php` → `html/php`), lower-cased for the fixed ones. */
function keyword(line) {
  const m = /^!!\s*([^\s:]+):?\s*/.exec(line);
  return m ? m[1] : '';
}

/**
 * One `!! options` value list, as the grammar's an_option rule: `name`, `name=value`,
 * `name="quoted"`, `name=[[link target]]`, `name={json}`, `name=a,"b",[[c]]`. Names are
 * lower-cased; a bare name is ''; a list of several values is an array.
 */
export function parseOptions(text) {
  const out = {};
  let i = 0;
  const ws = () => {
    while (i < text.length && /[ \t\n]/.test(text[i])) i++;
  };
  const value = () => {
    if (text.startsWith('[[', i)) {
      const end = text.indexOf(']]', i + 2);
      const v = text.slice(i + 2, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end + 2;
      return v;
    }
    if (text[i] === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"' && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      const raw = text.slice(i, j + 1);
      i = j + 1;
      return JSON.parse(raw);
    }
    if (text[i] === '{' || text[i] === '[') {
      // Balanced braces/brackets, skipping quoted strings: a JSON value.
      const open = text[i];
      const close = open === '{' ? '}' : ']';
      let depth = 0;
      let j = i;
      for (; j < text.length; j++) {
        const c = text[j];
        if (c === '"') {
          j++;
          while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
        } else if (c === open) depth++;
        else if (c === close && --depth === 0) break;
      }
      const raw = text.slice(i, j + 1);
      i = j + 1;
      try {
        return JSON.parse(raw);
      } catch {
        return raw;
      }
    }
    const m = /^[^ \t\n"'[\]=,!{]+/.exec(text.slice(i));
    const v = m ? m[0] : '';
    i += v.length;
    return v;
  };
  for (;;) {
    ws();
    if (i >= text.length) break;
    const m = /^[^ \t\n=!]+/.exec(text.slice(i));
    if (!m) {
      i++;
      continue;
    }
    const name = m[0].toLowerCase();
    i += m[0].length;
    let j = i;
    while (j < text.length && /[ \t]/.test(text[j])) j++;
    if (text[j] !== '=') {
      out[name] = '';
      continue;
    }
    i = j + 1;
    while (i < text.length && /[ \t]/.test(text[i])) i++;
    const values = [value()];
    for (;;) {
      let k = i;
      while (k < text.length && /[ \t]/.test(text[k])) k++;
      if (text[k] !== ',') break;
      i = k + 1;
      while (i < text.length && /[ \t]/.test(text[i])) i++;
      values.push(value());
    }
    out[name] = values.length === 1 ? values[0] : values;
  }
  return out;
}

/** `!! config` lines: `name=json value` each. */
export function parseConfig(text) {
  const out = {};
  for (const line of text.split('\n')) {
    const m = /^([^ \t\n=!]+)\s*=\s*(.*)$/.exec(line.trim());
    if (!m) continue;
    try {
      out[m[1]] = JSON.parse(m[2]);
    } catch {
      out[m[1]] = m[2];
    }
  }
  return out;
}

/** Reads one file's text: { fileOptions, requirements, articles, tests }. */
export function readTestFile(source) {
  const lines = source.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const file = { fileOptions: {}, requirements: [], articles: [], tests: [] };
  let i = 0;
  let heading = '';
  let inHeadingBlock = false;
  let seenChunk = false;
  /** Lines up to the next `!!` line. */
  const textLines = () => {
    const out = [];
    while (i < lines.length && !lines[i].startsWith('!!')) out.push(lines[i++]);
    return out;
  };
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith('#')) {
      const h = /^###(?!#)\s*(.*\S)\s*$/.exec(line);
      if (h && !/^#+$/.test(h[1])) {
        if (!inHeadingBlock) heading = h[1];
        inHeadingBlock = true;
      }
      i++;
      continue;
    }
    if (!BANG.test(line)) {
      // Blank lines keep a heading block open (`###`, `### Title`, `###` may be spaced out);
      // any other stray line is ignored, as TestFileReader warns and ignores it.
      i++;
      continue;
    }
    inHeadingBlock = false;
    const kw = keyword(line).toLowerCase();
    i++;
    if (kw === 'version') {
      file.fileOptions.version = (/version\s+([0-9]+)/i.exec(line) ?? [])[1] ?? '';
    } else if (kw === 'options' && !seenChunk) {
      Object.assign(file.fileOptions, parseOptions(textLines().join('\n')));
      if (i < lines.length && keyword(lines[i]).toLowerCase() === 'end') i++;
    } else if (kw === 'article') {
      const title = lines[i++] ?? '';
      if (keyword(lines[i] ?? '').toLowerCase() === 'text') i++;
      const text = textLines().join('\n');
      if (i < lines.length && /^(endarticle|end)$/i.test(keyword(lines[i]))) i++;
      file.articles.push({ title: title.trim(), text });
      seenChunk = true;
    } else if (kw === 'hooks' || kw === 'functionhooks') {
      for (const name of textLines()) if (name.trim()) file.requirements.push({ type: kw === 'hooks' ? 'hook' : 'functionHook', name: name.trim() });
      if (i < lines.length && /^end/i.test(keyword(lines[i]))) i++;
      seenChunk = true;
    } else if (kw === 'test') {
      const name = textLines().join('\n');
      const test = { name, section: heading, line: i, sections: {}, options: {}, config: {} };
      while (i < lines.length) {
        const skw = keyword(lines[i]);
        i++;
        if (/^end$/i.test(skw)) break;
        const body = textLines().join('\n');
        if (skw.toLowerCase() === 'options') test.options = parseOptions(body);
        else if (skw.toLowerCase() === 'config') test.config = parseConfig(body);
        else test.sections[skw] = body;
      }
      const s = test.sections;
      test.wikitext = s.wikitext ?? s.input ?? null;
      // Test::LEGACY_HTML_KEYS, in priority order.
      test.legacyHtml = s['html/php'] ?? s['html/*'] ?? s.html ?? s.result ?? s['html/php+tidy'] ?? s['html/*+tidy'] ?? s['html+tidy'] ?? null;
      test.parsoidOnly = test.legacyHtml === null && ['html/parsoid', 'html/parsoid+integrated', 'html/parsoid+standalone', 'wikitext/edited'].some((k) => k in s);
      file.tests.push(test);
      seenChunk = true;
    }
  }
  if (typeof file.fileOptions.requirements === 'string') file.fileOptions.requirements = [file.fileOptions.requirements];
  return file;
}
