/*
 * action=protect (ApiProtect): validates protections and expiries as MediaWiki does, then the
 * content service changes the restrictions, records a null revision and the protection log.
 */
import type { ProtectionLevel } from '@quire/proto/wiki/content/v1/content';
import { ApiUsageError, setIndexedTagName, type ModuleDecl } from '../types.js';
import { apiError } from './support.js';
import { strOf, tagsOf, TAGS_PARAM, titleOrPageId, WATCHLIST_EXPIRY_PARAM, WATCHLIST_PARAM, writingActor } from './lifecycle.js';
import { lifecycleWatchlist } from './watch.js';

/** $wgRestrictionTypes and $wgRestrictionLevels ('' shown as "all"), in MediaWiki's order. */
export const RESTRICTION_TYPES = ['create', 'edit', 'move', 'upload'];
export const RESTRICTION_LEVELS = ['all', 'autoconfirmed', 'sysop'];
const INFINITE = ['infinite', 'indefinite', 'infinity', 'never'];

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** ExpiryDef: "infinite" and its synonyms, an absolute time, or a relative one ("1 week"). */
export function parseExpiry(value: string, now = Date.now()): string {
  const v = value.trim();
  if (INFINITE.includes(v.toLowerCase())) return 'infinity';
  let t: number;
  const mw = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(v);
  const rel = /^(\d+)\s*(second|minute|hour|day|week|month|year)s?$/i.exec(v);
  if (mw) t = Date.UTC(+mw[1]!, +mw[2]! - 1, +mw[3]!, +mw[4]!, +mw[5]!, +mw[6]!);
  else if (rel) {
    const unit = { second: 1, minute: 60, hour: 3600, day: 86400, week: 604800, month: 2592000, year: 31536000 }[rel[2]!.toLowerCase() as 'day'];
    t = now + Number(rel[1]) * unit * 1000;
  } else t = Date.parse(v);
  if (Number.isNaN(t)) throw apiError('invalidexpiry', 'apierror-invalidexpiry', [value]);
  if (t < now) throw apiError('pastexpiry', 'apierror-pastexpiry', [value]);
  return iso(new Date(Math.floor(t / 1000) * 1000));
}

export const protectModule: ModuleDecl = {
  name: 'protect',
  group: 'action',
  prefix: '',
  summary: 'Change the protection level of a page.',
  params: {
    title: { type: 'string', help: 'Title of the page to (un)protect. Cannot be used together with pageid.' },
    pageid: { type: 'integer', help: 'ID of the page to (un)protect. Cannot be used together with title.' },
    protections: {
      type: 'string',
      multi: true,
      required: true,
      help: 'List of protection levels, formatted action=level (e.g. edit=sysop). A level of all means everyone is allowed to take the action, i.e. no restriction.',
    },
    expiry: { type: 'string', multi: true, default: 'infinite', help: 'Expiry timestamps. If only one timestamp is set, it\'ll be used for all protections. Use infinite, indefinite, infinity, or never, for a never-expiring protection.' },
    reason: { type: 'string', default: '', help: 'Reason for (un)protecting.' },
    tags: TAGS_PARAM,
    cascade: { type: 'boolean', default: false, help: 'Enable cascading protection (i.e. protect transcluded templates and images used in this page). Ignored if none of the given protection levels support cascading.' },
    watchlist: WATCHLIST_PARAM,
    watchlistexpiry: WATCHLIST_EXPIRY_PARAM,
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: { 'action=protect&title=Main%20Page&token=123ABC&protections=edit=sysop|move=sysop&cascade=&expiry=20070901163000|never': 'Protect a page.' },
  async execute(ctx) {
    const p = ctx.params;
    const target = titleOrPageId(p);
    const actor = writingActor(ctx);
    const protections = (p.protections as string[]).filter((v) => v !== '');
    const expiries = (p.expiry as string[] | undefined) ?? ['infinite'];
    if (expiries.length !== 1 && expiries.length !== protections.length) {
      throw apiError('toofewexpiries', 'apierror-toofewexpiries', [expiries.length, protections.length]);
    }
    const levels: ProtectionLevel[] = protections.map((spec, i) => {
      const [type = '', level = ''] = spec.split('=', 2);
      if (!RESTRICTION_TYPES.includes(type)) throw new ApiUsageError('protect-invalidaction', `Invalid protection type "${type}".`);
      if (!RESTRICTION_LEVELS.includes(level)) throw new ApiUsageError('protect-invalidlevel', `Invalid protection level "${level}".`);
      const expiry = parseExpiry(expiries.length === 1 ? expiries[0]! : expiries[i]!);
      return { type, level: level === 'all' ? '' : level, expiry, cascade: false, source: '' };
    });
    const res = await ctx.deps.clients.content.protectPage({ ...target, protections: levels, cascade: p.cascade === true, reason: strOf(p, 'reason'), tags: tagsOf(p), actor, ...(await lifecycleWatchlist(ctx, 'watchdefault')) });
    const out: Record<string, unknown> = { title: res.title, reason: strOf(p, 'reason') };
    if (res.cascade) out.cascade = true;
    out.protections = setIndexedTagName(
      levels.map((l) => ({ [l.type]: l.level === '' ? 'all' : l.level, expiry: l.expiry === 'infinity' ? 'infinite' : l.expiry })),
      'protection',
    );
    ctx.result.protect = out;
  },
};
