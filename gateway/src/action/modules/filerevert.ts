/*
 * action=filerevert (MediaWiki's ApiFileRevert): makes an old version of a file its current one
 * again. The content service checks the title, the version, the rights (edit, upload, then
 * reupload or reupload-own) and protection, and records the new version with its log entry.
 */
import { defineModule } from '../define.js';
import { setIndexedTagName } from '../types.js';
import { apiError } from './support.js';
import { editActor, editBlock } from './writes.js';

export const filerevertModule = defineModule({
  name: 'filerevert',
  group: 'action',
  prefix: '',
  summary: 'Revert a file to an old version.',
  params: {
    filename: { type: 'string', required: true, help: 'Target filename, without the File: prefix.' },
    comment: { type: 'string', default: '', help: 'Upload comment.' },
    archivename: { type: 'string', required: true, help: 'Archive name of the revision to revert to.' },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=filerevert&filename=Wiki.png&comment=Revert&archivename=20110305152740!Wiki.png&token=123ABC': 'Revert <kbd>Wiki.png</kbd> to the version of <kbd>2011-03-05T15:27:40Z</kbd>.',
  },
  async execute(ctx) {
    const p = ctx.params;
    // checkTitleUserPermissions includes the caller's block.
    const blockinfo = editBlock(ctx.caller);
    if (blockinfo) throw apiError('blocked', 'apierror-blocked', [], { blockinfo });
    const res = await ctx.deps.clients.content.revertFile({ actor: editActor(ctx.caller), filename: p.filename, archiveName: p.archivename, comment: p.comment });
    if (res.result !== 'Success') {
      // LocalFile::upload's failure status, as ApiErrorFormatter::arrayFromStatus lists it.
      ctx.result.filerevert = {
        result: 'Failure',
        errors: setIndexedTagName(
          res.errorCodes.map((code, i) => ({ message: code, params: i === 0 ? setIndexedTagName([...res.errorParams], 'param') : [], code, type: 'error' })),
          'error',
        ),
      };
      return;
    }
    ctx.result.filerevert = { result: 'Success' };
  },
});
