/*
 * Page protection as MediaWiki 1.39's PermissionManager::checkPageRestrictions,
 * checkCascadingSourcesRestrictions and the title protection of missing pages, over the
 * restrictions store/protection.ts reads. Every write path (edit, move, upload, create) calls
 * `checkProtection` inside its transaction.
 */
import { permissionDenied, type Db, type Queryable } from '@quire/kit';
import { findPage } from '../store/pages.js';
import { cascadeSources, pageProtection, titleProtection, type CascadeSources, type PageProtection } from '../store/protection.js';
import { NS_MEDIAWIKI, NS_USER, type NamespaceDef } from '../title/namespaces.js';

export type RestrictionType = 'edit' | 'move' | 'upload' | 'create';

/** The protection levels of $wgRestrictionLevels, as the rights that pass them (sysop → editprotected). */
export function levelRight(level: string): string {
  if (level === 'sysop') return 'editprotected';
  if (level === 'autoconfirmed') return 'editsemiprotected';
  return level;
}

const PROTECTED_PAGE = 'This page has been protected to prevent editing or other actions.';

export interface ProtectionTitleFormatter {
  prefixedText(ns: number, dbkey: string): string;
}

/**
 * Refuses `action` on a title when a protection the caller's rights do not pass applies:
 * `protectedpage` (the page's own restriction, or the create protection of a missing title),
 * `cascadeprotected` (a cascading protection of a page that includes it).
 * `create` applies to missing titles; the other actions to existing pages (and their cascades).
 */
export async function checkProtection(
  q: Queryable,
  db: Db,
  codec: ProtectionTitleFormatter,
  target: { ns: number; dbkey: string },
  action: RestrictionType,
  rights: readonly string[],
  /** The page's id when the caller just read it (undefined: missing), and its protection when read with it, saving lookups. */
  known?: { pageId: number | undefined; protection?: PageProtection | undefined },
): Promise<void> {
  const has = (right: string) => right === '' || rights.includes(right);
  // UploadBase::verifyTitlePermissions: an upload is an edit and an upload of the file page.
  const actions: RestrictionType[] = action === 'upload' ? ['edit', 'upload'] : [action];
  const pageId = known ? known.pageId : (await findPage(q, db.schema, target))?.id;
  let cascade: CascadeSources | undefined;
  if (pageId === undefined) {
    // Writing to a missing title creates it (EditPage and UploadBase check `create` then).
    if (action !== 'move') {
      const pt = await titleProtection(q, db, target.ns, target.dbkey);
      // checkPageRestrictions (the title's `create` restriction) runs before checkActionPermissions
      // (`titleprotected`), so the first error MediaWiki reports is `protectedpage`.
      if (pt && (pt.level === '' || !has(levelRight(pt.level)))) throw permissionDenied('protectedpage', PROTECTED_PAGE);
    }
    if (action === 'create') return;
  } else {
    // Own restrictions and cascading sources in one statement.
    const both = known?.protection ?? (await pageProtection(q, db, pageId, target.ns, target.dbkey));
    const restrictions = both.restrictions;
    cascade = both.cascade;
    const cascading = restrictions.some((r) => r.cascade);
    for (const r of restrictions) {
      if (!actions.includes(r.type as RestrictionType)) continue;
      if (!has(levelRight(r.level)) || (cascading && !has('protect'))) throw permissionDenied('protectedpage', PROTECTED_PAGE);
    }
  }
  cascade ??= await cascadeSources(q, db, target.ns, target.dbkey);
  for (const a of actions) {
    for (const level of cascade.levels.get(a) ?? []) {
      if (level !== '' && !(has('protect') && has(levelRight(level)))) {
        const list = cascade.sources.map((p) => `* [[:${codec.prefixedText(p.ns, p.dbkey)}]]\n`).join('');
        const n = cascade.sources.length;
        throw permissionDenied(
          'cascadeprotected',
          `This page has been protected from editing because it is transcluded in the following ${n === 1 ? 'page, which is' : 'pages, which are'} protected with the "cascading" option turned on:\n${list}`,
        );
      }
    }
  }
}

/**
 * The actions PermissionManager checks a title for on the write paths: `edit` (edits, the pages
 * of a move, content model changes, rollback), `create`, `move` and `move-target`, `undelete`,
 * `upload`, and the deletions that the user-config check leaves alone.
 */
export type TitleAction = RestrictionType | 'move-target' | 'undelete' | 'delete' | 'deleterevision' | 'suppressrevision';

export interface TitleCodec extends ProtectionTitleFormatter {
  namespaces: { get(id: number): Pick<NamespaceDef, 'name' | 'protection'> | undefined };
}

/** The caller as the title checks know it. */
export interface TitleActor {
  name: string;
  rights: readonly string[];
}

const MODEL_KINDS: Record<string, 'css' | 'json' | 'js'> = { css: 'css', json: 'json', javascript: 'js' };
const KIND_WORD = { css: 'CSS', json: 'JSON', js: 'JavaScript' } as const;

/**
 * PermissionManager::checkSpecialsAndNSPermissions, checkSiteConfigPermissions and
 * checkUserConfigPermissions — the title's own rules, before its protection: $wgNamespaceProtection
 * (`protectednamespace`, `protectednamespace-interface` for MediaWiki:), MediaWiki: CSS/JSON/JS
 * (`sitecssprotected`… without editsitecss/editsitejson/editsitejs) and another user's CSS/JSON/JS
 * subpages (`customcssprotected`… without editusercss/edituserjson/edituserjs; one's own need
 * editmyusercss…, `mycustomcssprotected`…). `model` is the page's content model (a missing page's
 * default for its title), as Title::getContentModel.
 */
export function checkTitleRules(codec: TitleCodec, target: { ns: number; dbkey: string }, model: string, action: TitleAction, actor: TitleActor): void {
  const has = (...rights: string[]) => rights.some((r) => actor.rights.includes(r));
  const ns = codec.namespaces.get(target.ns);
  if (ns && ns.protection !== '' && !has(ns.protection)) {
    throw target.ns === NS_MEDIAWIKI
      ? permissionDenied(
          'protectednamespace-interface',
          'This page provides interface text for the software on this wiki, and is protected to prevent abuse.\nTo add or change translations for all wikis, please use [https://translatewiki.net/ translatewiki.net], the MediaWiki localisation project.',
        )
      : permissionDenied('protectednamespace', `You do not have permission to edit pages in the ${ns.name} namespace.`);
  }
  if (target.ns === NS_MEDIAWIKI && !['deleterevision', 'suppressrevision'].includes(action)) {
    // Title::isSiteCssConfigPage and kin: the model, or the name's extension (a mismatch is a mistake, T112937).
    const ext = /\.(css|json|js)$/.exec(target.dbkey)?.[1] as 'css' | 'json' | 'js' | undefined;
    const kind = MODEL_KINDS[model] ?? ext;
    if (kind && !has(`editsite${kind}`)) {
      throw permissionDenied(`site${kind}protected`, `You do not have permission to edit this ${KIND_WORD[kind]} page because it may affect all visitors.`);
    }
  }
  const kind = MODEL_KINDS[model];
  if (target.ns !== NS_USER || !target.dbkey.includes('/') || !kind) return;
  if (target.dbkey.startsWith(`${actor.name.replaceAll(' ', '_')}/`)) {
    if (!has(`editmyuser${kind}`, `edituser${kind}`)) throw permissionDenied(`mycustom${kind}protected`, `You do not have permission to edit this ${KIND_WORD[kind]} page.`);
  } else if (!['delete', 'deleterevision', 'suppressrevision'].includes(action) && !has(`edituser${kind}`)) {
    // Deletion is left alone: a user's abusive subpage must not need an interface administrator to go.
    throw permissionDenied(`custom${kind}protected`, `You do not have permission to edit this ${KIND_WORD[kind]} page because it contains another user's personal settings.`);
  }
}

/**
 * May this caller change this title: the title's own rules (checkTitleRules), then its page,
 * cascading and create protection (checkProtection) — the one check every write path makes, in
 * PermissionManager's order. Blocks are the gateway's (the auth service owns them).
 */
export async function checkTitlePermissions(
  q: Queryable,
  db: Db,
  codec: TitleCodec,
  target: { ns: number; dbkey: string },
  action: TitleAction,
  actor: TitleActor,
  page: { model: string; known?: { pageId: number | undefined; protection?: PageProtection | undefined } },
): Promise<void> {
  checkTitleRules(codec, target, page.model, action, actor);
  const restriction: RestrictionType | undefined = action === 'move-target' ? 'create' : RESTRICTION_TYPES.has(action) ? (action as RestrictionType) : undefined;
  if (restriction) await checkProtection(q, db, codec, target, restriction, actor.rights, page.known);
}

const RESTRICTION_TYPES = new Set<string>(['edit', 'move', 'upload', 'create']);
