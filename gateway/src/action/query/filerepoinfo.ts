/*
 * meta=filerepoinfo (MediaWiki's ApiQueryFileRepoInfo): Quire has one file repository, the local
 * one (no foreign repos), served under /w/images as MediaWiki's $wgUploadPath.
 */
import { SCRIPT_PATH } from '../../config.js';
import { setArrayType, setIndexedTagName, type ResultObject } from '../types.js';
import { queryRunOf } from './run.js';
import { defineModule } from '../define.js';

/** LocalRepo::getInfo() keys plus canUpload, sorted as getProps() does. */
const PROPS = ['canUpload', 'displayname', 'favicon', 'initialCapital', 'local', 'name', 'rootUrl', 'scriptDirUrl', 'thumbUrl', 'url'] as const;
const NS_FILE = 6;

export const filerepoinfoModule = defineModule({
  name: 'filerepoinfo',
  group: 'meta',
  prefix: 'fri',
  summary: 'Return meta information about image repositories configured on the wiki.',
  params: {
    prop: { type: PROPS, multi: true, default: PROPS.join('|'), help: 'Which repository properties to get (properties available may vary on other wikis).' },
  },
  flags: {},
  examples: { 'action=query&meta=filerepoinfo&friprop=name|displayname': 'Get information about file repositories.' },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const props = new Set<string>(ctx.params.prop);
    const { config } = ctx.deps;
    const fileNs = (await ctx.deps.site.namespaces()).namespaces.find((n) => n.id === NS_FILE);
    const uploadPath = `${SCRIPT_PATH}/images`;
    // FileRepo::getInfo() order; array_intersect_key keeps it.
    const info: ResultObject = {
      name: 'local',
      displayname: config.sitename,
      rootUrl: uploadPath,
      local: true,
      url: uploadPath,
      thumbUrl: `${uploadPath}/thumb`,
      initialCapital: (fileNs?.case || 'first-letter') === 'first-letter',
      scriptDirUrl: SCRIPT_PATH,
      favicon: `${config.server}/favicon.ico`,
      canUpload: true,
    };
    const repo = setArrayType(Object.fromEntries(Object.entries(info).filter(([k]) => props.has(k))), 'assoc');
    run.data.repos = setArrayType(setIndexedTagName([repo], 'repo'), 'array');
  },
});
