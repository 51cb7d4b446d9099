/*
 * Reads the MediaWiki export format (schema 0.10 and 0.11) as a stream with saxes: constant
 * memory whatever the dump's size (one page with its revisions at a time). Everything wrong with
 * the input — malformed or truncated XML, another schema version, a revision whose SHA-1 does not
 * match its text, a page or revision id seen twice — is a DumpError naming the line, raised
 * before the page it is in is handed out.
 */
import crypto from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import zlib from 'node:zlib';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import unbzip2 from 'unbzip2-stream';
import type { DumpSiteInfo } from './writer.js';

export const READABLE_SCHEMAS = ['0.10', '0.11'];

export class DumpError extends Error {
  constructor(
    message: string,
    /** 0 when the fault is below the XML (the compressed bytes). */
    readonly line: number,
  ) {
    super(line > 0 ? `line ${line}: ${message}` : message);
  }
}

export interface DumpContributor {
  /** Absent with deleted or for an IP. */
  username?: string;
  id?: number;
  ip?: string;
  deleted: boolean;
}

export interface DumpRevisionIn {
  id: number;
  parentId: number;
  timestamp: string;
  contributor: DumpContributor;
  minor: boolean;
  comment: string;
  commentDeleted: boolean;
  model: string;
  format: string;
  text: string;
  textDeleted: boolean;
  sha1: string;
  /** Where the revision starts in the input. */
  line: number;
}

export interface DumpPageIn {
  title: string;
  ns: number;
  id: number;
  redirect: string;
  revisions: DumpRevisionIn[];
  line: number;
  /** <upload> elements seen (not imported). */
  uploads: number;
}

/** A <logitem> (dumpBackup --logs; XmlDumpWriter::writeLogItem). */
export interface DumpLogItemIn {
  id: number;
  timestamp: string;
  contributor: DumpContributor;
  comment: string;
  commentDeleted: boolean;
  type: string;
  action: string;
  /** The target's prefixed text ("" when the action is deleted). */
  logtitle: string;
  /** log_params as stored (PHP-serialized or one value a line). */
  params: string;
  /** <text deleted="deleted">: the target and parameters are hidden. */
  actionDeleted: boolean;
  line: number;
}

/** The dump's <siteinfo> (it names no language). */
export type DumpSiteInfoIn = Omit<DumpSiteInfo, 'lang'>;

export type DumpItem = { kind: 'start'; schema: string } | { kind: 'siteinfo'; siteinfo: DumpSiteInfoIn } | { kind: 'page'; page: DumpPageIn } | { kind: 'logitem'; item: DumpLogItemIn };

const DEFAULT_FORMATS: Record<string, string> = {
  wikitext: 'text/x-wiki',
  javascript: 'text/javascript',
  json: 'application/json',
  css: 'text/css',
  text: 'text/plain',
};

/** MediaWiki's rev_sha1: SHA-1 of the UTF-8 text in base 36, 31 digits. */
export function sha1Base36(text: string): string {
  const hex = crypto.createHash('sha1').update(text, 'utf8').digest('hex');
  return BigInt(`0x${hex}`).toString(36).padStart(31, '0');
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

function emptyRevision(line: number): DumpRevisionIn {
  return { id: 0, parentId: 0, timestamp: '', contributor: { deleted: false }, minor: false, comment: '', commentDeleted: false, model: '', format: '', text: '', textDeleted: false, sha1: '', line };
}

function integer(value: string, what: string, line: number): number {
  if (!/^-?\d+$/.test(value.trim())) throw new DumpError(`${what} is not a number: "${value}"`, line);
  return Number(value.trim());
}

/** $wgMaxArticleSize's default (KiB): WikiImporter refuses a revision whose text is longer. */
export const DEFAULT_MAX_REVISION_KB = 2048;

/** The models whose text WikiImporter::makeContent holds to $wgMaxArticleSize ('' is none given). */
const SIZE_CHECKED_MODELS = new Set(['wikitext', 'css', 'json', 'javascript', 'text', '']);

/** WikiImporter's message for a revision over $wgMaxArticleSize. */
function tooLarge(revId: number, maxKb: number, line: number): DumpError {
  return new DumpError(`The text of ${revId ? `the revision with ID ${revId}` : 'a revision'} exceeds the maximum allowable size (${maxKb} KiB)`, line);
}

export interface ReadDumpOptions {
  /** $wgMaxArticleSize in KiB (DEFAULT_MAX_REVISION_KB). */
  maxRevisionKb?: number;
}

/**
 * Parses a dump, yielding the schema, the siteinfo, then each complete page (with all its
 * revisions) and each log item. The source gives bytes (decompressed) or strings. A revision's
 * text over `maxRevisionKb` is refused as WikiImporter refuses it, and without waiting for its
 * end: a few compressed bytes can hold gigabytes of one text (saxes keeps a text until the next
 * tag), so the characters read since the last tag are bounded too.
 */
export async function* readDump(source: AsyncIterable<Buffer | string>, opts: ReadDumpOptions = {}): AsyncGenerator<DumpItem> {
  const maxKb = opts.maxRevisionKb ?? DEFAULT_MAX_REVISION_KB;
  // A text's characters may be written as references (&amp; is five for one): the bound between tags allows for that.
  const maxUntagged = maxKb * 1024 * 6 + 64 * 1024;
  let tagEvents = 0;
  let untagged = 0;
  const parser = new SaxesParser<{ xmlns: false; position: true }>({ xmlns: false, position: true });
  const queue: DumpItem[] = [];
  const stack: string[] = [];
  const pageIds = new Set<number>();
  const revIds = new Set<number>();
  let buf: string[] | undefined;
  let sawRoot = false;
  let closedRoot = false;
  let site: DumpSiteInfoIn | undefined;
  let nsAttrs: { key: number; case: string } | undefined;
  let page: DumpPageIn | undefined;
  let rev: DumpRevisionIn | undefined;
  let textSha1Attr = '';
  let logItem: DumpLogItemIn | undefined;

  parser.on('error', (e) => {
    // saxes prefixes "line:column: "; the line is ours to state.
    throw new DumpError(`malformed XML: ${e.message.replace(/^\d+:\d+: /, '')}`, parser.line);
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    tagEvents++;
    const name = tag.name;
    const path = stack.join('/');
    stack.push(name);
    const attr = (k: string) => tag.attributes[k] ?? '';
    if (!sawRoot) {
      sawRoot = true;
      if (name !== 'mediawiki') throw new DumpError(`not a MediaWiki dump: the root element is <${name}>, not <mediawiki>`, parser.line);
      const version = attr('version') || /export-(\d+\.\d+)\/?$/.exec(attr('xmlns'))?.[1] || '';
      if (!READABLE_SCHEMAS.includes(version)) {
        throw new DumpError(`export schema version "${version}" is not supported (Quire reads ${READABLE_SCHEMAS.join(' and ')})`, parser.line);
      }
      queue.push({ kind: 'start', schema: version });
      return;
    }
    if (path === 'mediawiki' && name === 'siteinfo') site = { sitename: '', dbname: '', base: '', generator: '', case: '', namespaces: [] };
    else if (path === 'mediawiki' && name === 'page') page = { title: '', ns: 0, id: 0, redirect: '', revisions: [], line: parser.line, uploads: 0 };
    else if (path === 'mediawiki' && name === 'logitem') {
      logItem = { id: 0, timestamp: '', contributor: { deleted: false }, comment: '', commentDeleted: false, type: '', action: '', logtitle: '', params: '', actionDeleted: false, line: parser.line };
    } else if (path === 'mediawiki/logitem' && logItem) {
      if (name === 'contributor') logItem.contributor.deleted = attr('deleted') === 'deleted';
      else if (name === 'comment') logItem.commentDeleted = attr('deleted') === 'deleted';
      else if (name === 'text') logItem.actionDeleted = attr('deleted') === 'deleted';
    } else if (path === 'mediawiki/page' && name === 'revision') {
      rev = emptyRevision(parser.line);
    } else if (path === 'mediawiki/page' && name === 'upload') page!.uploads++;
    else if (path === 'mediawiki/page' && name === 'redirect') page!.redirect = attr('title');
    else if (path === 'mediawiki/page/revision' && name === 'contributor') rev!.contributor.deleted = attr('deleted') === 'deleted';
    else if (path === 'mediawiki/page/revision' && name === 'comment') rev!.commentDeleted = attr('deleted') === 'deleted';
    else if (path === 'mediawiki/page/revision' && name === 'minor') rev!.minor = true;
    else if (path === 'mediawiki/page/revision' && name === 'content') {
      throw new DumpError('revisions with more than one slot (<content>) are not supported', parser.line);
    } else if (path === 'mediawiki/page/revision' && name === 'text') {
      rev!.textDeleted = attr('deleted') === 'deleted';
      textSha1Attr = attr('sha1');
    } else if (path === 'mediawiki/siteinfo/namespaces' && name === 'namespace') nsAttrs = { key: integer(attr('key'), 'namespace key', parser.line), case: attr('case') };
    buf = [];
  });
  parser.on('text', (t) => buf?.push(t));
  parser.on('cdata', (t) => buf?.push(t));
  parser.on('closetag', (tag) => {
    tagEvents++;
    const name = tag.name;
    stack.pop();
    const path = stack.join('/');
    const value = buf ? buf.join('') : '';
    buf = undefined;
    const line = parser.line;
    if (path === '' && name === 'mediawiki') closedRoot = true;
    else if (path === 'mediawiki/siteinfo' && site && name in site && name !== 'namespaces') (site as unknown as Record<string, string>)[name] = value;
    else if (path === 'mediawiki/siteinfo/namespaces' && name === 'namespace' && site && nsAttrs) site.namespaces.push({ ...nsAttrs, name: value });
    else if (path === 'mediawiki' && name === 'siteinfo' && site) queue.push({ kind: 'siteinfo', siteinfo: site });
    else if (path === 'mediawiki/page' && page) {
      if (name === 'title') page.title = value;
      else if (name === 'ns') page.ns = integer(value, '<ns>', line);
      else if (name === 'id') {
        page.id = integer(value, 'page <id>', line);
        if (pageIds.has(page.id)) throw new DumpError(`page id ${page.id} appears twice`, line);
        pageIds.add(page.id);
      } else if (name === 'revision' && rev) {
        page.revisions.push(finishRevision(rev, textSha1Attr, revIds, page.title));
        rev = undefined;
      }
    } else if (path === 'mediawiki/page/revision' && rev) {
      switch (name) {
        case 'id':
          rev.id = integer(value, 'revision <id>', line);
          break;
        case 'parentid':
          rev.parentId = integer(value, '<parentid>', line);
          break;
        case 'timestamp':
          if (!ISO.test(value.trim())) throw new DumpError(`<timestamp> is not ISO 8601: "${value}"`, line);
          rev.timestamp = value.trim();
          break;
        case 'comment':
          rev.comment = value;
          break;
        case 'model':
          rev.model = value.trim();
          break;
        case 'format':
          rev.format = value.trim();
          break;
        case 'text':
          if (SIZE_CHECKED_MODELS.has(rev.model) && Buffer.byteLength(value, 'utf8') > maxKb * 1024) throw tooLarge(rev.id, maxKb, line);
          rev.text = value;
          break;
        case 'sha1':
          rev.sha1 = value.trim();
          break;
      }
    } else if (path === 'mediawiki/page/revision/contributor' && rev) {
      if (name === 'username') rev.contributor.username = value;
      else if (name === 'id') rev.contributor.id = integer(value, 'contributor <id>', line);
      else if (name === 'ip') rev.contributor.ip = value;
    } else if (path === 'mediawiki/logitem' && logItem) {
      if (name === 'id') logItem.id = integer(value, 'log item <id>', line);
      else if (name === 'timestamp') {
        if (!ISO.test(value.trim())) throw new DumpError(`<timestamp> is not ISO 8601: "${value}"`, line);
        logItem.timestamp = value.trim();
      } else if (name === 'comment') logItem.comment = value;
      else if (name === 'type') logItem.type = value.trim();
      else if (name === 'action') logItem.action = value.trim();
      else if (name === 'logtitle') logItem.logtitle = value;
      else if (name === 'params') logItem.params = value;
    } else if (path === 'mediawiki/logitem/contributor' && logItem) {
      if (name === 'username') logItem.contributor.username = value;
      else if (name === 'id') logItem.contributor.id = integer(value, 'contributor <id>', line);
      else if (name === 'ip') logItem.contributor.ip = value;
    } else if (path === 'mediawiki' && name === 'logitem' && logItem) {
      if (!logItem.type || !logItem.action) throw new DumpError('a <logitem> without <type> or <action>', logItem.line);
      if (!logItem.timestamp) throw new DumpError('a <logitem> without <timestamp>', logItem.line);
      queue.push({ kind: 'logitem', item: logItem });
      logItem = undefined;
    } else if (path === 'mediawiki' && name === 'page' && page) {
      if (page.title === '') throw new DumpError('a <page> without <title>', page.line);
      queue.push({ kind: 'page', page });
      page = undefined;
    }
  });

  const decoder = new StringDecoder('utf8');
  // The pages completed before a fault in the same chunk are still handed out, then the fault.
  async function* write(text: string): AsyncGenerator<DumpItem> {
    let fault: unknown;
    const tagsBefore = tagEvents;
    try {
      parser.write(text);
      untagged = tagEvents === tagsBefore ? untagged + text.length : 0;
      if (untagged > maxUntagged) throw tooLarge(rev?.id ?? 0, maxKb, parser.line);
    } catch (e) {
      fault = e;
    }
    while (queue.length) yield queue.shift()!;
    if (fault) throw fault;
  }
  for await (const chunk of source) yield* write(typeof chunk === 'string' ? chunk : decoder.write(chunk));
  yield* write(decoder.end());
  if (!sawRoot) throw new DumpError('the input is empty', parser.line);
  if (!closedRoot) {
    // The file ends inside an element: truncated.
    throw new DumpError(`the input ends inside <${stack[stack.length - 1] ?? 'mediawiki'}> (truncated?)`, parser.line);
  }
  parser.close();
  while (queue.length) yield queue.shift()!;
}

function finishRevision(rev: DumpRevisionIn, textSha1: string, revIds: Set<number>, title: string): DumpRevisionIn {
  const where = `revision ${rev.id || '(no id)'} of "${title}"`;
  if (rev.id) {
    if (revIds.has(rev.id)) throw new DumpError(`revision id ${rev.id} appears twice`, rev.line);
    revIds.add(rev.id);
  }
  if (!rev.timestamp) throw new DumpError(`${where} has no <timestamp>`, rev.line);
  if (!rev.contributor.deleted && !rev.contributor.username && !rev.contributor.ip) throw new DumpError(`${where} has no contributor`, rev.line);
  if (!rev.model) rev.model = 'wikitext';
  if (!rev.format) rev.format = DEFAULT_FORMATS[rev.model] ?? '';
  if (!rev.textDeleted) {
    const actual = sha1Base36(rev.text);
    for (const expected of [rev.sha1, textSha1]) {
      if (expected && expected !== actual) throw new DumpError(`${where}: the SHA-1 of its text is ${actual}, the dump says ${expected}`, rev.line);
    }
  }
  return rev;
}

/**
 * The dump's bytes, decompressed by their magic number: gzip (1f 8b), bzip2 ("BZh") or plain.
 * Corrupt compressed data is a DumpError too (the input's fault, not ours), and so is more than
 * `maxBytes` of it once decompressed (a small upload can unpack to gigabytes).
 */
export async function* decompressed(input: Readable, opts: { maxBytes?: number } = {}): AsyncGenerator<Buffer> {
  const compressed = { is: false };
  let total = 0;
  try {
    for await (const chunk of decompress(input, compressed)) {
      total += chunk.length;
      if (opts.maxBytes !== undefined && total > opts.maxBytes) {
        input.destroy();
        throw new DumpError(`the dump is larger than ${Math.round(opts.maxBytes / 1024 / 1024)} MiB once decompressed`, 0);
      }
      yield chunk;
    }
  } catch (e) {
    if (!compressed.is || e instanceof DumpError) throw e;
    throw new DumpError(`the compressed data is corrupt or truncated (${e instanceof Error ? e.message : String(e)})`, 0);
  }
}

async function* decompress(input: Readable, compressed: { is: boolean }): AsyncGenerator<Buffer> {
  const it = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await it.next();
  if (first.done) return;
  const head = first.value;
  const rest = Readable.from(
    (async function* () {
      yield head;
      for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
    })(),
    { objectMode: false },
  );
  if (head[0] === 0x1f && head[1] === 0x8b) {
    compressed.is = true;
    yield* rest.pipe(zlib.createGunzip());
  } else if (head.subarray(0, 3).toString('latin1') === 'BZh') {
    compressed.is = true;
    const out = new PassThrough();
    const bz = unbzip2();
    bz.on('error', (e: Error) => out.destroy(e));
    rest.on('error', (e: Error) => out.destroy(e));
    rest.pipe(bz).pipe(out);
    yield* out;
  } else {
    yield* rest;
  }
}
