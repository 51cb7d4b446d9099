/* Where each version of a file is served (FileRepo::getZoneUrl + getHashPath + getArchiveRel). */
import crypto from 'node:crypto';

/** $wgUploadPath: where the gateway serves file bytes. */
export const UPLOAD_PATH = '/w/images';

/** rawurlencode: what MediaWiki applies to file names in their URLs. */
const rawUrlEncode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** FileRepo::getHashPath: "7/70/" from the MD5 of the name. */
export function hashPath(name: string): string {
  const h = crypto.createHash('md5').update(name, 'utf8').digest('hex');
  return `${h[0]}/${h.slice(0, 2)}/`;
}

/** The URL path of a version: current versions under the hash path, older ones under archive/. */
export function fileUrlPath(name: string, archiveName = ''): string {
  return archiveName === '' ? `${UPLOAD_PATH}/${hashPath(name)}${rawUrlEncode(name)}` : `${UPLOAD_PATH}/archive/${hashPath(name)}${rawUrlEncode(archiveName)}`;
}
