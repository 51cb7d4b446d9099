/* Typed wrapper of wiki.content.v1.ArchiveService (the content service's revision listings across pages, same address). */
import { makeClient, unary } from '@quire/kit';
import {
  ArchiveServiceClient,
  EditStashServiceClient,
  RevisionTextServiceClient,
  ChangeContentModelRequest,
  type ChangeContentModelResponse,
  ListAllRevisionsRequest,
  type ListAllRevisionsResponse,
  ListArchivedRevisionsRequest,
  type ListArchivedRevisionsResponse,
  MergeHistoryRequest,
  type MergeHistoryResponse,
  DeleteOldFileVersionRequest,
  type DeleteOldFileVersionResponse,
  RevisionDeleteLogEntriesRequest,
  type RevisionDeleteLogEntriesResponse,
  RevisionDeleteArchivedRequest,
  type RevisionDeleteArchivedResponse,
} from '@quire/proto/wiki/content/v1/archive';
import type { DeepPartial } from '@quire/proto/wiki/content/v1/archive';
import type { CallOpts } from './call-options.js';

export class ArchiveClient {
  constructor(
    private readonly c: ArchiveServiceClient,
    private readonly stash: EditStashServiceClient,
    private readonly text: RevisionTextServiceClient,
  ) {}
  static connect(addr: string, secretKey?: string): ArchiveClient {
    return new ArchiveClient(
      makeClient(ArchiveServiceClient, addr, {}, secretKey),
      makeClient(EditStashServiceClient, addr, {}, secretKey),
      makeClient(RevisionTextServiceClient, addr, {}, secretKey),
    );
  }
  /** Revisions of deleted pages (prop=deletedrevisions, list=alldeletedrevisions, list=deletedrevs). */
  listArchivedRevisions(req: DeepPartial<ListArchivedRevisionsRequest>, o?: CallOpts): Promise<ListArchivedRevisionsResponse> {
    return unary(this.c, this.c.listArchivedRevisions, ListArchivedRevisionsRequest.fromPartial(req), o);
  }
  /** Live revisions of all pages by timestamp (list=allrevisions). */
  listAllRevisions(req: Partial<ListAllRevisionsRequest>, o?: CallOpts): Promise<ListAllRevisionsResponse> {
    return unary(this.c, this.c.listAllRevisions, ListAllRevisionsRequest.fromPartial(req), o);
  }
  /** The title of each archived revision id; unknown ids are absent. */
  async archivedRevisionTitles(revIds: number[], o?: CallOpts): Promise<Map<number, string>> {
    if (revIds.length === 0) return new Map();
    const r = await unary(this.c, this.c.getArchivedRevisionTitles, { revIds }, o);
    return new Map(r.titles.map((t) => [t.revId, t.title]));
  }
  /** action=changecontentmodel: a revision in the new model with its log entry, in one transaction. */
  changeContentModel(req: DeepPartial<ChangeContentModelRequest>, o?: CallOpts): Promise<ChangeContentModelResponse> {
    return unary(this.c, this.c.changeContentModel, ChangeContentModelRequest.fromPartial(req), o);
  }
  /** action=mergehistory: the source's older revisions to the destination with the merge log entry, in one transaction. */
  mergeHistory(req: DeepPartial<MergeHistoryRequest>, o?: CallOpts): Promise<MergeHistoryResponse> {
    return unary(this.c, this.c.mergeHistory, MergeHistoryRequest.fromPartial(req), o);
  }
  /** action=delete with oldimage: one old file version archived and logged; handled=false when the title has no current file. */
  deleteOldFileVersion(req: DeepPartial<DeleteOldFileVersionRequest>, o?: CallOpts): Promise<DeleteOldFileVersionResponse> {
    return unary(this.c, this.c.deleteOldFileVersion, DeleteOldFileVersionRequest.fromPartial(req), o);
  }
  /** action=revisiondelete type=logging: log_deleted of log entries with the delete/event entry, in one transaction. */
  revisionDeleteLogEntries(req: DeepPartial<RevisionDeleteLogEntriesRequest>, o?: CallOpts): Promise<RevisionDeleteLogEntriesResponse> {
    return unary(this.c, this.c.revisionDeleteLogEntries, RevisionDeleteLogEntriesRequest.fromPartial(req), o);
  }
  /** action=revisiondelete type=archive: ar_deleted of a deleted page's revisions by timestamp, with the delete/revision entry. */
  revisionDeleteArchived(req: DeepPartial<RevisionDeleteArchivedRequest>, o?: CallOpts): Promise<RevisionDeleteArchivedResponse> {
    return unary(this.c, this.c.revisionDeleteArchived, RevisionDeleteArchivedRequest.fromPartial(req), o);
  }
  /** The hidden-field bits of log entries by id (entries without any are absent). */
  async logEntryVisibility(ids: number[], o?: CallOpts): Promise<Map<number, number>> {
    if (ids.length === 0) return new Map();
    const r = await unary(this.c, this.c.getLogEntryVisibility, { ids }, o);
    return new Map(r.entries.map((e) => [e.id, e.deleted]));
  }
  /** action=stashedit: keeps a text under its SHA-1 for a few minutes; the hash. */
  async stashEditText(text: string, o?: CallOpts): Promise<string> {
    return (await unary(this.stash, this.stash.stashEditText, { text }, o)).textHash;
  }
  /** A stashed text by its SHA-1; undefined when none is kept. */
  async fetchStashedEditText(textHash: string, o?: CallOpts): Promise<string | undefined> {
    return (await unary(this.stash, this.stash.fetchStashedEditText, { textHash }, o)).text;
  }
  /** Section `section` of each wikitext (undefined where it has none), in order. */
  async extractSections(texts: string[], section: string, o?: CallOpts): Promise<(string | undefined)[]> {
    if (texts.length === 0) return [];
    const r = await unary(this.text, this.text.extractSections, { texts, section }, o);
    return r.sections.map((x) => (x.found ? x.text : undefined));
  }
  close() {
    this.c.close();
    this.stash.close();
    this.text.close();
  }
}
