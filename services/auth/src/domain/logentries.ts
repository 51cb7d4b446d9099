/*
 * The log entries of the auth service's changes, with MediaWiki 1.39's types, actions and the
 * parameters list=logevents shows for them: newusers (AuthManager), block (BlockUser,
 * UnblockUser) and rights (UserrightsPage::addLogEntry).
 */
import { isoOrInfinite } from '../expiry.js';
import type { OutboxEntry } from '../store/logoutbox.js';
import type { BlockRow, Membership } from '../store/users.js';

/** Who did it: id 0 with the IP address as name when anonymous; `bot` when they have the bot right. */
export interface Performer {
  id: number;
  name: string;
  bot: boolean;
}

type Account = { id: number; name: string };

/**
 * An account creation: `create` by the new user themselves (performer and target are the new
 * account), `create2` by a logged-in user for someone else, `autocreate` by maintenance
 * (createAndPromote), which AuthManager::autoCreateUser records without a recent change.
 */
export function newUserEntry(account: Account, how: { kind: 'create' } | { kind: 'create2'; creator: Performer; reason: string } | { kind: 'autocreate' }): OutboxEntry {
  const self: Performer = { id: account.id, name: account.name, bot: false };
  const performer = how.kind === 'create2' ? how.creator : self;
  return {
    type: 'newusers',
    action: how.kind,
    performer: { id: performer.id, name: performer.name },
    targetName: account.name,
    comment: how.kind === 'create2' ? how.reason : '',
    params: { userid: account.id },
    bot: performer.bot,
    publish: how.kind !== 'autocreate',
  };
}

/**
 * BlockUser::blockLogFlags, in its order. Blocks here never autoblock, and $wgBlockAllowsUTEdit
 * is on: a block that does not allow user-talk edits says so.
 */
function blockFlags(b: BlockRow): string[] {
  const flags: string[] = [];
  const isIp = b.target_ip !== null;
  if (isIp && b.anononly) flags.push('anononly');
  if (b.nocreate) flags.push('nocreate');
  if (!isIp) flags.push('noautoblock');
  if (b.noemail) flags.push('noemail');
  if (!b.allowusertalk) flags.push('nousertalk');
  return flags;
}

/**
 * A block or reblock. `duration` is the expiry as it was asked ("3 days", an ISO time), or
 * "infinity"; `expiry` (the end, as BlockLogFormatter adds it) only for a finite block.
 */
export function blockEntry(action: 'block' | 'reblock', b: BlockRow, rawExpiry: string, performer: Performer): OutboxEntry {
  const params: Record<string, unknown> = {
    duration: b.expiry === null ? 'infinity' : rawExpiry.trim(),
    flags: blockFlags(b),
  };
  // BlockLogFormatter's parameters: a partial block lists its restrictions instead.
  if (b.sitewide) params.sitewide = true;
  else {
    const restrictions: Record<string, unknown> = {};
    const pages = b.restrictions.filter((r) => r.type === 1);
    const namespaces = b.restrictions.filter((r) => r.type === 2);
    if (pages.length) restrictions.pages = pages.map((r) => ({ page_ns: r.ns ?? 0, page_title: r.title ?? '' }));
    if (namespaces.length) restrictions.namespaces = namespaces.map((r) => Number(r.value));
    params.restrictions = restrictions;
  }
  if (b.expiry !== null) params.expiry = isoOrInfinite(b.expiry);
  return {
    type: 'block',
    action,
    performer: { id: performer.id, name: performer.name },
    targetName: b.target_name ?? b.target_ip ?? '',
    comment: b.reason,
    params,
    bot: performer.bot,
    publish: true,
  };
}

export function unblockEntry(b: BlockRow, reason: string, performer: Performer): OutboxEntry {
  return {
    type: 'block',
    action: 'unblock',
    performer: { id: performer.id, name: performer.name },
    targetName: b.target_name ?? b.target_ip ?? '',
    comment: reason,
    params: {},
    bot: performer.bot,
    publish: true,
  };
}

const metadata = (ms: Membership[]) => ms.map((m) => ({ group: m.group, expiry: isoOrInfinite(m.expiry, 'infinity') }));

/** Group memberships before and after, each by group name. */
export function rightsEntry(target: Account, before: Membership[], after: Membership[], reason: string, performer: Performer): OutboxEntry {
  return {
    type: 'rights',
    action: 'rights',
    performer: { id: performer.id, name: performer.name },
    targetName: target.name,
    comment: reason,
    params: {
      oldgroups: before.map((m) => m.group),
      newgroups: after.map((m) => m.group),
      oldmetadata: metadata(before),
      newmetadata: metadata(after),
    },
    bot: performer.bot,
    publish: true,
  };
}

/** UserrightsPage logs only a change: a different set of groups or of expiries. */
export function membershipsDiffer(before: Membership[], after: Membership[]): boolean {
  const key = (ms: Membership[]) => JSON.stringify(metadata(ms));
  return key(before) !== key(after);
}
