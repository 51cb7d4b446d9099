/*
 * Page protection as MediaWiki 1.39's PermissionManager::checkPageRestrictions,
 * checkCascadingSourcesRestrictions and the title protection of missing pages, over the
 * restrictions store/protection.ts reads. Every write path (edit, move, upload, create) calls
 * `checkProtection` inside its transaction.
 */
import { permissionDenied, type Db, type Queryable } from '@quire/kit';
import { findPage } from '../store/pages.js';
import { cascadeSources, pageProtection, titleProtection, type CascadeSources, type PageProtection } from '../store/protection.js';

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
