/* list=mystashedfiles (MediaWiki's ApiQueryMyStashedFiles): the caller's upload stash, by stash row id. */
import { defineModule } from '../define.js';
import { ApiUsageError, setIndexedTagName, type ResultObject } from '../types.js';
import { badContinue } from './continuation.js';
import { queryRunOf } from './run.js';

export const mystashedfilesModule = defineModule({
  name: 'mystashedfiles',
  group: 'list',
  prefix: 'msf',
  summary: "Get a list of files in the current user's upload stash.",
  params: {
    prop: { type: ['size', 'type'], multi: true, default: '', help: 'Which properties to fetch for the files.' },
    limit: { type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'How many files to get.' },
    continue: { type: 'string', help: 'When more results are available, use this to continue.' },
  },
  flags: {},
  examples: {
    'action=query&list=mystashedfiles&msfprop=size': "Get the filekey, file size, and pixel size of files in the current user's upload stash.",
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const p = ctx.params;
    if (ctx.caller.user.anonymous) throw new ApiUsageError('stashnotloggedin', 'The upload stash is only available to logged-in users.');
    let continueId = 0;
    if (p.continue !== undefined) {
      // ApiQueryMyStashedFiles: one integer that survives a round trip, else badcontinue.
      if (!/^-?\d+$/.test(p.continue) || String(Number(p.continue)) !== p.continue) throw badContinue();
      continueId = Number(p.continue);
    }
    const props = new Set<string>(p.prop ?? []);
    const resp = await ctx.deps.clients.content.listStashedFiles({ userId: ctx.caller.user.id, limit: p.limit, continueId });
    run.data.mystashedfiles = setIndexedTagName(
      resp.files.map((f) => {
        const item: ResultObject = { filekey: f.filekey, status: f.status };
        if (props.has('size')) Object.assign(item, { size: f.size, width: f.width, height: f.height, bits: f.bits });
        if (props.has('type')) Object.assign(item, { mimetype: f.mime, mediatype: f.mediaType });
        return item;
      }),
      'file',
    );
    if (resp.continueId > 0) run.continuation.addContinueParam('mystashedfiles', 'msfcontinue', String(resp.continueId));
  },
});
