/* What list=logevents, list=recentchanges and list=usercontribs share: time windows and continuation. */
import { badContinue, continueInt, continueTimestampIso } from './continuation.js';
import { ApiUsageError, type ActionContext, type Params, type ResultObject } from '../types.js';

/** TS_MW ("20261121051314") → ISO 8601. */
export const isoOfMw = (ts: string) => `${ts.slice(0, 4)}-${ts.slice(4, 6)}-${ts.slice(6, 8)}T${ts.slice(8, 10)}:${ts.slice(10, 12)}:${ts.slice(12, 14)}Z`;
/** ISO 8601 → TS_MW, as continuation values carry timestamps. */
export const mwOfIso = (iso: string) => iso.replace(/[-:TZ]/g, '').slice(0, 14);

/** start/end/dir and `continue` ("timestamp|id") as the content service's window. */
export function timeWindow(p: Params): { start: string; end: string; newer: boolean; continueTimestamp: string; continueId: number } {
  const newer = p.dir === 'newer';
  let continueTimestamp = '';
  let continueId = 0;
  if (typeof p.continue === 'string') {
    const m = /^(\d{14})\|(-?\d+)$/.exec(p.continue);
    if (!m) throw badContinue();
    continueTimestamp = continueTimestampIso(m[1]!);
    continueId = continueInt(m[2]!);
  }
  return {
    start: typeof p.start === 'string' ? isoOfMw(p.start) : '',
    end: typeof p.end === 'string' ? isoOfMw(p.end) : '',
    newer,
    continueTimestamp,
    continueId,
  };
}

/** The props of a multi `prop` parameter as a set. */
export const propsOf = (p: { prop?: readonly string[] | undefined }) => new Set<string>(p.prop ?? []);

export const DIR_PARAM = {
  type: ['newer', 'older'],
  default: 'older',
  help: 'In which direction to enumerate: newer lists oldest first (start must be before end); older lists newest first (the default).',
} as const;
export const LIMIT_PARAM = { type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'How many total items to return.' } as const;

/** A title parameter as namespace and DB key (without the namespace prefix); `invalidtitle` otherwise. */
export async function titleKey(ctx: ActionContext, title: string): Promise<{ ns: number; dbkey: string }> {
  const resolved = await ctx.deps.clients.content.resolvePages({ titles: [title] });
  const page = resolved.pages[0];
  if (!page || page.special) throw new ApiUsageError('invalidtitle', `Bad title "${title}".`);
  const prefixLength = page.ns === 0 ? 0 : page.dbkey.indexOf(':') + 1;
  return { ns: page.ns, dbkey: page.dbkey.slice(prefixLength) };
}

/** Log parameters in the order MediaWiki's formatters list them (jsonb keeps no key order). */
const PARAM_ORDER: Record<string, readonly string[]> = {
  contentmodel: ['oldmodel', 'newmodel'],
  merge: ['dest_ns', 'dest_title', 'mergepoint'],
  protect: ['description', 'cascade', 'details'],
};

function orderedParams(type: string, params: ResultObject): ResultObject {
  const order = PARAM_ORDER[type];
  if (!order) return params;
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return Object.fromEntries(Object.entries(params).sort(([a], [b]) => rank(a) - rank(b)));
}

/**
 * A stored entry's parameters as the API shows them: DatabaseLogEntry::getParameters takes
 * `associated_rev_id` (ManualLogEntry::insert keeps the associated revision there) out of them.
 */
export function apiLogParams(paramsJson: string, type = ''): ResultObject {
  const { associated_rev_id: _revId, ...params } = JSON.parse(paramsJson || '{}') as ResultObject;
  // ProtectLogFormatter::formatParametersForApi: an indefinite expiry of the details is "infinite".
  if (type === 'protect' && Array.isArray(params.details)) {
    params.details = params.details.map((d) => (d && typeof d === 'object' && !Array.isArray(d) && d.expiry === 'infinity' ? { ...d, expiry: 'infinite' } : d));
  }
  // UploadLogFormatter: img_timestamp is a timestamp parameter, which the API gives in ISO 8601.
  if (type === 'upload' && typeof params.img_timestamp === 'string' && /^\d{14}$/.test(params.img_timestamp)) params.img_timestamp = isoOfMw(params.img_timestamp);
  return orderedParams(type, params);
}
