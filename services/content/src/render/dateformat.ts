/*
 * {{#formatdate:}} (DateFormatter::reformat with 'match-whole', the wiki's English month names):
 * a date written in one of seven forms is rewritten in the preferred form inside a
 * <span class="mw-formatted-date" title="ISO date">; anything else is returned unchanged.
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const ABBREVS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTH_NUMBER = new Map<string, number>();
for (let i = 0; i < 12; i++) {
  MONTH_NUMBER.set(MONTHS[i]!.toLowerCase(), i + 1);
  MONTH_NUMBER.set(ABBREVS[i]!.toLowerCase(), i + 1);
}

const NAMES = [...MONTHS, ...ABBREVS].join('|');
const DM = `(?<day>\\d{1,2})[ _](?<monthName>${NAMES})`;
const MD = `(?<monthName>${NAMES})[ _](?<day>\\d{1,2})`;
const Y = '(?<year>\\d{1,4}(?:[ _]BC|))';
const ISO = '(?<isoYear>-?\\d{4})-(?<isoMonth>\\d{2})-(?<isoDay>\\d{2})';

// DateFormatter's format ids, in the order it tries them.
enum F {
  NONE = 0,
  MDY = 1,
  DMY = 2,
  YMD = 3,
  ISO = 4,
  YDM = 5,
  DM = 6,
  MD = 7,
}
const REGEXES: Record<number, RegExp> = {
  [F.DMY]: new RegExp(`^${DM}(?: *, *| +)${Y}$`, 'iu'),
  [F.YDM]: new RegExp(`^${Y}(?: *, *| +)${DM}$`, 'iu'),
  [F.MDY]: new RegExp(`^${MD}(?: *, *| +)${Y}$`, 'iu'),
  [F.YMD]: new RegExp(`^${Y}(?: *, *| +)${MD}$`, 'iu'),
  [F.DM]: new RegExp(`^${DM}$`, 'iu'),
  [F.MD]: new RegExp(`^${MD}$`, 'iu'),
  [F.ISO]: new RegExp(`^${ISO}$`, 'iu'),
};
const TARGET: Record<number, string> = { [F.DMY]: 'j F Y', [F.YDM]: 'Y, j F', [F.MDY]: 'F j, Y', [F.YMD]: 'Y F j', [F.DM]: 'j F', [F.MD]: 'F j', [F.ISO]: 'y-m-d' };
const RULES: Record<number, Record<number, number>> = { [-1]: { [F.MD]: F.MD, [F.DM]: F.DM }, [F.NONE]: { [F.ISO]: F.ISO }, [F.MDY]: { [F.DM]: F.MD }, [F.DMY]: { [F.MD]: F.DM } };
const PREFERENCES: Record<string, number> = { default: F.NONE, dmy: F.DMY, mdy: F.MDY, ymd: F.YMD, 'ISO 8601': F.ISO };

const pad = (n: number | string, width: number) => String(n).padStart(width, '0');

function isoYear(year: string): string {
  return year.endsWith('BC') ? `-${pad(parseInt(year, 10) - 1, 4)}` : pad(parseInt(year, 10), 4);
}

function normalYear(iso: string): string {
  return iso.startsWith('-') ? `${parseInt(iso.slice(1), 10) + 1} BC` : String(parseInt(iso, 10));
}

/** `preference`: the function's second argument (the reader's preference is always 'default'). */
export function formatDate(date: string, preference: string): string {
  let text = date.trim();
  const user = PREFERENCES[preference] ?? F.NONE;
  for (let source = 1; source <= 7; source++) {
    const target = RULES[user]?.[source] ?? RULES[-1]![source] ?? (user !== F.NONE ? user : source);
    const m = REGEXES[source]!.exec(text);
    if (!m?.groups) continue;
    const g = m.groups;
    let year = g.year;
    let iy = g.isoYear;
    if (iy === undefined && year !== undefined) iy = isoYear(year);
    if (year === undefined && iy !== undefined) year = normalYear(iy);
    const month = g.isoMonth ?? pad(MONTH_NUMBER.get(g.monthName!.toLowerCase())!, 2);
    const isoDay = g.isoDay ?? pad(g.day!, 2);
    let out = '';
    let failed = false;
    for (const c of TARGET[target]!) {
      if (c === 'd') out += isoDay;
      else if (c === 'm') out += month;
      else if (c === 'y') out += iy ?? '';
      else if (c === 'j') out += g.day ?? String(parseInt(isoDay, 10));
      else if (c === 'F') {
        const n = parseInt(month, 10);
        if (n < 1 || n > 12) failed = true;
        else out += MONTHS[n - 1];
      } else if (c === 'Y') out += year ?? '';
      else out += c;
    }
    if (failed) continue;
    const iso = [...(iy !== undefined ? [iy] : []), month, isoDay].join('-');
    text = `<span class="mw-formatted-date" title="${iso}">${out}</span>`;
  }
  return text;
}
