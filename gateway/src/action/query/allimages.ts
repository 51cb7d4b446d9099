/*
 * list=allimages (MediaWiki's ApiQueryAllImages): current file versions by name or by upload
 * time; a generator of their File: pages.
 */
import { isoFromMw } from '../../validation/typedefs.js';
import { ApiUsageError, setIndexedTagName } from '../types.js';
import { fileInfoValues, IMAGEINFO_PROPS } from './imageinfo.js';
import { queryRunOf, type QueryRun } from './run.js';
import { type ContextOf, defineParams } from '../define.js';
import { defineGenerator } from './generator.js';

const key = (v: unknown) => (typeof v === 'string' && v !== '' ? (v[0]!.toUpperCase() + v.slice(1)).replace(/ /g, '_') : '');

/** The aisha1 (hex) or aisha1base36 filter as the hex form ListFiles takes; "" when neither is given. */
function sha1Of(hex: string | undefined, base36: string | undefined): string {
  if (hex !== undefined) {
    const h = hex.toLowerCase();
    if (!/^[0-9a-f]{40}$/.test(h)) throw new ApiUsageError('invalidsha1hash', 'The SHA1 hash provided is not valid.');
    return h;
  }
  if (base36 === undefined) return '';
  const b = base36.toLowerCase();
  if (!/^[0-9a-z]{31}$/.test(b)) throw new ApiUsageError('invalidsha1base36hash', 'The SHA1Base36 hash provided is not valid.');
  const n = [...b].reduce((acc, c) => acc * 36n + BigInt(parseInt(c, 36)), 0n);
  return n.toString(16).padStart(40, '0');
}

const params = defineParams({
  sort: { type: ['name', 'timestamp'], default: 'name', help: 'Property to sort by.' },
  dir: { type: ['ascending', 'descending', 'newer', 'older'], default: 'ascending', help: 'The direction in which to list.' },
  from: { type: 'string', help: 'The image title to start enumerating from. Can only be used with aisort=name.' },
  to: { type: 'string', help: 'The image title to stop enumerating at. Can only be used with aisort=name.' },
  continue: { type: 'string', help: 'When more results are available, use this to continue.' },
  start: { type: 'timestamp', help: 'The timestamp to start enumerating from. Can only be used with aisort=timestamp.' },
  end: { type: 'timestamp', help: 'The timestamp to end enumerating. Can only be used with aisort=timestamp.' },
  // badfile is accepted and, as in ApiQueryAllImages (whose getInfo does not read it), prints nothing.
  prop: { type: [...IMAGEINFO_PROPS, 'badfile'], multi: true, default: 'timestamp|url', help: 'Which file information to get.' },
  prefix: { type: 'string', help: 'Search for all image titles that begin with this value. Can only be used with aisort=name.' },
  minsize: { type: 'integer', help: 'Limit to images with at least this many bytes.' },
  maxsize: { type: 'integer', help: 'Limit to images with at most this many bytes.' },
  sha1: { type: 'string', help: 'SHA1 hash of image. Overrides aisha1base36.' },
  sha1base36: { type: 'string', help: 'SHA1 hash of image in base 36 (used in MediaWiki).' },
  user: { type: 'user', userTypes: ['name', 'ip', 'interwiki'], help: 'Only return files where the last version was uploaded by this user. Can only be used with aisort=timestamp.' },
  mime: { type: 'string', multi: true, help: 'What MIME types to search for, e.g. image/jpeg.' },
  filterbots: { type: ['all', 'bots', 'nobots'], default: 'all', help: 'How to filter files uploaded by bots. Can only be used with aisort=timestamp. Cannot be used together with aiuser.' },
  limit: { type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'How many images in total to return.' },
});

async function listFiles(ctx: ContextOf<typeof params>) {
  const p = ctx.params;
  const sort = p.sort === 'timestamp' ? 'timestamp' : 'name';
  const dir = p.dir;
  // ApiQueryAllImages::run: each parameter of the other sort is refused on its own, in this order
  // (older/newer with a name sort are descending/ascending, as MediaWiki takes them).
  const mustUseWith = (names: readonly ('start' | 'end' | 'user' | 'from' | 'to' | 'prefix')[], other: string) => {
    for (const name of names) {
      if (p[name] !== undefined) throw new ApiUsageError('invalidparammix', `The "ai${name}" parameter may only be used with "aisort=${other}".`);
    }
  };
  if (sort === 'name') mustUseWith(['start', 'end', 'user'], 'timestamp');
  else mustUseWith(['from', 'to', 'prefix'], 'name');
  if (sort === 'name' && p.filterbots !== 'all') throw new ApiUsageError('invalidparammix', 'The "aifilterbots" parameter may only be used with "aisort=timestamp".');
  if (sort === 'timestamp' && p.user !== undefined && p.filterbots !== 'all') {
    throw new ApiUsageError('invalidparammix-cannotusewith', 'The "aiuser" parameter cannot be used with "aifilterbots".');
  }
  const descending = dir === 'descending' || dir === 'older';
  return ctx.deps.clients.content.listFiles({
    sort,
    descending,
    from: key(p.from),
    to: key(p.to),
    prefix: key(p.prefix),
    start: typeof p.start === 'string' ? isoFromMw(p.start) : '',
    end: typeof p.end === 'string' ? isoFromMw(p.end) : '',
    minSize: p.minsize,
    maxSize: p.maxsize,
    sha1: sha1Of(p.sha1, p.sha1base36),
    mime: p.mime ?? [],
    user: p.user ?? '',
    limit: p.limit,
    continue: p.continue ?? '',
    filterBots: p.filterbots === 'all' ? '' : p.filterbots,
    botUserIds: p.filterbots === 'all' ? [] : await ctx.deps.clients.auth.listUserIdsWithRight('bot'),
  });
}

export const allimagesModule = defineGenerator({
  name: 'allimages',
  group: 'list',
  prefix: 'ai',
  summary: 'Enumerate all images sequentially.',
  params,
  flags: { generator: true },
  examples: {
    'action=query&list=allimages&aifrom=B': 'Show a list of files starting at the letter B.',
    'action=query&list=allimages&aiprop=user|timestamp|url&aisort=timestamp&aidir=older': 'Show a list of recently uploaded files.',
    'action=query&generator=allimages&gailimit=4&gaifrom=T&prop=imageinfo': 'Show info about 4 files starting at the letter T.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const props = new Set(ctx.params.prop ?? ['timestamp', 'url']);
    const resp = await listFiles(ctx);
    const parsed = props.has('parsedcomment') ? await ctx.deps.clients.content.formatComments(resp.files.map((v) => ({ title: v.title, comment: v.comment }))) : [];
    run.data.allimages = setIndexedTagName(
      resp.files.map((v, i) => ({ name: v.name, ...fileInfoValues(v, props, ctx.deps.config.server, parsed[i]), ns: 6, title: v.title })),
      'img',
    );
    if (resp.continueFrom) run.continuation.addContinueParam('allimages', 'aicontinue', resp.continueFrom);
  },
  async generate(ctx, run: QueryRun) {
    const resp = await listFiles(ctx);
    const current = ctx.params.continue;
    if (current !== undefined) run.continuation.addGeneratorNonContinueParam('gaicontinue', current);
    if (resp.continueFrom) run.continuation.addGeneratorContinueParam('gaicontinue', resp.continueFrom);
    return { titles: resp.files.map((v) => v.title) };
  },
});
