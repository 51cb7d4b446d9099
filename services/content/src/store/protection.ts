/*
 * Page protection as MediaWiki 1.39's RestrictionStore + PermissionManager::checkPageRestrictions,
 * checkCascadingSourcesRestrictions and the title protection of missing pages. Every write path
 * (edit, move, upload, create) calls `checkProtection` inside its transaction.
 */
import { permissionDenied, type Db, type Queryable } from '@quire/kit';
import { findPage } from './pages.js';

export type RestrictionType = 'edit' | 'move' | 'upload' | 'create';

export interface Restriction {
  type: string;
  level: string;
  cascade: boolean;
  /** undefined: infinite. */
  expiry: Date | undefined;
}

export interface TitleProtection {
  level: string;
  expiry: Date | undefined;
  userName: string;
  reason: string;
}

/** The protection levels of $wgRestrictionLevels, as the rights that pass them (sysop → editprotected). */
export function levelRight(level: string): string {
  if (level === 'sysop') return 'editprotected';
  if (level === 'autoconfirmed') return 'editsemiprotected';
  return level;
}

/** The unexpired restrictions of an existing page. */
export async function pageRestrictions(q: Queryable, db: Db, pageId: number): Promise<Restriction[]> {
  const r = await q.query<{ pr_type: string; pr_level: string; pr_cascade: boolean; pr_expiry: Date | null }>(
    `SELECT pr_type, pr_level, pr_cascade, pr_expiry FROM ${db.schema}.page_restrictions
      WHERE pr_page = $1 AND (pr_expiry IS NULL OR pr_expiry > now()) ORDER BY pr_id`,
    [pageId],
  );
  return r.rows.map((row) => ({ type: row.pr_type, level: row.pr_level, cascade: row.pr_cascade, expiry: row.pr_expiry ?? undefined }));
}

/** The unexpired create protection of a missing title. */
export async function titleProtection(q: Queryable, db: Db, ns: number, dbkey: string): Promise<TitleProtection | undefined> {
  const r = await q.query<{ pt_create_perm: string; pt_expiry: Date | null; pt_reason: string; actor_name: string }>(
    `SELECT pt.pt_create_perm, pt.pt_expiry, pt.pt_reason, a.actor_name FROM ${db.schema}.protected_titles pt
       JOIN ${db.schema}.actor a ON a.actor_id = pt.pt_actor
      WHERE pt.pt_namespace = $1 AND pt.pt_title = $2 AND (pt.pt_expiry IS NULL OR pt.pt_expiry > now())`,
    [ns, dbkey],
  );
  const row = r.rows[0];
  return row && { level: row.pt_create_perm, expiry: row.pt_expiry ?? undefined, userName: row.actor_name, reason: row.pt_reason };
}

export interface CascadeSources {
  /** Prefixed-text-ready (namespace, DB key) of the cascade-protected pages that include this one. */
  sources: { ns: number; dbkey: string }[];
  /** The restriction levels they impose, per action. */
  levels: Map<string, Set<string>>;
}

/**
 * RestrictionStore::getCascadeProtectionSources: pages with unexpired cascading protection that
 * transclude this page (templatelinks) or, for a file, use it (imagelinks).
 */
export async function cascadeSources(q: Queryable, db: Db, ns: number, dbkey: string): Promise<CascadeSources> {
  const s = db.schema;
  const r = await q.query<{ page_namespace: number; page_title: string; pr_type: string; pr_level: string }>(
    `SELECT p.page_namespace, p.page_title, pr.pr_type, pr.pr_level
       FROM ${s}.page_restrictions pr JOIN ${s}.page p ON p.page_id = pr.pr_page
      WHERE pr.pr_cascade AND (pr.pr_expiry IS NULL OR pr.pr_expiry > now())
        AND pr.pr_page IN (SELECT tl_from FROM ${s}.templatelinks WHERE tl_namespace = $1 AND tl_title = $2
                           UNION SELECT il_from FROM ${s}.imagelinks WHERE $1 = 6 AND il_to = $2)
      ORDER BY p.page_namespace, p.page_title`,
    [ns, dbkey],
  );
  const sources = new Map<string, { ns: number; dbkey: string }>();
  const levels = new Map<string, Set<string>>();
  for (const row of r.rows) {
    sources.set(`${row.page_namespace}:${row.page_title}`, { ns: row.page_namespace, dbkey: row.page_title });
    let set = levels.get(row.pr_type);
    if (!set) levels.set(row.pr_type, (set = new Set()));
    set.add(row.pr_level);
  }
  return { sources: [...sources.values()], levels };
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
): Promise<void> {
  const has = (right: string) => right === '' || rights.includes(right);
  // UploadBase::verifyTitlePermissions: an upload is an edit and an upload of the file page.
  const actions: RestrictionType[] = action === 'upload' ? ['edit', 'upload'] : [action];
  const pageId = (await findPage(q, db.schema, target))?.id;
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
    const restrictions = await pageRestrictions(q, db, pageId);
    const cascading = restrictions.some((r) => r.cascade);
    for (const r of restrictions) {
      if (!actions.includes(r.type as RestrictionType)) continue;
      if (!has(levelRight(r.level)) || (cascading && !has('protect'))) throw permissionDenied('protectedpage', PROTECTED_PAGE);
    }
  }
  const cascade = await cascadeSources(q, db, target.ns, target.dbkey);
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
 * WikiPage::doUpdateRestrictions' writes, in the caller's transaction: the page's restrictions
 * become `set` (a type not in it is lifted), and expired rows go.
 */
export async function replacePageRestrictions(
  q: Queryable,
  schema: string,
  pageId: number,
  set: { type: string; level: string; cascade: boolean; expiry: Date | null }[],
): Promise<void> {
  await q.query(`DELETE FROM ${schema}.page_restrictions WHERE pr_page = $1 AND NOT (pr_type = ANY($2::text[]))`, [pageId, set.map((p) => p.type)]);
  for (const p of set) {
    await q.query(
      `INSERT INTO ${schema}.page_restrictions (pr_page, pr_type, pr_level, pr_cascade, pr_expiry) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (pr_page, pr_type) DO UPDATE SET pr_level = EXCLUDED.pr_level, pr_cascade = EXCLUDED.pr_cascade, pr_expiry = EXCLUDED.pr_expiry`,
      [pageId, p.type, p.level, p.cascade, p.expiry],
    );
  }
  await q.query(`DELETE FROM ${schema}.page_restrictions WHERE pr_page = $1 AND pr_expiry IS NOT NULL AND pr_expiry <= now()`, [pageId]);
}

/** Sets (or replaces) the create protection of a missing title. */
export async function setTitleProtection(
  q: Queryable,
  schema: string,
  title: { ns: number; dbkey: string },
  p: { actorId: number; reason: string; timestamp: Date; expiry: Date | null; level: string },
): Promise<void> {
  await q.query(
    `INSERT INTO ${schema}.protected_titles (pt_namespace, pt_title, pt_actor, pt_reason, pt_timestamp, pt_expiry, pt_create_perm)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (pt_namespace, pt_title) DO UPDATE SET pt_actor = EXCLUDED.pt_actor, pt_reason = EXCLUDED.pt_reason,
       pt_timestamp = EXCLUDED.pt_timestamp, pt_expiry = EXCLUDED.pt_expiry, pt_create_perm = EXCLUDED.pt_create_perm`,
    [title.ns, title.dbkey, p.actorId, p.reason, p.timestamp, p.expiry, p.level],
  );
}

export async function removeTitleProtection(q: Queryable, schema: string, title: { ns: number; dbkey: string }): Promise<void> {
  await q.query(`DELETE FROM ${schema}.protected_titles WHERE pt_namespace = $1 AND pt_title = $2`, [title.ns, title.dbkey]);
}
