/*
 * list=filearchive (MediaWiki's ApiQueryFilearchive): every version of deleted files, by name,
 * time and id. Descriptions need deletedhistory and metadata deletedtext or undelete (asked for
 * without them: permissiondenied); fields a version's fa_deleted bits hide are left out for
 * callers who may not see them, and flagged.
 */
import { defineModule } from '../define.js';
import { ApiUsageError, setIndexedTagName, type ResultObject } from '../types.js';
import { badContinue, continueInt, continueTimestampIso } from './continuation.js';
import { titlePartKeyer } from './allpages.js';
import { queryRunOf } from './run.js';
import { metadataList } from './imageinfo.js';

/** File::DELETED_* bits of fa_deleted. */
const DELETED_FILE = 1;
const DELETED_COMMENT = 2;
const DELETED_USER = 4;
const DELETED_RESTRICTED = 8;

const PROPS = ['sha1', 'timestamp', 'user', 'size', 'dimensions', 'description', 'parseddescription', 'mime', 'mediatype', 'metadata', 'bitdepth', 'archivename'] as const;

/** The filter as fa_sha1 holds it (base 36, 31 digits): from fasha1 (hex), else fasha1base36. */
function sha1Base36(hex: string | undefined, base36: string | undefined): string {
  if (hex !== undefined) {
    if (!/^[0-9a-f]{40}$/.test(hex.toLowerCase())) throw new ApiUsageError('invalidsha1hash', 'The SHA1 hash provided is not valid.');
    return BigInt(`0x${hex}`).toString(36).padStart(31, '0');
  }
  if (base36 === undefined) return '';
  if (!/^[0-9a-z]{31}$/.test(base36.toLowerCase())) throw new ApiUsageError('invalidsha1base36hash', 'The SHA1Base36 hash provided is not valid.');
  return base36.toLowerCase();
}

export const filearchiveModule = defineModule({
  name: 'filearchive',
  group: 'list',
  prefix: 'fa',
  summary: 'Enumerate all deleted files sequentially.',
  params: {
    from: { type: 'string', help: 'The image title to start enumerating from.' },
    to: { type: 'string', help: 'The image title to stop enumerating at.' },
    prefix: { type: 'string', help: 'Search for all image titles that begin with this value.' },
    dir: { type: ['ascending', 'descending'], default: 'ascending', help: 'The direction in which to list.' },
    sha1: { type: 'string', help: 'SHA1 hash of image. Overrides fasha1base36.' },
    sha1base36: { type: 'string', help: 'SHA1 hash of image in base 36 (used in MediaWiki).' },
    prop: { type: PROPS, multi: true, default: 'timestamp', help: 'Which image information to get.' },
    limit: { type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'How many images to return in total.' },
    continue: { type: 'string', help: 'When more results are available, use this to continue.' },
  },
  flags: {},
  examples: {
    'action=query&list=filearchive': 'Show a list of all deleted files.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const p = ctx.params;
    const rights = ctx.caller.user.rights;
    const can = (...any: string[]) => any.some((r) => rights.includes(r));
    const prop = new Set<string>(p.prop ?? ['timestamp']);
    const wantsDescription = prop.has('description') || prop.has('parseddescription');
    if (wantsDescription && !can('deletedhistory')) throw new ApiUsageError('permissiondenied', "You don't have permission to view descriptions of deleted files.");
    if (prop.has('metadata') && !can('deletedtext', 'undelete')) throw new ApiUsageError('permissiondenied', "You don't have permission to view metadata of deleted files.");

    let after: { continueName: string; continueTimestamp: string; continueId: number } | undefined;
    if (p.continue !== undefined) {
      const parts = p.continue.split('|');
      if (parts.length !== 3) throw badContinue();
      after = { continueName: parts[0]!, continueTimestamp: continueTimestampIso(parts[1]!), continueId: continueInt(parts[2]!) };
    }
    const sha1 = sha1Base36(p.sha1, p.sha1base36);
    // Paranoia against brute-force searches by hash (T19342): hidden files stay hidden.
    const hideBitmask = !can('deletedtext') ? DELETED_FILE : !can('suppressrevision', 'viewsuppressed') ? DELETED_FILE | DELETED_RESTRICTED : 0;
    const key = await titlePartKeyer(ctx, 6);
    const resp = await ctx.deps.clients.content.listFileArchive({
      from: key(p.from) ?? '',
      to: key(p.to) ?? '',
      prefix: key(p.prefix) ?? '',
      descending: p.dir === 'descending',
      sha1Base36: sha1,
      hideBitmask: sha1 ? hideBitmask : 0,
      limit: p.limit,
      hasContinue: after !== undefined,
      ...after,
    });
    const parsed = prop.has('parseddescription') ? await ctx.deps.clients.content.formatComments(resp.files.map((f) => ({ title: f.title, comment: f.description }))) : [];
    // RevisionRecord::userCanBitfield: a hidden field needs deletedhistory, a suppressed one viewsuppressed.
    const canSee = (deleted: number, field: number) => !(deleted & field) || (deleted & DELETED_RESTRICTED ? can('viewsuppressed', 'suppressrevision') : can('deletedhistory'));
    run.data.filearchive = setIndexedTagName(
      resp.files.map((f, i) => {
        const out: ResultObject = { id: f.id, name: f.name, ns: 6, title: f.title };
        const canViewFile = canSee(f.deleted, DELETED_FILE);
        if (wantsDescription && canSee(f.deleted, DELETED_COMMENT)) {
          if (prop.has('parseddescription')) out.parseddescription = parsed[i];
          out.description = f.description;
        }
        if (prop.has('user') && canSee(f.deleted, DELETED_USER)) Object.assign(out, { userid: f.userId, user: f.user });
        if (prop.has('sha1') && canViewFile) out.sha1 = f.sha1;
        if (prop.has('timestamp')) out.timestamp = f.timestamp;
        // MediaWiki gives the database's strings for these columns.
        if ((prop.has('size') || prop.has('dimensions')) && canViewFile) Object.assign(out, { size: String(f.size), height: String(f.height), width: String(f.width) });
        if (prop.has('mediatype') && canViewFile) out.mediatype = f.mediaType;
        if (prop.has('metadata') && canViewFile) out.metadata = metadataList(f.metadataJson);
        if (prop.has('bitdepth') && canViewFile) out.bitdepth = String(f.bits);
        if (prop.has('mime') && canViewFile) out.mime = f.mime;
        if (prop.has('archivename') && f.archiveName !== undefined) out.archivename = f.archiveName;
        if (f.deleted & DELETED_FILE) out.filehidden = true;
        if (f.deleted & DELETED_COMMENT) out.commenthidden = true;
        if (f.deleted & DELETED_USER) out.userhidden = true;
        if (f.deleted & DELETED_RESTRICTED) out.suppressed = true;
        return out;
      }),
      'fa',
    );
    if (resp.continueFrom) run.continuation.addContinueParam('filearchive', 'facontinue', resp.continueFrom);
  },
});
