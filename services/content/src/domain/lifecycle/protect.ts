/*
 * WikiPage::doUpdateRestrictions: page restrictions of an existing page (with a null revision
 * recording the change), or the create protection of a missing title; the protection log entry
 * (protect, modify or unprotect) and its recent change — one transaction.
 */
import { invalidArgument, type Queryable } from '@quire/kit';
import type { ProtectionLevel } from '@quire/proto/wiki/content/v1/common';
import type { ProtectPageRequest, ProtectPageResponse } from '@quire/proto/wiki/content/edit/v1/edit';
import { actorId } from '../../store/actor.js';
import { lockPage, saveNullRevision } from '../../store/lifecycle/common.js';
import { publishLogEntry, nowToTheSecond } from '../../store/logging.js';
import { pageRestrictions, removeTitleProtection, replacePageRestrictions, setTitleProtection, titleProtection } from '../../store/protection.js';
import { recordPageChange } from '../../store/page-cache.js';
import { applyRequestedWatch, requireActor, authorize, targetOf, userOf, type LifecycleDeps } from './common.js';

const INFINITY = 'infinity';
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "(indefinite)" or "(expires 00:00, 1 January 2030 (UTC))", as the protection description shows expiries. */
function expiryText(expiry: string): string {
  if (expiry === INFINITY) return '(indefinite)';
  const d = new Date(expiry);
  const hm = `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  return `(expires ${hm}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} (UTC))`;
}

/** MediaWiki's restriction-<type> and protect-level-<level> messages (English). */
const RESTRICTION_TEXT: Record<string, string> = { edit: 'Edit', move: 'Move', create: 'Create', upload: 'Upload' };
const LEVEL_TEXT: Record<string, string> = { sysop: 'Allow only administrators', autoconfirmed: 'Allow only autoconfirmed users' };

/** WikiPage::protectDescription: the null revision's words, `[Edit=Allow only administrators] (indefinite)`, space-separated. */
export function protectSummaryDescription(levels: ProtectionLevel[]): string {
  return levels.map((l) => `[${RESTRICTION_TEXT[l.type] ?? l.type}=${LEVEL_TEXT[l.level] ?? l.level}] ${expiryText(l.expiry)}`).join(' ');
}

/** The message keys of the null revision's summary (protectedarticle-comment and the others). */
const SUMMARY_VERB: Record<string, string> = { protect: 'Protected', modify: 'Changed protection settings for', unprotect: 'Removed protection from' };

/** WikiPage::protectDescriptionLog. */
export function protectDescription(levels: ProtectionLevel[]): string {
  return levels.map((l) => `\u200e[${l.type}=${l.level}] ${expiryText(l.expiry)}`).join('');
}

const expiryValue = (expiry: string) => (expiry === INFINITY ? null : new Date(expiry));

export async function protectPage(deps: LifecycleDeps, req: ProtectPageRequest): Promise<ProtectPageResponse> {
  const actor = requireActor(req.actor);
  await authorize(deps, actor, 'protect', req.tags);
  const target = await targetOf(deps, req.title, req.pageId);
  const s = deps.db.schema;
  const title = deps.codec.prefixedText(target.ns, target.dbkey);
  return deps.db.tx(async (q: Queryable) => {
    const page = await lockPage(q, deps.db, target.ns, target.dbkey);
    for (const p of req.protections) {
      if (page && p.type === 'create') throw invalidArgument('create-titleexists', "Existing titles can't be protected with <kbd>create</kbd>.");
      if (!page && p.type !== 'create') throw invalidArgument('missingtitle-createonly', 'Missing titles can only be protected with <kbd>create</kbd>.');
    }
    const set = req.protections.filter((p) => p.level !== '');
    // Cascading needs full protection of edits (as $wgCascadingRestrictionLevels).
    const cascade = req.cascade && set.some((p) => p.type === 'edit' && p.level === 'sysop');
    const timestamp = nowToTheSecond();
    let hadProtection: boolean;
    if (page) {
      hadProtection = (await pageRestrictions(q, deps.db, page.id)).length > 0;
      // doUpdateRestrictions replaces the whole set: a type not given (or given as "all") is lifted.
      await replacePageRestrictions(
        q,
        s,
        page.id,
        set.map((p) => ({ type: p.type, level: p.level, cascade: cascade && p.type === 'edit', expiry: expiryValue(p.expiry) })),
      );
    } else {
      hadProtection = (await titleProtection(q, deps.db, target.ns, target.dbkey)) !== undefined;
      const create = req.protections.find((p) => p.type === 'create');
      if (create?.level) {
        await setTitleProtection(q, s, target, { actorId: await actorId(q, s, actor), reason: req.reason, timestamp, expiry: expiryValue(create.expiry), level: create.level });
      } else {
        await removeTitleProtection(q, s, target);
      }
    }
    const action = set.length === 0 ? 'unprotect' : hadProtection ? 'modify' : 'protect';
    const description = protectDescription(set);
    let revId: number | undefined;
    if (page) {
      // The null revision that records the change in the page's history
      // (WikiPage::insertNullProtectionRevision, MediaWiki's English messages).
      let comment = `${SUMMARY_VERB[action]} "[[${title}]]"`;
      if (req.reason !== '') comment += `: ${req.reason}`;
      const words = protectSummaryDescription(set);
      if (words !== '') comment += ` (${words})`;
      if (cascade) comment += ' [cascading]';
      const saved = await saveNullRevision(q, deps.db, deps.codec, page, page, actor, comment, timestamp);
      revId = saved.revId;
    } else {
      await recordPageChange(deps.db, q, target.ns, target.dbkey);
    }
    // WikiPage::doUpdateRestrictions: a missing title's create protection has no cascade in its details.
    const details = set.map((p) =>
      p.type === 'create' ? { type: p.type, level: p.level, expiry: p.expiry } : { type: p.type, level: p.level, expiry: p.expiry, cascade: cascade && p.type === 'edit' },
    );
    await publishLogEntry(
      q,
      deps.db,
      {
        type: 'protect',
        action,
        actor: userOf(actor),
        ns: target.ns,
        dbkey: target.dbkey,
        pageId: page?.id ?? 0,
        comment: req.reason,
        params: action === 'unprotect' ? {} : { description, cascade, details },
        tags: req.tags,
        timestamp,
      },
      { revId },
    );
    await applyRequestedWatch(deps, q, actor, target, req);
    return { title, cascade, protections: set.map((p) => ({ ...p, cascade: cascade && p.type === 'edit', source: '' })) };
  });
}
