/*
 * The reader's date preferences (the "date" format and "timecorrection" user options), applied to
 * every time a page shows, as Language::userTimeAndDate applies them. Resolved once per page
 * request (one options lookup for a registered user) and kept for that request's handlers.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Caller, GatewayDeps } from '../context.js';
import { ownOptions } from '../signature.js';

export type DateFormat = 'dmy' | 'mdy' | 'ymd' | 'ISO 8601';

export interface UserClock {
  format: DateFormat;
  /** The reader's zone: a fixed offset in minutes, or an IANA zone (ZoneInfo). */
  offsetMinutes: number;
  zone?: string;
}

/** English's default ("dmy or mdy": dmy) in the wiki's zone ($wgLocaltimezone: UTC). */
export const WIKI_CLOCK: UserClock = { format: 'dmy', offsetMinutes: 0 };

const store = new AsyncLocalStorage<UserClock>();

/** The clock of the page request being handled (the wiki's outside one). */
export function currentClock(): UserClock {
  return store.getStore() ?? WIKI_CLOCK;
}

export function withClock<T>(clock: UserClock, fn: () => Promise<T>): Promise<T> {
  return store.run(clock, fn);
}

/** A "timecorrection" value (User::getOption): "System|0", "Offset|-300", "ZoneInfo|60|Europe/Berlin". */
export function parseTimeCorrection(value: unknown): Pick<UserClock, 'offsetMinutes' | 'zone'> {
  const [kind, minutes, zone] = String(value ?? '').split('|');
  const offset = Number(minutes);
  if (kind === 'ZoneInfo' && zone && validZone(zone)) return { offsetMinutes: Number.isFinite(offset) ? offset : 0, zone };
  if ((kind === 'Offset' || kind === 'ZoneInfo') && Number.isFinite(offset) && Math.abs(offset) <= 14 * 60) return { offsetMinutes: Math.trunc(offset) };
  return { offsetMinutes: 0 };
}

function validZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export function clockFromOptions(options: Record<string, unknown>): UserClock {
  const date = options.date;
  const format: DateFormat = date === 'mdy' || date === 'ymd' || date === 'ISO 8601' ? date : 'dmy';
  return { format, ...parseTimeCorrection(options.timecorrection) };
}

/** The clock of a page's reader: their preferences when registered, the wiki's otherwise. */
export async function readerClock(deps: GatewayDeps, caller: Caller): Promise<UserClock> {
  return caller.user.anonymous ? WIKI_CLOCK : clockFromOptions(await ownOptions(deps, caller));
}

/** The wall-clock fields of an instant on a clock (read with the getUTC* methods). */
export function shifted(d: Date, clock: UserClock): Date {
  if (clock.zone) {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', { timeZone: clock.zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
        .formatToParts(d)
        .map((p) => [p.type, Number(p.value)]),
    );
    return new Date(Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!));
  }
  return new Date(d.getTime() + clock.offsetMinutes * 60_000);
}
