/*
 * A dump's <logitem><params>: MediaWiki's log_params column as it is — PHP-serialized for
 * entries of 1.19 and later (`a:1:{s:9:"4::target";s:3:"Foo";}`), newline-separated values for
 * older ones. Quire keeps log parameters as list=logevents shows them (LogFormatter::
 * formatParametersForApi: "4::target" → target, a title as <name>_ns and <name>_title, numbers
 * as numbers), so the import turns one into the other.
 */

export type PhpValue = string | number | boolean | null | PhpArray;
export interface PhpArray {
  [key: string]: PhpValue;
}

/** PHP's unserialize() for scalars and arrays (what log_params holds); undefined when the text is not that. */
export function phpUnserialize(text: string): PhpValue | undefined {
  const bytes = Buffer.from(text, 'utf8');
  let pos = 0;
  const expect = (c: string) => {
    if (String.fromCharCode(bytes[pos] ?? 0) !== c) throw new Error(`expected ${c} at ${pos}`);
    pos++;
  };
  const until = (c: string): string => {
    const end = bytes.indexOf(c.charCodeAt(0), pos);
    if (end < 0) throw new Error(`no ${c} after ${pos}`);
    const s = bytes.subarray(pos, end).toString('utf8');
    pos = end + 1;
    return s;
  };
  const value = (depth: number): PhpValue => {
    if (depth > 32) throw new Error('too deep');
    const type = String.fromCharCode(bytes[pos] ?? 0);
    pos++;
    if (type === 'N') {
      expect(';');
      return null;
    }
    expect(':');
    switch (type) {
      case 'b':
        return until(';') === '1';
      case 'i': {
        const s = until(';');
        if (!/^-?\d+$/.test(s)) throw new Error('bad integer');
        return Number(s);
      }
      case 'd': {
        const n = Number(until(';'));
        if (Number.isNaN(n)) throw new Error('bad double');
        return n;
      }
      case 's': {
        const len = Number(until(':'));
        if (!Number.isInteger(len) || len < 0 || pos + len + 2 > bytes.length) throw new Error('bad string length');
        expect('"');
        const s = bytes.subarray(pos, pos + len).toString('utf8');
        pos += len;
        expect('"');
        expect(';');
        return s;
      }
      case 'a': {
        const n = Number(until(':'));
        if (!Number.isInteger(n) || n < 0) throw new Error('bad array size');
        expect('{');
        const out: PhpArray = {};
        for (let i = 0; i < n; i++) {
          const k = value(depth + 1);
          if (typeof k !== 'string' && typeof k !== 'number') throw new Error('bad key');
          out[String(k)] = value(depth + 1);
        }
        expect('}');
        return out;
      }
      default:
        throw new Error(`unsupported type ${type}`);
    }
  };
  try {
    const v = value(0);
    return pos === bytes.length ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A title value of the parameters (its namespace is looked up by the importer). */
export interface TitleParam {
  key: string;
  title: string;
}

export interface ConvertedParams {
  params: Record<string, unknown>;
  /** Parameters of type title/title-link: `<key>_title` is set; `<key>_ns` comes from the title's namespace. */
  titles: TitleParam[];
}

/**
 * The typed keys the log formatters give the untyped keys of their entries (getParametersForApi's
 * maps: MoveLogFormatter, PatrolLogFormatter, NewUsersLogFormatter, MergeLogFormatter, BlockLogFormatter).
 */
const TYPED_KEYS: Record<string, Record<string, string>> = {
  move: { '4::target': '4:title:target', '5::noredir': '5:bool:suppressredirect' },
  patrol: { '4::curid': '4:number:curid', '5::previd': '5:number:previd', '6::auto': '6:bool:auto' },
  newusers: { '4::userid': '4:number:userid' },
  merge: { '4::dest': '4:title:dest', '5::mergepoint': '5:timestamp:mergepoint' },
  block: { '5::duration': '5::duration', '6::flags': '6:array:flags' },
};

/** log_params of a dump (of a log type) as Quire's list=logevents-shaped parameters. */
export function logParamsFromDump(raw: string, logType = ''): ConvertedParams {
  const out: ConvertedParams = { params: {}, titles: [] };
  if (raw === '') return out;
  const parsed = raw.startsWith('a:') ? phpUnserialize(raw) : undefined;
  if (parsed === undefined || parsed === null || typeof parsed !== 'object') {
    // LogPage::extractParams: the legacy form, one value a line (list=logevents numbers them).
    raw.split('\n').forEach((v, i) => {
      out.params[String(i)] = v;
    });
    return out;
  }
  for (const [rawKey, value] of Object.entries(parsed)) {
    const key = TYPED_KEYS[logType]?.[rawKey] ?? rawKey;
    const m = /^\d+:([\w-]*):(.+)$/.exec(key);
    if (!m) {
      out.params[key] = value;
      continue;
    }
    const [, type, name] = m as unknown as [string, string, string];
    switch (type) {
      case 'number':
        out.params[name] = typeof value === 'number' ? value : Number(value);
        break;
      case 'bool':
        out.params[name] = value === true || value === '1' || value === 1;
        break;
      case 'title':
      case 'title-link':
        out.params[`${name}_title`] = String(value ?? '');
        out.titles.push({ key: name, title: String(value ?? '') });
        break;
      case 'array':
        out.params[name] = typeof value === 'string' ? (value === '' ? [] : value.split(',')) : Object.values(value ?? {});
        break;
      case 'timestamp': {
        const t = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(String(value));
        out.params[name] = t ? `${t[1]}-${t[2]}-${t[3]}T${t[4]}:${t[5]}:${t[6]}Z` : value;
        break;
      }
      default:
        out.params[name] = value;
    }
  }
  return out;
}
