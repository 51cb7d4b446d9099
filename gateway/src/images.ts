/*
 * File bytes at the URLs imageinfo reports ($wgUploadPath): /w/images/<h>/<hh>/<name> for the
 * current version and /w/images/archive/<h>/<hh>/<timestamp>!<name> for older ones, where <hh> is
 * the start of the MD5 of the name (FileRepo::getHashPath). Types come from the sniffed MIME type
 * stored at upload, never from the name; the browser is told not to sniff, non-images are
 * downloads, and no file may run script on the wiki's origin.
 */
import crypto from 'node:crypto';
import express from 'express';
import { GrpcStatus, ServiceError } from '@quire/kit';
import type { GatewayDeps } from './context.js';
import { SCRIPT_PATH } from './config.js';

export const UPLOAD_PATH = `${SCRIPT_PATH}/images`;

const hashPath = (name: string) => {
  const h = crypto.createHash('md5').update(name, 'utf8').digest('hex');
  return [h[0]!, h.slice(0, 2)];
};

/**
 * A name taken from the URL, or undefined when the URL is not one a version would have. Thumbnail
 * URLs (thumb/<h>/<hh>/<name>/<w>px-<name>[.png], File::thumbName, as rendered pages link them)
 * name the current version: its bytes are served as they are and the page's width and height
 * attributes scale them (no image scaler runs here).
 */
export function parseFilePath(segments: string[]): { name: string; archiveName: string } | undefined {
  if (segments[0] === 'thumb') {
    if (segments.length !== 5) return undefined;
    let name: string;
    let thumbName: string;
    try {
      name = decodeURIComponent(segments[3]!);
      thumbName = decodeURIComponent(segments[4]!);
    } catch {
      return undefined;
    }
    // The name, or the name and the format a thumbnail is rendered to (.png for SVG, .jpg for DjVu).
    const m = /^(?:page\d+-|lang[a-z0-9-]+-)?[1-9]\d*px-(.*)$/.exec(thumbName);
    if (!m || (m[1] !== name && m[1] !== `${name}.png` && m[1] !== `${name}.jpg`)) return undefined;
    const found = parseFilePath(segments.slice(1, 4));
    return found && !found.archiveName ? found : undefined;
  }
  const archived = segments[0] === 'archive';
  const rest = archived ? segments.slice(1) : segments;
  if (rest.length !== 3) return undefined;
  let last: string;
  try {
    last = decodeURIComponent(rest[2]!);
  } catch {
    return undefined;
  }
  const bang = last.indexOf('!');
  const name = archived ? (bang > 0 ? last.slice(bang + 1) : '') : last;
  const [h1, h2] = hashPath(name);
  if (name === '' || rest[0] !== h1 || rest[1] !== h2) return undefined;
  return { name, archiveName: archived ? last : '' };
}

export function createImageRouter(deps: GatewayDeps): express.Router {
  const router = express.Router();
  // Mounted by prefix, not as a `*path` route: express would decode that parameter itself and
  // answer invalid percent-encoding with its own error page; parseFilePath decodes (or refuses) it.
  router.use(UPLOAD_PATH, async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const raw = req.path.slice(1).split('/');
    const target = parseFilePath(raw);
    const notFound = () => res.status(404).type('text/plain').send('File not found\n');
    if (!target) return notFound();
    let file;
    try {
      file = await deps.clients.content.readFile(target.name, target.archiveName);
    } catch (e) {
      if (e instanceof ServiceError && e.grpcCode === GrpcStatus.NOT_FOUND) return notFound();
      if (e instanceof ServiceError && e.grpcCode === GrpcStatus.UNAVAILABLE) return res.status(503).set('Retry-After', '5').type('text/plain').send('Service unavailable\n');
      deps.log.error({ err: e, path: req.path }, 'reading a file failed');
      return res.status(500).type('text/plain').send('Internal error\n');
    }
    const etag = `"${file.sha1}"`;
    res.set({
      'Content-Type': file.mime,
      'X-Content-Type-Options': 'nosniff',
      // Even an image opened on its own cannot run script or load anything (SVG).
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
      ETag: etag,
      'Last-Modified': new Date(file.timestamp).toUTCString(),
      // A current file changes on re-upload; an archived version never does.
      'Cache-Control': target.archiveName ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
    });
    if (!file.mime.startsWith('image/')) {
      res.set('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(target.name)}`);
    }
    if (req.headers['if-none-match'] === etag) return res.status(304).end();
    return res.status(200).send(Buffer.from(file.data));
  });
  return router;
}
