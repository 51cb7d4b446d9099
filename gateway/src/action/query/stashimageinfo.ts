/*
 * prop=stashimageinfo (MediaWiki's ApiQueryStashImageInfo): file information of the caller's
 * stashed files by key. `stashInfoValues` is also action=upload's imageinfo for a stashed file
 * (UploadBase::getImageInfo over an UploadStashFile).
 */
import type { StashedFile } from '../../clients/types.js';
import { ARTICLE_PATH } from '../../config.js';
import { defineModule } from '../define.js';
import { ApiUsageError, setIndexedTagName, type ResultObject } from '../types.js';
import { wfUrlencode } from './encoding.js';
import { fileInfoValues } from './imageinfo.js';
import { queryRunOf } from './run.js';

export const STASH_IMAGEINFO_PROPS = [
  'timestamp',
  'canonicaltitle',
  'url',
  'size',
  'dimensions',
  'sha1',
  'mime',
  'thumbmime',
  'metadata',
  'commonmetadata',
  'extmetadata',
  'bitdepth',
  'badfile',
] as const;

/** ApiQueryImageInfo::getInfo for an UploadStashFile: its title is the temporary name, its URL Special:UploadStash's. */
export function stashInfoValues(f: StashedFile, props: ReadonlySet<string>, server: string): ResultObject {
  const vals = fileInfoValues(
    {
      name: f.tempName,
      title: `File:${f.tempName.replace(/_/g, ' ')}`,
      timestamp: f.timestamp,
      user: '',
      userId: 0,
      size: f.size,
      width: f.width,
      height: f.height,
      bits: f.bits,
      mime: f.mime,
      mediaType: f.mediaType,
      sha1: f.sha1,
      comment: '',
      urlPath: '',
      archiveName: '',
      metadataJson: f.metadataJson,
      pageId: 0,
    },
    props,
    server,
  );
  if (props.has('url')) {
    const url = server + ARTICLE_PATH.replace('$1', `Special:UploadStash/file/${wfUrlencode(f.filekey)}`);
    vals.url = url;
    vals.descriptionurl = url;
  }
  return vals;
}

export const stashimageinfoModule = defineModule({
  name: 'stashimageinfo',
  group: 'prop',
  prefix: 'sii',
  summary: 'Returns file information for stashed files.',
  params: {
    filekey: { type: 'string', multi: true, help: 'Key that identifies a previous upload that was stashed temporarily.' },
    sessionkey: { type: 'string', multi: true, deprecated: true, help: 'Alias for siifilekey, for backward compatibility.' },
    prop: { type: STASH_IMAGEINFO_PROPS, multi: true, default: 'timestamp|url', help: 'Which file information to get.' },
    urlwidth: { type: 'integer', default: -1, help: 'If siiprop=url is set, a URL to an image scaled to this width will be returned.' },
    urlheight: { type: 'integer', default: -1, help: 'Similar to siiurlwidth.' },
    urlparam: { type: 'string', default: '', help: 'A handler specific parameter string.' },
  },
  flags: {},
  examples: {
    'action=query&prop=stashimageinfo&siifilekey=124sd34rsdf567': 'Returns information for a stashed file.',
    'action=query&prop=stashimageinfo&siifilekey=b34edoe3|bceffd4&siiurlwidth=120&siiprop=url': 'Returns thumbnails for two stashed files.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const p = ctx.params;
    const keys = p.filekey ?? p.sessionkey;
    // ApiQueryStashImageInfo: one of the two is needed ($this->requireOnlyOneParameter).
    if (!keys) throw new ApiUsageError('missingparam', 'One of the parameters "siifilekey" and "siisessionkey" is required.');
    if (p.filekey && p.sessionkey) throw new ApiUsageError('invalidparammix', 'The parameters "siifilekey" and "siisessionkey" can not be used together.');
    const props = new Set<string>(p.prop ?? ['timestamp', 'url']);
    // A bad or unknown key is the content service's error (uploadstash-bad-path-bad-format, uploadstash-file-not-found).
    const { files } = await ctx.deps.clients.content.getStashedFiles(ctx.caller.user.id, keys);
    run.data.stashimageinfo = setIndexedTagName(
      files.map((f) => stashInfoValues(f, props, ctx.deps.config.server)),
      'ii',
    );
  },
});
