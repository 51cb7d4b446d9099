/*
 * prop=imageinfo (MediaWiki's ApiQueryImageInfo): versions of the files of the page set, newest
 * first. `fileInfoValues` is shared with list=allimages and action=upload.
 */
import { isoFromMw } from '../../validation/typedefs.js';
import type { FileVersion } from '../../clients/types.js';
import { ARTICLE_PATH, SCRIPT_PATH } from '../../config.js';
import { ApiUsageError, setArrayType, setIndexedTagName, type ResultObject } from '../types.js';
import { escapeHtmlNoQuotes, isoTimestamp, wfUrlencode } from './encoding.js';
import { queryRunOf } from './run.js';
import { badFileLookup, type PageKey } from './badfile.js';
import { defineModule } from '../define.js';

export const IMAGEINFO_PROPS = [
  'timestamp',
  'user',
  'userid',
  'comment',
  'parsedcomment',
  'canonicaltitle',
  'url',
  'size',
  'dimensions',
  'sha1',
  'mime',
  'mediatype',
  'metadata',
  'commonmetadata',
  'extmetadata',
  'archivename',
  'bitdepth',
] as const;

/** MediaWiki's metadata arrays: [{name, value}] with nested arrays tagged for XML. */
export function metadataList(json: string): unknown {
  const items = JSON.parse(json || '[]') as { name: string; value: unknown }[];
  return setIndexedTagName(
    items.map((m) => ({ name: m.name, value: Array.isArray(m.value) ? metadataList(JSON.stringify(m.value)) : m.value })),
    'metadata',
  );
}

function commonMetadata(json: string): { name: string; value: unknown }[] {
  const items = JSON.parse(json || '[]') as { name: string; value: unknown }[];
  const nested = items.find((m) => m.name === 'metadata')?.value;
  return Array.isArray(nested) ? (nested as { name: string; value: unknown }[]).filter((m) => !m.name.startsWith('_MW')).map((m) => ({ name: m.name, value: m.value })) : [];
}

/** ApiQueryImageInfo::getInfo for one version, in MediaWiki's key order (parsedComment from formatComments). */
export function fileInfoValues(v: FileVersion, props: ReadonlySet<string>, server: string, parsedComment?: string, extMetadataFilter?: readonly string[]): ResultObject {
  const vals: ResultObject = {};
  if (props.has('timestamp')) vals.timestamp = isoTimestamp(v.timestamp);
  if (props.has('user')) vals.user = v.user;
  if (props.has('userid')) vals.userid = v.userId;
  if (props.has('size') || props.has('dimensions')) {
    vals.size = v.size;
    vals.width = v.width;
    vals.height = v.height;
  }
  if (props.has('parsedcomment')) vals.parsedcomment = parsedComment ?? escapeHtmlNoQuotes(v.comment);
  if (props.has('comment')) vals.comment = v.comment;
  if (props.has('canonicaltitle')) vals.canonicaltitle = v.title;
  if (props.has('url')) {
    vals.url = server + v.urlPath;
    vals.descriptionurl = server + ARTICLE_PATH.replace('$1', wfUrlencode(v.title.replace(/ /g, '_')));
    if (v.pageId > 0) vals.descriptionshorturl = `${server}${SCRIPT_PATH}/index.php?curid=${v.pageId}`;
  }
  if (props.has('sha1')) vals.sha1 = v.sha1;
  if (props.has('metadata')) vals.metadata = metadataList(v.metadataJson);
  // The format-independent part: the nested `metadata` list without MediaWiki's internal `_MW_*` entries.
  if (props.has('commonmetadata')) vals.commonmetadata = setIndexedTagName(commonMetadata(v.metadataJson), 'metadata');
  if (props.has('extmetadata')) {
    const ext: ResultObject = {
      DateTime: { value: isoTimestamp(v.timestamp), source: 'mediawiki-metadata', hidden: '' },
      ObjectName: { value: v.name.replace(/_/g, ' ').replace(/\.[^.]*$/, ''), source: 'mediawiki-metadata', hidden: '' },
    };
    // extmetadatafilter: only the keys named (array_intersect_key).
    if (extMetadataFilter?.length) for (const k of Object.keys(ext)) if (!extMetadataFilter.includes(k)) delete ext[k];
    vals.extmetadata = setArrayType(ext, 'assoc');
  }
  if (props.has('mime')) vals.mime = v.mime;
  if (props.has('mediatype')) vals.mediatype = v.mediaType;
  if (props.has('archivename') && v.archiveName !== '') vals.archivename = v.archiveName;
  if (props.has('bitdepth')) vals.bitdepth = v.bits;
  return vals;
}

export const imageinfoModule = defineModule({
  name: 'imageinfo',
  group: 'prop',
  prefix: 'ii',
  summary: 'Returns file information and upload history.',
  params: {
    prop: { type: [...IMAGEINFO_PROPS, 'badfile'], multi: true, default: 'timestamp|user', help: 'Which file information to get.' },
    limit: { type: 'limit', default: 1, min: 1, max: 500, highMax: 5000, help: 'How many file revisions to return per file.' },
    start: { type: 'timestamp', help: 'Timestamp to start listing from.' },
    end: { type: 'timestamp', help: 'Timestamp to stop listing at.' },
    // The extmetadata this wiki has (DateTime, ObjectName) is the same in every language and version.
    metadataversion: { type: 'string', default: '1', help: 'Version of metadata to use. If latest is specified, use latest version. Defaults to 1 for backwards compatibility.' },
    extmetadatalanguage: {
      type: 'string',
      default: 'en',
      help: 'What language to fetch extmetadata in. This affects both which translation to fetch, if multiple are available, as well as how things like numbers and various values are formatted.',
    },
    extmetadatamultilang: { type: 'boolean', default: false, help: 'If translations for extmetadata property are available, fetch all of them.' },
    extmetadatafilter: { type: 'string', multi: true, help: 'If specified and non-empty, only these keys will be returned for iiprop=extmetadata.' },
    badfilecontexttitle: { type: 'string', help: 'If iiprop=badfile is set, this is the page title used when evaluating the MediaWiki:Bad image list' },
    continue: { type: 'string', help: 'If the query response includes a continue value, use it here to get another page of results.' },
    localonly: { type: 'boolean', default: false, help: 'Look only for files in the local repository.' },
  },
  flags: {},
  examples: {
    'action=query&titles=File:Albert%20Einstein%20Head.jpg&prop=imageinfo': 'Fetch information about the current version of File:Albert Einstein Head.jpg.',
    'action=query&titles=File:Test.jpg&prop=imageinfo&iilimit=50&iiend=2007-12-31T23:59:59Z&iiprop=timestamp|user|url': 'Fetch information about versions of File:Test.jpg from 2008 and later.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const p = ctx.params;
    const props = new Set<string>(p.prop ?? ['timestamp', 'user']);
    let badFileContext: PageKey | undefined;
    if (p.badfilecontexttitle !== undefined) {
      const r = await ctx.deps.clients.content.resolvePages({ titles: [p.badfilecontexttitle] });
      const page = r.pages[0];
      if (r.invalid.length > 0 || !page) throw new ApiUsageError('invalid-title', 'Invalid title in "iibadfilecontexttitle" parameter.');
      badFileContext = { ns: page.ns, dbkey: page.ns === 0 ? page.dbkey : page.dbkey.slice(page.dbkey.indexOf(':') + 1) };
    }
    const isBadFile = props.has('badfile') ? await badFileLookup(ctx) : undefined;
    const entries = [...run.pageSet.good.map((pg) => ({ id: pg.id, page: pg })), ...run.pageSet.missing.map(({ id, page }) => ({ id, page }))].filter((e) => e.page.ns === 6);
    if (entries.length === 0) return;
    // iicontinue: "<name>|<TS_MW>" — files before <name> are done; <name> continues at the time.
    const cont = p.continue;
    const contName = cont?.slice(0, cont.indexOf('|'));
    const contTime = cont ? cont.slice(cont.indexOf('|') + 1) : undefined;
    const sorted = [...entries].sort((a, b) => (a.page.title < b.page.title ? -1 : 1));
    const resp = await ctx.deps.clients.content.getFileInfo({
      titles: sorted.map((e) => e.page.title),
      limit: p.limit,
      start: typeof p.start === 'string' ? isoFromMw(p.start) : '',
      end: typeof p.end === 'string' ? isoFromMw(p.end) : '',
    });
    // Every listed version's description formatted in one call, linked to its file page.
    const described = props.has('parsedcomment') ? resp.files.flatMap((f) => (f.exists ? f.versions : [])) : [];
    const parsedList = await ctx.deps.clients.content.formatComments(described.map((v) => ({ title: v.title, comment: v.comment })));
    const parsed = new Map(described.map((v, i) => [v, parsedList[i]]));
    for (const [i, e] of sorted.entries()) {
      const file = resp.files[i];
      const entry = run.pages.get(e.id);
      if (!file || !entry) continue;
      const key = file.name;
      if (contName !== undefined && key < contName) continue;
      entry.imagerepository = file.exists ? 'local' : '';
      if (isBadFile) entry.badfile = isBadFile(key || e.page.title.replace(/^[^:]*:/, '').replace(/ /g, '_'), badFileContext);
      if (!file.exists) {
        // badfile reads non-existing files too (ApiQueryImageInfo: an empty LocalFile).
        if (isBadFile) entry.imageinfo = setIndexedTagName([{ filemissing: true }], 'ii');
        continue;
      }
      let versions = file.versions;
      if (contName === key && contTime) versions = versions.filter((v) => v.timestamp <= isoFromMw(contTime));
      entry.imageinfo = setIndexedTagName(
        // A version without any asked-for value is still an object ({} in JSON), as MediaWiki's.
        versions.map((v) => setArrayType(fileInfoValues(v, props, ctx.deps.config.server, parsed.get(v), p.extmetadatafilter), 'assoc')),
        'ii',
      );
      if (file.continueTimestamp) {
        if (sorted.length === 1) run.continuation.addContinueParam('imageinfo', 'iistart', isoTimestamp(file.continueTimestamp));
        else run.continuation.addContinueParam('imageinfo', 'iicontinue', `${key}|${file.continueTimestamp.replace(/[-:TZ]/g, '')}`);
      }
    }
  },
});
