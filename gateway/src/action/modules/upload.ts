/*
 * action=upload (MediaWiki's ApiUpload) for multipart file uploads: the content service checks the
 * file (size, name, type sniffed from the bytes, scripts), raises MediaWiki's warnings and, when
 * there are none or they are ignored, stores the version, its description page and the upload log
 * entry in one transaction. Stashing (filekey, chunks, stash) and uploads by URL are not provided.
 */
import type { UploadWarnings } from '@quire/proto/wiki/content/v1/files';
import { defineModule } from '../define.js';
import { ApiUsageError, setIndexedTagName, type ResultObject } from '../types.js';
import { fileInfoValues, IMAGEINFO_PROPS } from '../query/imageinfo.js';
import { apiError } from './support.js';
import { watchByPreference } from './watchlist-params.js';
import { editActor, editBlock, TAGS_PARAM } from './writes.js';

/** ApiUpload::transformWarnings, in UploadBase::checkWarnings' order. */
function warningsResult(w: UploadWarnings): ResultObject {
  const out: ResultObject = {};
  if (w.badfilename) out.badfilename = w.badfilename;
  if (w.exists) out.exists = w.exists;
  if (w.nochangeTimestamp) out.nochange = { timestamp: w.nochangeTimestamp };
  if (w.duplicateVersionTimestamps.length) out.duplicateversions = setIndexedTagName(w.duplicateVersionTimestamps.map((timestamp) => ({ timestamp })), 'ver');
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
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=upload&filename=Wiki.png&file=file_contents_here&token=123ABC': 'Upload a file (multipart/form-data).',
  },
  async execute(ctx) {
    const p = ctx.params;
    if (p.filename === undefined || p.filename === '') throw new ApiUsageError('missingparam', 'The "filename" parameter must be set.');
    const file = ctx.files.get('file');
    if (!file) throw new ApiUsageError('missingparam', 'The "file" parameter must be set.');
    const blockinfo = editBlock(ctx.caller);
    if (blockinfo) throw apiError('blocked', 'apierror-blocked', [], { blockinfo });
    // Refused here before the bytes travel to the content service, which checks again.
    if (file.data.length > ctx.deps.config.uploadMaxBytes) throw new ApiUsageError('file-too-large', 'The file you submitted was too large.');
    const watchlist = p.watch ? 'watch' : p.watchlist;
    const res = await ctx.deps.clients.content.upload({
      filename: p.filename,
      data: file.data,
      comment: p.comment,
      text: p.text,
      ignoreWarnings: p.ignorewarnings,
      actor: editActor(ctx.caller),
      maxBytes: ctx.deps.config.uploadMaxBytes,
      tags: p.tags ?? [],
      watchlist,
      watchByPreference: watchlist === 'preferences' ? await watchByPreference(ctx, ['watchdefault', 'watchcreations']) : false,
    });
    const out: ResultObject = { result: res.result };
    if (res.result === 'Success') out.filename = res.filename;
    if (res.hasWarnings && res.warnings) out.warnings = warningsResult(res.warnings);
    if (res.result === 'Success' && res.file) {
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
