/*
 * action=block and action=unblock (MediaWiki's ApiBlock, ApiUnblock): blocks of users and IPs,
 * sitewide or partial (pages and namespaces; MediaWiki 1.39's $wgEnablePartialActionBlocks is off,
 * so there are no action restrictions).
 */
import type { GatewayDeps } from '../../context.js';
import { ApiUsageError } from '../types.js';
import { apiError, requireRight } from './support.js';
import { defineModule, type ContextOf } from '../define.js';
import { TAGS_PARAM } from './writes.js';

export const blockModule = defineModule({
  name: 'block',
  group: 'action',
  prefix: '',
  summary: 'Block a user.',
  params: {
    user: { type: 'user', userTypes: ['name', 'ip', 'cidr'], help: 'User to block.' },
    userid: { type: 'integer', deprecated: true, help: 'Specify user=#ID instead.' },
    expiry: { type: 'string', default: 'never', help: 'Expiry time. May be relative (e.g. 5 months or 2 weeks) or absolute. If set to infinite, indefinite, or never, the block will never expire.' },
    reason: { type: 'string', default: '', help: 'Reason for block.' },
    anononly: { type: 'boolean', default: false, help: 'Block anonymous users only.' },
    nocreate: { type: 'boolean', default: false, help: 'Prevent account creation.' },
    autoblock: { type: 'boolean', default: false, help: 'Automatically block the last used IP address.' },
    noemail: { type: 'boolean', default: false, help: 'Prevent user from sending email through the wiki.' },
    hidename: { type: 'boolean', default: false, help: 'Hide the username from the block log.' },
    allowusertalk: { type: 'boolean', default: false, help: 'Allow the user to edit their own talk page.' },
    reblock: { type: 'boolean', default: false, help: 'If the user is already blocked, overwrite the existing block.' },
    watchuser: { type: 'boolean', default: false, help: "Watch the user's or IP address's user and talk pages." },
    tags: { ...TAGS_PARAM, help: 'Change tags to apply to the entry in the block log.' },
    partial: { type: 'boolean', default: false, help: 'Block user from specific pages or namespaces rather than the entire site.' },
    pagerestrictions: {
      type: 'title',
      multi: true,
      multiLimit1: 10,
      multiLimit2: 10,
      help: 'List of titles to block the user from editing. Only applies when partial is set to true.',
    },
    namespacerestrictions: { type: 'namespace', multi: true, help: 'List of namespace IDs to block the user from editing. Only applies when partial is set to true.' },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: { 'action=block&user=192.0.2.5&expiry=3%20days&reason=First%20strike&token=123ABC': 'Block IP address 192.0.2.5 for three days.' },
  async execute(ctx) {
    requireRight(ctx, 'block', 'block users from editing');
    const p = ctx.params;
    const target = await targetOf(ctx.deps, p.user, p.userid);
    const tags = await checkedLogTags(ctx);
    const pages = await restrictedPages(ctx.deps, p.pagerestrictions ?? []);
    const namespaces = p.namespacerestrictions ?? [];
    const r = await ctx.deps.clients.auth.block({
      target,
      expiry: p.expiry,
      reason: p.reason,
      performerId: ctx.caller.user.id,
      performer: ctx.caller.user.name,
      anononly: p.anononly,
      nocreate: p.nocreate,
      noemail: p.noemail,
      allowusertalk: p.allowusertalk,
      reblock: p.reblock,
      tags,
      // Restrictions are kept only for a partial block (ApiBlock builds them only then).
      partial: p.partial,
      pages: p.partial ? pages : [],
      namespaces: p.partial ? namespaces : [],
    });
    const b = r.block!;
    ctx.result.block = {
      user: r.user,
      userID: r.userId,
      expiry: b.expiry,
      id: b.id,
      reason: b.reason,
      anononly: b.anononly,
      nocreate: b.nocreate,
      autoblock: false,
      noemail: b.noemail,
      hidename: false,
      allowusertalk: b.allowusertalk,
      watchuser: false,
      partial: b.partial,
      // Echoed as given (null when not), whether or not the block is partial.
      pagerestrictions: p.pagerestrictions ?? null,
      namespacerestrictions: p.namespacerestrictions ?? null,
    };
  },
});

/** The pages of `pagerestrictions`, which must exist (TitleDef with PARAM_MUST_EXIST). */
async function restrictedPages(deps: GatewayDeps, titles: readonly string[]): Promise<{ id: number; ns: number; title: string }[]> {
  if (titles.length === 0) return [];
  const r = await deps.clients.content.resolvePages({ titles: [...titles] });
  const bad = r.invalid[0];
  if (bad) throw apiError('badtitle', 'paramvalidator-badtitle', ['pagerestrictions', bad.title]);
  const missing = r.pages.find((pg) => pg.missing || pg.special || pg.id === 0);
  if (missing) throw apiError('missingtitle', 'paramvalidator-missingtitle', ['pagerestrictions', titles[r.pages.indexOf(missing)] ?? missing.title]);
  return r.pages.map((pg) => ({ id: pg.id, ns: pg.ns, title: pg.title }));
}

/**
 * The `tags` of a block, unblock or userrights request, checked before anything is written (the
 * auth service's log entry reaches the content log later, so content cannot refuse them then):
 * as the `tags` parameter type (TagsDef: only tags defined by administrators, `badtags`), then
 * ChangeTags::canAddTagsAccompanyingChange with the caller's rights.
 */
export async function checkedLogTags(ctx: ContextOf<{ tags: typeof TAGS_PARAM }>): Promise<string[]> {
  const tags = [...new Set(ctx.params.tags ?? [])];
  if (tags.length === 0) return [];
  const manual = new Set<string>();
  let from = '';
  do {
    const page = await ctx.deps.clients.content.listTags(500, from);
    for (const t of page.tags) if (t.defined && t.source.includes('manual')) manual.add(t.name);
    from = page.continueFrom;
  } while (from !== '');
  const refused = tags.filter((t) => !manual.has(t));
  if (refused.length > 0) {
    const info = refused.length === 1 ? `The tag "${refused[0]}" is not allowed to be manually applied.` : `The following tags are not allowed to be manually applied: ${refused.join(', ')}`;
    throw new ApiUsageError('badtags', info, { disallowedtags: refused });
  }
  if (!ctx.caller.user.rights.includes('applychangetags')) {
    throw new ApiUsageError('tags-apply-no-permission', 'You do not have permission to apply change tags along with your changes.');
  }
  return tags;
}

/** The target name: `user`, or the account of `userid`. */
async function targetOf(deps: GatewayDeps, user: unknown, userid: unknown): Promise<string> {
  if (typeof user === 'string' && typeof userid === 'number') throw apiError('invalidparammix', 'apierror-invalidparammix', ['"user", "userid"']);
  if (typeof user === 'string') return user;
  if (typeof userid === 'number') {
    const found = (await deps.clients.auth.getUsers({ ids: [userid] })).users[0]?.user;
    if (!found) throw apiError('nosuchuserid', 'apierror-nosuchuserid', [userid]);
    return found.name;
  }
  throw apiError('missingparam', 'apierror-missingparam-at-least-one-of', ['"user" and "userid"', 2]);
}

export const unblockModule = defineModule({
  name: 'unblock',
  group: 'action',
  prefix: '',
  summary: 'Unblock a user.',
  params: {
    id: { type: 'integer', help: 'ID of the block to unblock (obtained through list=blocks). Cannot be used together with user.' },
    user: { type: 'user', userTypes: ['name', 'ip', 'cidr'], help: 'User to unblock. Cannot be used together with id.' },
    userid: { type: 'integer', deprecated: true, help: 'Specify user=#ID instead.' },
    reason: { type: 'string', default: '', help: 'Reason for unblock.' },
    tags: { ...TAGS_PARAM, help: 'Change tags to apply to the entry in the block log.' },
    watchuser: { type: 'boolean', default: false, help: "Watch the user's or IP address's user and talk pages." },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: { 'action=unblock&id=105': 'Unblock block ID #105.' },
  async execute(ctx) {
    requireRight(ctx, 'block', 'unblock this user');
    const p = ctx.params;
    if (typeof p.id === 'number' && (p.user !== undefined || p.userid !== undefined)) throw apiError('invalidparammix', 'apierror-unblock-idanduser');
    if (typeof p.id !== 'number' && p.user === undefined && p.userid === undefined) throw apiError('missingparam', 'apierror-unblock-notarget');
    const target = typeof p.id === 'number' ? '' : await targetOf(ctx.deps, p.user, p.userid);
    const tags = await checkedLogTags(ctx);
    const r = await ctx.deps.clients.auth.unblock({
      id: p.id ?? 0,
      target,
      performerId: ctx.caller.user.id,
      performer: ctx.caller.user.name,
      reason: p.reason,
      tags,
    });
    ctx.result.unblock = { id: r.block?.id ?? 0, user: r.user, userid: r.userId, reason: p.reason };
  },
});
