/*
 * The link tables of a page, replaced as a whole from a render (MediaWiki's LinksUpdate):
 * pagelinks, templatelinks, categorylinks (with collation sort keys), langlinks, imagelinks,
 * externallinks, iwlinks and page_props.
 */
import type { Queryable } from '@quire/kit';
import { NS_CATEGORY, NS_FILE } from '../title/namespaces.js';
import type { RenderResult } from '../render/types.js';

/** MediaWiki's "uppercase" collation over Title::getCategorySortkey(prefix). */
export function categorySortKey(pageText: string, prefix: string): string {
  return (prefix === '' ? pageText : `${prefix}\n${pageText}`).toUpperCase();
}

export async function writeLinks(q: Queryable, schema: string, page: { id: number; ns: number; dbkey: string }, r: RenderResult): Promise<void> {
  const from = page.id;
  // Two statements whatever the page holds (a refreshLinks job runs after every edit):
  // every table's rows go, then every table's new rows come (a statement of its own, so that the
  // inserts see the deletes).
  const tables = ['pagelinks', 'templatelinks', 'categorylinks', 'langlinks', 'imagelinks', 'externallinks', 'iwlinks', 'page_props'];
  await q.query(
    `WITH ${tables.map((t, i) => `d${i} AS (DELETE FROM ${schema}.${t} WHERE ${t === 'page_props' ? 'pp_page' : `${prefixOf(t)}_from`} = $1)`).join(', ')}
     UPDATE ${schema}.page SET page_links_updated = now() WHERE page_id = $1`,
    [from],
  );
  const text = page.dbkey.replaceAll('_', ' ');
  const defaultSort = r.properties.defaultsort ?? '';
  const categoryType = page.ns === NS_CATEGORY ? 'subcat' : page.ns === NS_FILE ? 'file' : 'page';
  const prefixes = r.categories.map((c) => c.sortkey || defaultSort);
  // ParserOutput::addInterwikiLink keeps the title's DB key, without its fragment.
  const iwRows = r.interwikiLinks.map((l) => [l.prefix, l.title.split('#')[0]!.trim().replaceAll(' ', '_')] as const).filter(([, title]) => title !== '');
  const props = Object.entries(r.properties);
  const nothing = !r.links.length && !r.templates.length && !r.categories.length && !r.langLinks.length && !r.images.length && !r.externalLinks.length && !iwRows.length && !props.length;
  if (nothing) return;
  await q.query(
    `WITH pl AS (
       INSERT INTO ${schema}.pagelinks (pl_from, pl_namespace, pl_title) SELECT $1::bigint, * FROM unnest($2::int[], $3::text[]) ON CONFLICT DO NOTHING
     ), tl AS (
       INSERT INTO ${schema}.templatelinks (tl_from, tl_namespace, tl_title) SELECT $1::bigint, * FROM unnest($4::int[], $5::text[]) ON CONFLICT DO NOTHING
     ), cl AS (
       INSERT INTO ${schema}.categorylinks (cl_from, cl_to, cl_sortkey, cl_sortkey_prefix, cl_type)
       SELECT $1::bigint, t.cat, t.key, t.prefix, $9::text FROM unnest($6::text[], $7::text[], $8::text[]) AS t(cat, key, prefix) ON CONFLICT DO NOTHING
     ), ll AS (
       INSERT INTO ${schema}.langlinks (ll_from, ll_lang, ll_title) SELECT $1::bigint, * FROM unnest($10::text[], $11::text[]) ON CONFLICT DO NOTHING
     ), il AS (
       INSERT INTO ${schema}.imagelinks (il_from, il_to) SELECT $1::bigint, * FROM unnest($12::text[]) ON CONFLICT DO NOTHING
     ), el AS (
       INSERT INTO ${schema}.externallinks (el_from, el_to) SELECT $1::bigint, * FROM unnest($13::text[])
     ), iwl AS (
       INSERT INTO ${schema}.iwlinks (iwl_from, iwl_prefix, iwl_title) SELECT $1::bigint, * FROM unnest($14::text[], $15::text[]) ON CONFLICT DO NOTHING
     ), pp AS (
       INSERT INTO ${schema}.page_props (pp_page, pp_propname, pp_value) SELECT $1::bigint, * FROM unnest($16::text[], $17::text[])
     )
     SELECT 1`,
    [
      from,
      r.links.map((l) => l.ns),
      r.links.map((l) => l.dbkey),
      r.templates.map((l) => l.ns),
      r.templates.map((l) => l.dbkey),
      r.categories.map((c) => c.dbkey),
      prefixes.map((p) => categorySortKey(text, p)),
      prefixes,
      categoryType,
      r.langLinks.map((l) => l.lang),
      r.langLinks.map((l) => l.title),
      r.images,
      r.externalLinks,
      iwRows.map(([prefix]) => prefix),
      iwRows.map(([, title]) => title),
      props.map(([k]) => k),
      props.map(([, v]) => v),
    ],
  );
}

function prefixOf(table: string): string {
  return ({ pagelinks: 'pl', templatelinks: 'tl', categorylinks: 'cl', langlinks: 'll', imagelinks: 'il', externallinks: 'el', iwlinks: 'iwl' } as Record<string, string>)[table]!;
}

/**
 * Pages that transclude a page (directly or through other templates: templatelinks lists all).
 * COLLATE "C" as tl_target's column is (the same equality): without it only its namespace column served.
 */
export async function transcluders(q: Queryable, schema: string, ns: number, dbkey: string): Promise<{ id: number; ns: number; dbkey: string }[]> {
  const r = await q.query<{ page_id: number; page_namespace: number; page_title: string }>(
    `SELECT p.page_id, p.page_namespace, p.page_title FROM ${schema}.templatelinks tl JOIN ${schema}.page p ON p.page_id = tl.tl_from
     WHERE tl.tl_namespace = $1 AND tl.tl_title COLLATE "C" = $2 ORDER BY p.page_id`,
    [ns, dbkey],
  );
  return r.rows.map((x) => ({ id: x.page_id, ns: x.page_namespace, dbkey: x.page_title }));
}

/** The language links of a page (langlinks), by language code in code-point order. */
export async function languageLinksOf(db: Queryable & { schema: string }, pageId: number): Promise<{ ll_lang: string; ll_title: string }[]> {
  const r = await db.query<{ ll_lang: string; ll_title: string }>(`SELECT ll_lang, ll_title FROM ${db.schema}.langlinks WHERE ll_from = $1 ORDER BY ll_lang COLLATE "C"`, [pageId]);
  return r.rows;
}
