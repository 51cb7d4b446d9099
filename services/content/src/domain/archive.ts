/*
 * Listings of revisions across pages: the archive's deleted revisions and every page's live
 * revisions. Turns a request's titles and title parts into DB keys by the wiki's title rules
 * (ApiQueryBase::titlePartToKey), then reads through the store.
 */
import { invalidArgument } from '@quire/kit';
import { parsePageTitleOrThrow } from '../title/page-title.js';
import { AllRevisionsStore, ArchiveStore, type ArchiveQuery, type ArchiveRow, type LiveRevisionRow } from '../store/archive.js';
import { MalformedTitleError, ucfirst, type TitleCodec } from '../title/codec.js';
import type { Db } from '@quire/kit';

/** An archive query as requested: titles and title parts as text (the domain makes DB keys of them). */
export interface ArchiveListing extends Omit<ArchiveQuery, 'titles' | 'revIds' | 'titleBounds'> {
  titles: string[];
  revIds: number[];
  from: string;
  to: string;
  prefix: string;
}

export class ArchiveDomain {
  private readonly archive: ArchiveStore;
  private readonly live: AllRevisionsStore;

  constructor(
    db: Db,
    private readonly codec: TitleCodec,
  ) {
    this.archive = new ArchiveStore(db);
    this.live = new AllRevisionsStore(db);
  }

  /**
   * ApiQueryBase::titlePartToKey: the DB key form of the start of a title in a namespace;
   * `apierror-invalidtitle` when it could not begin a title there.
   */
  titlePartToKey(part: string, ns: number): string {
    const key = part.replace(/ /g, '_');
    let parsed;
    try {
      parsed = this.codec.parse(ns === 0 ? `${key}x` : `${this.codec.prefixedText(ns, '')}${key}x`, ns);
    } catch (e) {
      if (e instanceof MalformedTitleError) throw invalidArgument('invalidtitle', `Bad title "${part}".`);
      throw e;
    }
    if (parsed.ns !== ns || parsed.fragment) throw invalidArgument('invalidtitle', `Bad title "${part}".`);
    const dbkey = this.codec.namespaces.isCapitalized(ns) ? ucfirst(parsed.dbkey) : parsed.dbkey;
    return dbkey.slice(0, -1);
  }

  async listArchived(req: ArchiveListing): Promise<ArchiveRow[]> {
    const titles = req.titles.length ? req.titles.map((t) => parsePageTitleOrThrow(this.codec, t)) : undefined;
    const hasBounds = req.from !== '' || req.to !== '' || req.prefix !== '';
    const boundNamespaces = req.namespaces ?? this.codec.namespaces.list.map((n) => n.id).filter((ns) => ns >= 0);
    return this.archive.list({
      ...(titles ? { titles: titles.map((t) => ({ ns: t.ns, dbkey: t.dbkey })) } : {}),
      ...(req.revIds.length ? { revIds: req.revIds } : {}),
      ...(req.namespaces ? { namespaces: req.namespaces } : {}),
      ...(hasBounds
        ? {
            titleBounds: boundNamespaces.map((ns) => ({
              ns,
              ...(req.from !== '' ? { from: this.titlePartToKey(req.from, ns) } : {}),
              ...(req.to !== '' ? { to: this.titlePartToKey(req.to, ns) } : {}),
              ...(req.prefix !== '' ? { prefix: this.titlePartToKey(req.prefix, ns) } : {}),
            })),
          }
        : {}),
      ...(req.start ? { start: req.start } : {}),
      ...(req.end ? { end: req.end } : {}),
      newer: req.newer,
      ...(req.user !== undefined ? { user: req.user } : {}),
      ...(req.excludeUser !== undefined ? { excludeUser: req.excludeUser } : {}),
      ...(req.tag !== undefined ? { tag: req.tag } : {}),
      hiddenUserMask: req.hiddenUserMask,
      sort: req.sort,
      ...(req.cursor ? { cursor: req.cursor } : {}),
      limit: req.limit,
      withContent: req.withContent,
      uniqueTitles: req.uniqueTitles,
    });
  }

  listAll(req: Parameters<AllRevisionsStore['list']>[0]): Promise<LiveRevisionRow[]> {
    return this.live.list(req);
  }

  async archivedTitles(revIds: number[]): Promise<{ revId: number; title: string }[]> {
    const rows = await this.archive.titlesOf(revIds);
    return rows.map((r) => ({ revId: r.revId, title: this.codec.prefixedText(r.ns, r.dbkey) }));
  }

  prefixedText(ns: number, dbkey: string): string {
    return this.codec.prefixedText(ns, dbkey);
  }
}
