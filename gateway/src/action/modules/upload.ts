/*
 * action=upload (MediaWiki's ApiUpload): the content service checks the file (size, name, type
 * sniffed from the bytes, scripts), raises MediaWiki's warnings and, when there are none or they
 * are ignored, stores the version, its description page and the upload log entry in one
 * transaction. The upload stash as MediaWiki's: stash=1 keeps the file under a filekey, an upload
 * stopped by warnings is stashed too, filekey= publishes a stashed file, and chunks (chunk, offset,
 * filesize, filekey) assemble into a stashed file. As MediaWiki with its defaults:
 * $wgEnableAsyncUploads is false (async is ignored, checkstatus finds a result only while chunks
 * are arriving) and $wgAllowCopyUploads is false (url: copyuploaddisabled).
 */
import type { UploadResponse, UploadWarnings } from '../../clients/types.js';
import { defineModule } from '../define.js';
import { ServiceError } from '@quire/kit';
import { ApiUsageError, setIndexedTagName, type ActionContext, type ResultObject } from '../types.js';
import { fileInfoValues, IMAGEINFO_PROPS } from '../query/imageinfo.js';
import { stashInfoValues, STASH_IMAGEINFO_PROPS } from '../query/stashimageinfo.js';
import { apiError } from './support.js';
import { watchByPreference } from './watchlist-params.js';
import { editActor, editBlock, TAGS_PARAM, countEdits } from './writes.js';

/** ApiUpload::transformWarnings, in UploadBase::checkWarnings' order. */
function warningsResult(w: UploadWarnings): ResultObject {
  const out: ResultObject = {};
  if (w.badfilename) out.badfilename = w.badfilename;
  if (w.exists) out.exists = w.exists;
  if (w.nochangeTimestamp) out.nochange = { timestamp: w.nochangeTimestamp };
  if (w.duplicateVersionTimestamps.length)
    out.duplicateversions = setIndexedTagName(
      w.duplicateVersionTimestamps.map((timestamp) => ({ timestamp })),
      'ver',
    );
  if (w.wasDeleted) out['was-deleted'] = w.wasDeleted;
  if (w.duplicate.length) out.duplicate = setIndexedTagName([...w.duplicate], 'duplicate');
  return setIndexedTagName(out, 'warning');
}

/** Every imageinfo property but archivename, as UploadBase::getImageInfo asks for. */
const UPLOAD_INFO_PROPS = new Set<string>(IMAGEINFO_PROPS.filter((p) => p !== 'archivename'));

export const uploadModule = defineModule({
  name: 'upload',
  group: 'action',
  prefix: '',
  summary: 'Upload a file.',
  params: {
    filename: { type: 'string', help: 'Target filename.' },
    comment: { type: 'string', default: '', help: 'Upload comment. Also used as the initial page text for new files if text is not specified.' },
    tags: { ...TAGS_PARAM, help: 'Change tags to apply to the upload log entry and file page revision.' },
    text: { type: 'text', help: 'Initial page text for new files.' },
    watch: { type: 'boolean', default: false, deprecated: true, help: 'Watch the page.' },
    watchlist: {
      type: ['nochange', 'preferences', 'watch'],
      default: 'preferences',
      help: "Unconditionally add or remove the page from the current user's watchlist, use preferences (ignored for bot users) or do not change watch.",
    },
    ignorewarnings: { type: 'boolean', default: false, help: 'Ignore any warnings.' },
    file: { type: 'upload', help: 'File contents.' },
    url: { type: 'string', help: 'URL to fetch the file from.' },
    filekey: { type: 'string', help: 'Key that identifies a previous upload that was stashed temporarily.' },
    sessionkey: { type: 'string', deprecated: true, help: 'Same as filekey, maintained for backward compatibility.' },
    stash: { type: 'boolean', default: false, help: 'If set, the server will stash the file temporarily instead of adding it to the repository.' },
    filesize: { type: 'integer', min: 0, max: 104857600, help: 'Filesize of entire upload.' },
    offset: { type: 'integer', min: 0, help: 'Offset of chunk in bytes.' },
    chunk: { type: 'upload', help: 'Chunk contents.' },
    async: { type: 'boolean', default: false, help: 'Make potentially large file operations asynchronous when possible.' },
    checkstatus: { type: 'boolean', default: false, help: 'Only fetch the upload status for the given file key.' },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=upload&filename=Wiki.png&file=file_contents_here&token=123ABC': 'Upload a file (multipart/form-data).',
    'action=upload&filename=Wiki.png&url=http%3A//upload.wikimedia.org/wikipedia/en/b/bc/Wiki.png&token=123ABC': 'Upload from a URL.',
    'action=upload&filename=Wiki.png&filekey=filekey&ignorewarnings=1&token=123ABC': 'Complete an upload that failed due to warnings.',
  },
  async execute(ctx) {
    const p = ctx.params;
    const file = ctx.files.get('file');
    const chunk = ctx.files.get('chunk');
    // Copy the session key to the file key, for backward compatibility.
    const filekey = p.filekey || p.sessionkey || undefined;
    // ApiUpload::selectUploadModule: a chunk, or exactly one of filekey, file and url.
    if (!chunk) {
      const given = [filekey !== undefined && 'filekey', file && 'file', p.url !== undefined && 'url'].filter((x): x is string => typeof x === 'string');
      if (given.length === 0) throw new ApiUsageError('missingparam', 'One of the parameters "filekey", "file" and "url" is required.');
      if (given.length > 1) throw new ApiUsageError('invalidparammix', `The parameters ${quotedList(given)} can not be used together.`);
    }
    if (filekey !== undefined && p.checkstatus) {
      ctx.result.upload = await checkStatus(ctx, filekey);
      return;
    }
    if (p.filename === undefined) throw new ApiUsageError('missingparam', 'The "filename" parameter must be set.');
    if (chunk) {
      if (filekey !== undefined && p.offset === 0) throw new ApiUsageError('filekeynotallowed', 'Cannot supply a "filekey" when "offset" is 0.');
      if (filekey === undefined && p.offset !== 0) throw new ApiUsageError('filekeyneeded', 'Must supply a "filekey" when "offset" is non-zero.');
    } else if (filekey !== undefined) {
      if (!/^[\w\-.]+\.\w*$/.test(filekey)) throw new ApiUsageError('invalid-file-key', 'Not a valid file key.');
    } else if (p.url !== undefined) {
      throw new ApiUsageError('copyuploaddisabled', 'Upload by URL disabled.');
    }
    const blockinfo = editBlock(ctx.caller);
    if (blockinfo) throw apiError('blocked', 'apierror-blocked', [], { blockinfo });
    const maxBytes = ctx.deps.config.uploadMaxBytes;
    if (chunk) {
      const res = await ctx.deps.clients.content.uploadChunk({
        actor: editActor(ctx.caller),
        filename: p.filename,
        chunk: chunk.data,
        offset: p.offset ?? 0,
        filesize: p.filesize ?? 0,
        filekey: filekey ?? '',
        maxBytes,
        ignoreWarnings: p.ignorewarnings,
      });
      ctx.result.upload = chunkResult(res, ctx.deps.config.server);
      return;
    }
    // Refused here before the bytes travel to the content service, which checks again.
    if (file && file.data.length > maxBytes) throw new ApiUsageError('file-too-large', 'The file you submitted was too large.');
    const watchlist = p.watch ? 'watch' : p.watchlist;
    const res = await ctx.deps.clients.content.upload({
      filename: p.filename,
      data: file?.data ?? Buffer.alloc(0),
      filekey: filekey ?? '',
      stash: p.stash,
      comment: p.comment,
      text: p.text,
      ignoreWarnings: p.ignorewarnings,
      actor: editActor(ctx.caller),
      maxBytes,
      tags: p.tags ?? [],
      watchlist,
      watchByPreference: watchlist === 'preferences' ? await watchByPreference(ctx, ['watchdefault', 'watchcreations']) : false,
    });
    const out: ResultObject = { result: res.result };
    // A new file's description page is an edit (LocalFile::recordUpload3 saves it through
    // PageUpdater); a new version of a file adds a null revision, which is not.
    if (res.result === 'Success' && res.file && !res.stashed && !res.warnings?.exists) countEdits(ctx.deps, ctx.caller, 1);
    if (res.result === 'Success' && !p.stash) out.filename = res.filename;
    if (res.hasWarnings && res.warnings) out.warnings = warningsResult(res.warnings);
    if (res.filekey) Object.assign(out, { filekey: res.filekey, sessionkey: res.filekey });
    if (res.result === 'Success' && res.stashed) {
      out.imageinfo = stashInfoValues(res.stashed, STASH_INFO_PROPS, ctx.deps.config.server);
    } else if (res.result === 'Success' && res.file) {
      const [parsedComment] = await ctx.deps.clients.content.formatComments([{ title: res.file.title, comment: res.file.comment }]);
      const info = fileInfoValues(res.file, UPLOAD_INFO_PROPS, ctx.deps.config.server, parsedComment);
      // MediaWiki builds the result from the title it had before the upload: a description page
      // created by this upload has no id there yet, so no short URL.
      if (!res.warnings?.exists) delete info.descriptionshorturl;
      out.imageinfo = info;
    }
    ctx.result.upload = out;
  },
});

/** The stash's answers to an unknown, foreign or malformed key. */
const STASH_LOOKUP_FAILURES = new Set(['uploadstash-file-not-found', 'uploadstash-bad-path-bad-format', 'uploadstash-not-logged-in']);

/** "a", "a" and "b", "a", "b" and "c" (Message::listParam). */
function quotedList(names: string[]): string {
  const q = names.map((n) => `"${n}"`);
  return q.length === 1 ? q[0]! : `${q.slice(0, -1).join(', ')} and ${q[q.length - 1]}`;
}

/** Every stashimageinfo property, as UploadBase::getImageInfo asks for a stashed file. */
const STASH_INFO_PROPS = new Set<string>(STASH_IMAGEINFO_PROPS);

/** ApiUpload::getChunkResult's answer: warnings (last chunk), result, offset (Continue), filekey, imageinfo. */
function chunkResult(res: UploadResponse, server: string): ResultObject {
  const out: ResultObject = {};
  if (res.hasWarnings && res.warnings) out.warnings = warningsResult(res.warnings);
  out.result = res.result;
  if (res.result === 'Continue') out.offset = res.offset;
  out.filekey = res.filekey;
  if (res.result === 'Success' && res.stashed) out.imageinfo = stashInfoValues(res.stashed, STASH_INFO_PROPS, server);
  return out;
}

/**
 * checkstatus: UploadBase::getSessionStatus. Without asynchronous uploads a status exists only
 * while a chunked upload is under way ("Continue", stage "uploading"); otherwise missingresult.
 */
async function checkStatus(ctx: ActionContext, filekey: string): Promise<ResultObject> {
  const found = await ctx.deps.clients.content.getStashedFiles(ctx.caller.user.id, [filekey]).catch((e: unknown) => {
    if (e instanceof ServiceError && STASH_LOOKUP_FAILURES.has(e.mwCode)) return undefined;
    throw e;
  });
  const f = found?.files[0];
  if (f?.status !== 'chunks') throw new ApiUsageError('missingresult', 'No result in status data.');
  return { result: 'Continue', stage: 'uploading', offset: f.size };
}
