/*
 * An uploaded XML dump imported as MediaWiki's ImportStreamSource::newFromUpload + ImportReporter
 * do it: the users prefixed with the interwiki prefix (or given to local accounts), the pages
 * into their own namespaces, one namespace, or below a root page; each page that gets revisions
 * also gets a null revision and an import/upload log entry with the summary; the dump's log
 * items are logged (without recent changes), each once. Shared by
 * action=import and Special:Import. Unlike MediaWiki, the whole upload is read and checked
 * first, so a malformed or truncated file writes nothing.
 */
import { Readable } from 'node:stream';
import type { EditActor, ImportPageResult } from '../clients/types.js';
import type { AuthClient, ContentClient } from '../clients/index.js';
import type { DumpsClient } from '../clients/dumps.js';
import { englishMessage } from '../i18n/messages.js';
import { contentLogSink, importDump } from './importer.js';
import { decompressed, readDump, type DumpItem } from './reader.js';

export interface UploadImportResult {
  pages: ImportPageResult[];
  /** Log items of the dump written (those already there are not counted). */
  logItems: number;
}

export interface UploadImportOptions {
  /** The interwiki prefix of unknown users (ExternalUserNames), without the ">". */
  usernamePrefix: string;
  assignKnownUsers: boolean;
  /** Every page into this namespace; undefined keeps the dump's. */
  namespace?: number;
  /** Every page a subpage of this page; "" for none. */
  rootPage?: string;
  /** The log comment. */
  summary: string;
  tags: string[];
  performer: EditActor;
  /** $wgMaxArticleSize (KiB): a longer revision fails the import, as WikiImporter's does. */
  maxRevisionKb: number;
}

/**
 * The most an uploaded dump may hold once decompressed: it is read whole before anything is
 * written, so this bounds the memory a few compressed bytes can ask for.
 */
export const UPLOAD_IMPORT_MAX_BYTES = 64 * 1024 * 1024;

/** The null revision's comment: "1 revision imported" / "$1 revisions imported", and ": summary". */
function detailMessage(summary: string, one: boolean): string {
  const suffix = summary ? `${englishMessage('colon-separator')!.replace('&#32;', ' ')}${summary}` : '';
  const template = englishMessage('import-logentry-upload-detail')!;
  return template.replace(/\{\{PLURAL:\$1\|([^|}]*)\|([^}]*)\}\}/, (_m, a: string, b: string) => (one ? a : b)) + suffix;
}

/**
 * Reads the whole upload (plain, gzip or bzip2), then imports it. Throws the reader's DumpError
 * (with the line) before anything is written when the file is bad; a service's refusal (a bad
 * root page, tags the performer may not add) as its ServiceError.
 */
export async function importUploadedDump(deps: { dumps: DumpsClient; auth: AuthClient; content: ContentClient }, data: Buffer, opts: UploadImportOptions): Promise<UploadImportResult> {
  const items: DumpItem[] = [];
  for await (const item of readDump(decompressed(Readable.from([data]), { maxBytes: UPLOAD_IMPORT_MAX_BYTES }), { maxRevisionKb: opts.maxRevisionKb })) items.push(item);
  const out: ImportPageResult[] = [];
  const progress = await importDump(
    items,
    {
      dumps: deps.dumps,
      localUsers: async (names) => {
        const r = await deps.auth.getUsers({ names });
        return new Map(r.users.map((u) => [u.user!.name, u.user!.id]));
      },
      logs: contentLogSink(deps.content),
    },
    {
      usernamePrefix: opts.usernamePrefix.replace(/[:>]+$/, ''),
      assignKnownUsers: opts.assignKnownUsers,
      targetNamespace: opts.namespace ?? -1,
      rootPage: opts.rootPage ?? '',
      log: { performer: opts.performer, reason: opts.summary, detail: detailMessage(opts.summary, true), detailPlural: detailMessage(opts.summary, false), tags: opts.tags, action: 'upload' },
    },
    (results) => {
      out.push(...results);
    },
  );
  return { pages: out, logItems: progress.logItemsImported };
}
