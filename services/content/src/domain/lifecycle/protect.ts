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
import { DEFAULT_MESSAGES, defaultMessages, interfaceMessages, type MessageKey, type MessageText } from '../interface-messages.js';

const INFINITY = 'infinity';
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "(indefinite)" or "(expires 00:00, 1 January 2030 (UTC))", as the protection description shows expiries. */
function expiryText(expiry: string): string {
  if (expiry === INFINITY) return '(indefinite)';
  const d = new Date(expiry);
  const hm = `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  return `(expires ${hm}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} (UTC))`;
}

/** The messages of a protection's null revision summary (WikiPage::doUpdateRestrictions). */
export const PROTECT_SUMMARY_MESSAGES: MessageKey[] = [
  'protectedarticle-comment',
  'modifiedarticleprotection-comment',
  'unprotectedarticle-comment',
  'colon-separator',
  'word-separator',
  'parentheses',
  'brackets',
  'protect-summary-desc',
  'protect-summary-cascade',
  'protect-expiry-indefinite',
  'protect-expiring',
  'restriction-edit',
  'restriction-move',
  'restriction-create',
  'restriction-upload',
  'protect-level-sysop',
  'protect-level-autoconfirmed',
];

const SUMMARY_MESSAGE: Record<string, MessageKey> = { protect: 'protectedarticle-comment', modify: 'modifiedarticleprotection-comment', unprotect: 'unprotectedarticle-comment' };

/** The message of a restriction type or level, or the name itself for one MediaWiki has no message for. */
function typeOrLevel(msg: MessageText, key: string, name: string): string {
  return key in DEFAULT_MESSAGES ? msg(key as MessageKey) : name;
}

/** WikiPage::formatExpiry: "indefinite" or "expires 00:00, 1 January 2030 (UTC)". */
function expiryWords(msg: MessageText, expiry: string): string {
  if (expiry === INFINITY) return msg('protect-expiry-indefinite');
  const d = new Date(expiry);
  const hm = `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  return msg('protect-expiring', `${hm}, ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`);
}

/** WikiPage::protectDescription: the null revision's words, `[Edit=Allow only administrators] (indefinite)`, space-separated. */
export function protectSummaryDescription(levels: ProtectionLevel[], msg: MessageText = defaultMessages): string {
  return levels
    .map((l) => msg('protect-summary-desc', typeOrLevel(msg, `restriction-${l.type}`, l.type), typeOrLevel(msg, `protect-level-${l.level}`, l.level), expiryWords(msg, l.expiry)))
    .join(msg('word-separator'));
}

/** WikiPage::doUpdateRestrictions's null revision summary, from the wiki's messages. */
export function protectSummary(msg: MessageText, action: string, title: string, user: string, reason: string, levels: ProtectionLevel[], cascade: boolean): string {
  let comment = msg(SUMMARY_MESSAGE[action] ?? 'protectedarticle-comment', title, user);
  if (reason !== '') comment += msg('colon-separator') + reason;
  const words = protectSummaryDescription(levels, msg);
  if (words !== '') comment += msg('word-separator') + msg('parentheses', words);
  if (cascade) comment += msg('word-separator') + msg('brackets', msg('protect-summary-cascade'));
  return comment;
}

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
      // (WikiPage::insertNullProtectionRevision), in the wiki's own messages.
      const msg = await interfaceMessages(deps.db, PROTECT_SUMMARY_MESSAGES);
      const comment = protectSummary(msg, action, title, actor.name, req.reason, set, cascade);
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
