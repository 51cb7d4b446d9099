/*
 * action=protect (ApiProtect): validates protections and expiries as MediaWiki does, then the
 * content service changes the restrictions, records a null revision and the protection log.
 */
import type { ProtectionLevel } from '../../clients/types.js';
import { defineModule } from '../define.js';
import { ApiUsageError, setIndexedTagName } from '../types.js';
import { apiError, moduleExpiry } from './support.js';
import { WATCHLIST_EXPIRY_PARAM, WATCHLIST_PARAM, watchlistFields } from './watchlist-params.js';
import { pageWritingActor, TAGS_PARAM, titleOrPageId } from './writes.js';

/** $wgRestrictionTypes and $wgRestrictionLevels ('' shown as "all"), in MediaWiki's order. */
export const RESTRICTION_TYPES = ['create', 'edit', 'move', 'upload'];
export const RESTRICTION_LEVELS = ['all', 'autoconfirmed', 'sysop'];

export const protectModule = defineModule({
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
    expiry: {
      type: 'string',
      multi: true,
      allowDuplicates: true,
      default: 'infinite',
      help: "Expiry timestamps. If only one timestamp is set, it'll be used for all protections. Use infinite, indefinite, infinity, or never, for a never-expiring protection.",
    },
    reason: { type: 'string', default: '', help: 'Reason for (un)protecting.' },
    tags: TAGS_PARAM,
    cascade: {
      type: 'boolean',
      default: false,
      help: 'Enable cascading protection (i.e. protect transcluded templates and images used in this page). Ignored if none of the given protection levels support cascading.',
    },
    watch: { type: 'boolean', default: false, deprecated: true, help: "If set, add the page being (un)protected to the current user's watchlist." },
    watchlist: WATCHLIST_PARAM,
    watchlistexpiry: WATCHLIST_EXPIRY_PARAM,
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: { 'action=protect&title=Main%20Page&token=123ABC&protections=edit=sysop|move=sysop&cascade=&expiry=20070901163000|never': 'Protect a page.' },
  async execute(ctx) {
    const p = ctx.params;
    const target = titleOrPageId(p);
    const actor = await pageWritingActor(ctx, [target]);
    const protections = p.protections.filter((v) => v !== '');
    const expiries = p.expiry;
    if (expiries.length !== 1 && expiries.length !== protections.length) {
      throw apiError('toofewexpiries', 'apierror-toofewexpiries', [expiries.length, protections.length]);
    }
    const levels: ProtectionLevel[] = protections.map((spec, i) => {
      const [type = '', level = ''] = spec.split('=', 2);
      if (!RESTRICTION_TYPES.includes(type)) throw new ApiUsageError('protect-invalidaction', `Invalid protection type "${type}".`);
      if (!RESTRICTION_LEVELS.includes(level)) throw new ApiUsageError('protect-invalidlevel', `Invalid protection level "${level}".`);
      const expiry = moduleExpiry(expiries.length === 1 ? expiries[0]! : expiries[i]!);
      return { type, level: level === 'all' ? '' : level, expiry, cascade: false, source: '' };
    });
    const res = await ctx.deps.clients.content.protectPage({
      ...target,
      protections: levels,
      cascade: p.cascade,
      reason: p.reason,
      tags: p.tags ?? [],
      actor,
      ...(await watchlistFields(ctx, ['watchdefault'], p.watch ? 'watch' : p.watchlist)),
    });
    const out: Record<string, unknown> = { title: res.title, reason: p.reason };
    if (res.cascade) out.cascade = true;
    out.protections = setIndexedTagName(
      levels.map((l) => ({ [l.type]: l.level === '' ? 'all' : l.level, expiry: l.expiry === 'infinity' ? 'infinite' : l.expiry })),
      'protection',
    );
    ctx.result.protect = out;
  },
});
