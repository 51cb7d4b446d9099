/*
 * {{#time:format|date}}: PHP date() format characters over a date MediaWiki-style input (ISO
 * dates, "now", "today", simple relative offsets like "+1 day"). All times are UTC, the wiki's
 * time zone.
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const two = (n: number) => String(n).padStart(2, '0');
const UNITS: Record<string, number> = { sec: 1000, second: 1000, min: 60_000, minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000 };

function parseDate(input: string, now: Date): Date | undefined {
  let s = input.trim().toLowerCase();
  if (s === '' || s === 'now') return new Date(now);
  let base = new Date(now);
  if (s.startsWith('@')) {
    const secs = Number(s.slice(1));
    return Number.isFinite(secs) ? new Date(secs * 1000) : undefined;
  }
  for (const [word, days] of [
    ['today', 0],
    ['tomorrow', 1],
    ['yesterday', -1],
  ] as const) {
    if (s.startsWith(word)) {
      base = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days));
      s = s.slice(word.length).trim();
      if (s === '') return base;
    }
  }
  const rel = /^(?:([+-]?\d+)\s*(sec|second|min|minute|hour|day|week|month|year)s?\s*)+$/.exec(s);
  if (rel) {
    const d = new Date(base);
    for (const m of s.matchAll(/([+-]?\d+)\s*(sec|second|min|minute|hour|day|week|month|year)s?/g)) {
      const n = Number(m[1]);
      if (m[2] === 'month') d.setUTCMonth(d.getUTCMonth() + n);
      else if (m[2] === 'year') d.setUTCFullYear(d.getUTCFullYear() + n);
      else d.setTime(d.getTime() + n * UNITS[m[2]!]!);
    }
    return d;
  }
  if (/^\d{4}$/.test(s)) return new Date(Date.UTC(Number(s), now.getUTCMonth(), now.getUTCDate(), now.getUTCHours(), now.getUTCMinutes(), now.getUTCSeconds()));
  if (/^\d{14}$/.test(s)) return new Date(Date.UTC(+s.slice(0, 4), +s.slice(4, 6) - 1, +s.slice(6, 8), +s.slice(8, 10), +s.slice(10, 12), +s.slice(12, 14)));
  const iso = /^\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2})?)?z?$/.test(s) ? Date.parse(s.replace(' ', 'T').toUpperCase() + (s.includes(':') && !s.endsWith('z') ? 'Z' : '')) : NaN;
  if (!Number.isNaN(iso)) return new Date(iso);
  const loose = Date.parse(`${input} UTC`);
  if (!Number.isNaN(loose)) return new Date(loose);
  const plain = Date.parse(input);
  return Number.isNaN(plain) ? undefined : new Date(plain);
}

function isoWeekYear(d: Date): [number, number] {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const day = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(t.getUTCFullYear(), 0, 1);
  return [Math.ceil(((t.getTime() - yearStart) / 86400000 + 1) / 7), t.getUTCFullYear()];
}

export function formatTime(format: string, date: string, now: Date): { ok: boolean; text: string } {
  const d = parseDate(date, now);
  if (!d) return { ok: false, text: 'Error: Invalid time.' };
  const Y = d.getUTCFullYear();
  const mo = d.getUTCMonth();
  const day = d.getUTCDate();
  const H = d.getUTCHours();
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i]!;
    switch (c) {
      case 'Y':
        out += String(Y);
        break;
      case 'y':
        out += two(Y % 100);
        break;
      case 'L':
        out += (Y % 4 === 0 && Y % 100 !== 0) || Y % 400 === 0 ? '1' : '0';
        break;
      case 'o':
        out += String(isoWeekYear(d)[1]);
        break;
      case 'n':
        out += String(mo + 1);
        break;
      case 'm':
        out += two(mo + 1);
        break;
      case 'M':
        out += MONTHS[mo]!.slice(0, 3);
        break;
      case 'F':
        out += MONTHS[mo]!;
        break;
      case 'j':
        out += String(day);
        break;
      case 'd':
        out += two(day);
        break;
      case 'z':
        out += String(Math.floor((Date.UTC(Y, mo, day) - Date.UTC(Y, 0, 1)) / 86400000));
        break;
      case 'W':
        out += two(isoWeekYear(d)[0]);
        break;
      case 't':
        out += String(new Date(Date.UTC(Y, mo + 1, 0)).getUTCDate());
        break;
      case 'D':
        out += DAYS[d.getUTCDay()]!.slice(0, 3);
        break;
      case 'l':
        out += DAYS[d.getUTCDay()]!;
        break;
      case 'N':
        out += String(d.getUTCDay() || 7);
        break;
      case 'w':
        out += String(d.getUTCDay());
        break;
      case 'a':
        out += H < 12 ? 'am' : 'pm';
        break;
      case 'A':
        out += H < 12 ? 'AM' : 'PM';
        break;
      case 'g':
        out += String(H % 12 || 12);
        break;
      case 'h':
        out += two(H % 12 || 12);
        break;
      case 'G':
        out += String(H);
        break;
      case 'H':
        out += two(H);
        break;
      case 'i':
        out += two(d.getUTCMinutes());
        break;
      case 's':
        out += two(d.getUTCSeconds());
        break;
      case 'U':
        out += String(Math.floor(d.getTime() / 1000));
        break;
      case 'e':
      case 'T':
        out += 'UTC';
        break;
      case 'O':
        out += '+0000';
        break;
      case 'P':
        out += '+00:00';
        break;
      case 'Z':
        out += '0';
        break;
      case 'c':
        out += `${d.toISOString().slice(0, 19)}+00:00`;
        break;
      case 'r':
        out += `${DAYS[d.getUTCDay()]!.slice(0, 3)}, ${two(day)} ${MONTHS[mo]!.slice(0, 3)} ${Y} ${two(H)}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
        break;
      case '\\':
        i++;
        if (i < format.length) out += format[i];
        break;
      case '"': {
        const end = format.indexOf('"', i + 1);
        if (end === -1) out += '"';
        else {
          out += format.slice(i + 1, end);
          i = end;
        }
        break;
      }
      case 'x': {
        // xg (genitive month) and friends: English has no separate forms.
        const next = format[i + 1];
        if (next === 'g') {
          out += MONTHS[mo]!;
          i++;
        } else if (next === 'x') {
          out += 'x';
          i++;
        }
        break;
      }
      default:
        out += c;
    }
  }
  return { ok: true, text: out };
}
