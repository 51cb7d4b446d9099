/* Typed wrapper of wiki.content.v1.ImportService (XML dumps' pages and revisions; the content service's address). */
import { makeClient, ServiceError, unary } from '@quire/kit';
import { ImportServiceClient, ImportPagesRequest, type ExportPagesRequest, type ExportPagesResponse, type FinishImportResponse, type ImportPagesResponse } from '@quire/proto/wiki/content/v1/import';
import type { DeepPartial } from '@quire/proto/wiki/content/v1/import';
import type { CallOpts } from './call-options.js';

/** One piece of ExportPages' stream: a page's header or one of its revisions. */
export type ExportItem = NonNullable<ExportPagesResponse['item']>;

export class DumpsClient {
  constructor(private readonly c: ImportServiceClient) {}
  static connect(addr: string, secretKey?: string): DumpsClient {
    return new DumpsClient(makeClient(ImportServiceClient, addr, {}, secretKey));
  }
  /** Pages, each followed by its revisions, in page id order (a stream: constant memory). */
  async *exportPages(req: Partial<ExportPagesRequest>): AsyncGenerator<ExportItem> {
    const stream = this.c.exportPages({ pageIds: [], namespaces: [], currentOnly: false, afterPageId: 0, ...req });
    try {
      for await (const msg of stream as AsyncIterable<ExportPagesResponse>) if (msg.item) yield msg.item;
    } catch (e) {
      throw ServiceError.fromGrpc(e);
    } finally {
      stream.cancel();
    }
  }
  /** Each page in its own transaction; a page's revisions that are already there are skipped. */
  importPages(req: DeepPartial<ImportPagesRequest>, o?: CallOpts): Promise<ImportPagesResponse> {
    return unary(this.c, this.c.importPages, ImportPagesRequest.fromPartial(req), { deadlineMs: 300_000, ...o });
  }
  /** Recent changes of the imported revisions (rebuildrecentchanges) and the waiting link jobs. */
  finishImport(maxAgeSeconds = 0, o?: CallOpts): Promise<FinishImportResponse> {
    return unary(this.c, this.c.finishImport, { maxAgeSeconds }, { deadlineMs: 600_000, ...o });
  }
  close() {
    this.c.close();
  }
}
