/*
 * Page protection's tables as MediaWiki 1.39's RestrictionStore reads and writes them: page
 * restrictions, cascading sources, the create protection of missing titles. The checks every write
 * path makes (PermissionManager) are in domain/protection.ts.
 */
import type { Db, Queryable } from '@quire/kit';

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

/*
 * The unexpired cascading restrictions (`pr`, with their page `p`) of pages that transclude the
 * page at `ns`/`dbkey` (SQL expressions) or, for a file, use it. Found from the cascading
 * restrictions (a partial index; a wiki has few, often none), each checked against the links
 * table by its primary key: driven from the links instead, the planner hashed the whole page table
 * and the templatelinks of a namespace (tl_target is COLLATE "C", so `tl_title = …` could use only
 * its first column) on every edit: 9–14 ms of PGlite's time on a fresh wiki.
 */
function cascadingSourcesFrom(s: string, ns: string, dbkey: string): string {
  return `FROM ${s}.page_restrictions pr JOIN ${s}.page p ON p.page_id = pr.pr_page
      WHERE pr.pr_cascade AND (pr.pr_expiry IS NULL OR pr.pr_expiry > now())
        AND (EXISTS (SELECT 1 FROM ${s}.templatelinks WHERE tl_from = pr.pr_page AND tl_namespace = ${ns} AND tl_title = ${dbkey})
             OR (${ns} = 6 AND EXISTS (SELECT 1 FROM ${s}.imagelinks WHERE il_from = pr.pr_page AND il_to = ${dbkey})))`;
}

/**
 * RestrictionStore::getCascadeProtectionSources: pages with unexpired cascading protection that
 * transclude this page (templatelinks) or, for a file, use it (imagelinks).
 */
export async function cascadeSources(q: Queryable, db: Db, ns: number, dbkey: string): Promise<CascadeSources> {
  const r = await q.query<{ page_namespace: number; page_title: string; pr_type: string; pr_level: string }>(
    `SELECT p.page_namespace, p.page_title, pr.pr_type, pr.pr_level ${cascadingSourcesFrom(db.schema, '$1', '$2')}
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

/** A row of `pageProtectionRows`: an own restriction, or a cascading source's. */
export interface ProtectionRow {
  own: boolean;
  pr_type: string;
  pr_level: string;
  pr_cascade: boolean;
  /** A Date from pg, text through json_agg. */
  pr_expiry: Date | string | null;
  page_namespace: number | null;
  page_title: string | null;
}

/** The page's protection as checkProtection needs it: own restrictions and cascading sources. */
export interface PageProtection {
  restrictions: Restriction[];
  cascade: CascadeSources;
}

/**
 * The statement behind `pageProtection`, over SQL expressions for the page id, namespace and DB
 * key, so that another read can carry it along (an edit's page read: `RevisionStore.pageForEdit`).
 */
export function pageProtectionRows(s: string, pageId: string, ns: string, dbkey: string): string {
  return `SELECT * FROM (
       SELECT true AS own, pr_type, pr_level, pr_cascade, pr_expiry, NULL::int AS page_namespace, NULL::text AS page_title, pr_id AS ord
         FROM ${s}.page_restrictions WHERE pr_page = ${pageId} AND (pr_expiry IS NULL OR pr_expiry > now())
       UNION ALL
       SELECT false, pr.pr_type, pr.pr_level, true, pr.pr_expiry, p.page_namespace, p.page_title, 0
         ${cascadingSourcesFrom(s, ns, dbkey)}
     ) x ORDER BY own DESC, ord, page_namespace, page_title`;
}

export function pageProtectionFromRows(rows: readonly ProtectionRow[]): PageProtection {
  const restrictions: Restriction[] = [];
  const sources = new Map<string, { ns: number; dbkey: string }>();
  const levels = new Map<string, Set<string>>();
  for (const row of rows) {
    if (row.own) {
      restrictions.push({ type: row.pr_type, level: row.pr_level, cascade: row.pr_cascade, expiry: row.pr_expiry === null ? undefined : new Date(row.pr_expiry) });
      continue;
    }
    sources.set(`${row.page_namespace}:${row.page_title}`, { ns: row.page_namespace!, dbkey: row.page_title! });
    let set = levels.get(row.pr_type);
    if (!set) levels.set(row.pr_type, (set = new Set()));
    set.add(row.pr_level);
  }
  return { restrictions, cascade: { sources: [...sources.values()], levels } };
}

/**
 * An existing page's own unexpired restrictions and its cascading sources in one statement (what
 * every edit checks: `pageRestrictions` and `cascadeSources` together).
 */
export async function pageProtection(q: Queryable, db: Db, pageId: number, ns: number, dbkey: string): Promise<PageProtection> {
  const r = await q.query<ProtectionRow>(pageProtectionRows(db.schema, '$1', '$2', '$3'), [pageId, ns, dbkey]);
  return pageProtectionFromRows(r.rows);
}

/**
 * WikiPage::doUpdateRestrictions' writes, in the caller's transaction: the page's restrictions
 * become `set` (a type not in it is lifted), and expired rows go.
 */
export async function replacePageRestrictions(q: Queryable, schema: string, pageId: number, set: { type: string; level: string; cascade: boolean; expiry: Date | null }[]): Promise<void> {
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
