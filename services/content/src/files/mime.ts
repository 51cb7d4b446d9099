/*
 * What an uploaded file really is, from its bytes (MediaWiki's MimeAnalyzer::guessMimeType and the
 * media handlers' getImageSize): the client's Content-Type is never trusted. Also the checks of
 * UploadBase::verifyFile that look inside a file: HTML a browser might sniff (detectScript) and
 * scripts in SVG (checkSvgScriptCallback).
 */

export type MediaType = 'BITMAP' | 'DRAWING' | 'OFFICE' | 'UNKNOWN';

export interface SniffedFile {
  mime: string;
  mediaType: MediaType;
  width: number;
  height: number;
  /** Bits per channel (MediaWiki's img_bits); 0 when the format has none. */
  bits: number;
  /** Name/value pairs MediaWiki reports in `metadata` for this format. */
  metadata: { name: string; value: unknown }[];
}

/** $wgFileExtensions of this wiki, and the MIME type each extension must have. */
export const FILE_EXTENSIONS: Readonly<Record<string, string>> = {
  png: 'image/png',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};

/** The canonical extension of a MIME type (appended to names without one). */
export const EXTENSION_OF_MIME: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/gif': 'gif',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'application/pdf': 'pdf',
};

const PNG_COLOR_TYPES: Record<number, string> = { 0: 'greyscale', 2: 'truecolour', 3: 'index-coloured', 4: 'greyscale-alpha', 6: 'truecolour-alpha' };

/** The data of the first chunk of a type, walking the chunk list (length, type, data, CRC). */
function pngChunk(b: Buffer, type: string): Buffer | undefined {
  for (let at = 8; at + 8 <= b.length; ) {
    const len = b.readUInt32BE(at);
    const name = b.toString('latin1', at + 4, at + 8);
    if (name === type) return b.subarray(at + 8, Math.min(b.length, at + 8 + len));
    if (name === 'IEND') return undefined;
    at += 12 + len;
  }
  return undefined;
}

function png(b: Buffer): SniffedFile {
  // IHDR is the first chunk: width, height, bit depth, colour type.
  const ok = b.length >= 26 && b.toString('latin1', 12, 16) === 'IHDR';
  const colorType = ok ? b[25]! : 0;
  const bits = ok ? b[24]! : 0;
  // acTL: an animated PNG; its frame count is MediaWiki's frameCount.
  const actl = b.indexOf('acTL', 8, 'latin1');
  const frames = actl > 0 && actl + 12 <= b.length ? b.readUInt32BE(actl + 4) : 0;
  // pHYs in pixels per metre becomes dots per centimetre, as PNGMetadataExtractor reports it.
  const text: { name: string; value: string | number }[] = [];
  const phys = pngChunk(b, 'pHYs');
  if (phys && phys.length >= 9 && phys[8] === 1) {
    const x = phys.readUInt32BE(0);
    const y = phys.readUInt32BE(4);
    if (x > 0 && y > 0) text.push({ name: 'XResolution', value: `${x}/100` }, { name: 'YResolution', value: `${y}/100` }, { name: 'ResolutionUnit', value: 3 });
  }
  return {
    mime: 'image/png',
    mediaType: 'BITMAP',
    width: ok ? b.readUInt32BE(16) : 0,
    height: ok ? b.readUInt32BE(20) : 0,
    bits,
    metadata: [
      { name: 'frameCount', value: frames },
      { name: 'loopCount', value: 1 },
      { name: 'duration', value: 0 },
      { name: 'bitDepth', value: bits },
      { name: 'colorType', value: PNG_COLOR_TYPES[colorType] ?? 'unknown' },
      { name: 'metadata', value: [...text, { name: '_MW_PNG_VERSION', value: 1 }] },
    ],
  };
}

function gif(b: Buffer): SniffedFile {
  const width = b.length >= 10 ? b.readUInt16LE(6) : 0;
  const height = b.length >= 10 ? b.readUInt16LE(8) : 0;
  // Image descriptors (0x2C) after the header count the frames, roughly (GIFMetadataExtractor).
  let frames = 0;
  for (let i = b.indexOf(0x2c, 13); i >= 0; i = b.indexOf(0x2c, i + 1)) frames++;
  return {
    mime: 'image/gif',
    mediaType: 'BITMAP',
    width,
    height,
    bits: b.length > 10 ? (b[10]! & 0x07) + 1 : 0,
    metadata: [
      { name: 'frameCount', value: Math.max(1, frames) },
      { name: 'looped', value: b.includes('NETSCAPE2.0', 0, 'latin1') },
      { name: 'duration', value: 0 },
      { name: 'metadata', value: [{ name: '_MW_GIF_VERSION', value: 1 }] },
    ],
  };
}

/** Walks JPEG segments to the first SOFn frame header. */
function jpeg(b: Buffer): SniffedFile {
  let width = 0;
  let height = 0;
  let bits = 0;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) {
      i++;
      continue;
    }
    const marker = b[i + 1]!;
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const len = b.readUInt16BE(i + 2);
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      bits = b[i + 4]!;
      height = b.readUInt16BE(i + 5);
      width = b.readUInt16BE(i + 7);
      break;
    }
    if (marker === 0xda) break; // start of scan without a frame header: give up
    i += 2 + len;
  }
  return { mime: 'image/jpeg', mediaType: 'BITMAP', width, height, bits, metadata: [{ name: 'MEDIAWIKI_EXIF_VERSION', value: 2 }] };
}

/** WebP: the VP8 (lossy), VP8L (lossless) or VP8X (extended) chunk carries the canvas size. */
function webp(b: Buffer): SniffedFile {
  const chunk = b.toString('latin1', 12, 16);
  let width = 0;
  let height = 0;
  if (chunk === 'VP8 ' && b.length >= 30) {
    width = b.readUInt16LE(26) & 0x3fff;
    height = b.readUInt16LE(28) & 0x3fff;
  } else if (chunk === 'VP8L' && b.length >= 25) {
    const bitsLE = b.readUInt32LE(21);
    width = (bitsLE & 0x3fff) + 1;
    height = ((bitsLE >> 14) & 0x3fff) + 1;
  } else if (chunk === 'VP8X' && b.length >= 30) {
    width = b.readUIntLE(24, 3) + 1;
    height = b.readUIntLE(27, 3) + 1;
  }
  return {
    mime: 'image/webp',
    mediaType: 'BITMAP',
    width,
    height,
    bits: 8,
    metadata: [
      { name: 'compression', value: chunk === 'VP8L' ? 'lossless' : 'lossy' },
      { name: 'width', value: width },
      { name: 'height', value: height },
      { name: 'metadata', value: [{ name: '_MW_WEBP_VERSION', value: 1 }] },
    ],
  };
}

/** An SVG length in pixels (SVGReader::scaleSVGUnit); undefined for percentages or garbage. */
function svgLength(value: string | undefined): number | undefined {
  const m = value?.trim().match(/^([0-9]*\.?[0-9]+(?:e[-+]?[0-9]+)?)\s*(px|pt|pc|mm|cm|in|em|ex)?$/i);
  if (!m) return undefined;
  const units: Record<string, number> = { px: 1, pt: 1.25, pc: 15, mm: 3.543307, cm: 35.43307, in: 90, em: 16, ex: 8 };
  return Number(m[1]) * (units[(m[2] ?? 'px').toLowerCase()] ?? 1);
}

function svgRootAttributes(text: string): Record<string, string> | undefined {
  const m = text.match(/<svg\b([^>]*)>/i);
  if (!m) return undefined;
  const attrs: Record<string, string> = {};
  for (const a of m[1]!.matchAll(/([A-Za-z_:][-\w:.]*)\s*=\s*("([^"]*)"|'([^']*)')/g)) attrs[a[1]!.toLowerCase()] = a[3] ?? a[4] ?? '';
  return attrs;
}

function svg(text: string): SniffedFile {
  const attrs = svgRootAttributes(text) ?? {};
  let width = svgLength(attrs.width);
  let height = svgLength(attrs.height);
  const box = attrs.viewbox
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (box && box.length === 4 && box.every(Number.isFinite) && box[2]! > 0 && box[3]! > 0) {
    const ratio = box[2]! / box[3]!;
    if (width === undefined && height === undefined) [width, height] = [box[2]!, box[3]!];
    else if (width === undefined) width = height! * ratio;
    else if (height === undefined) height = width / ratio;
  }
  // SVGMetadataExtractor's default: 512 × 512 when nothing says otherwise.
  const w = Math.round(width ?? 512);
  const h = Math.round(height ?? 512);
  return {
    mime: 'image/svg+xml',
    mediaType: 'DRAWING',
    width: w,
    height: h,
    bits: 0,
    metadata: [
      { name: 'width', value: w },
      { name: 'height', value: h },
      { name: 'originalWidth', value: attrs.width ?? '100%' },
      { name: 'originalHeight', value: attrs.height ?? '100%' },
      { name: 'metadata', value: [{ name: '_MW_SVG_VERSION', value: 2 }] },
    ],
  };
}

function looksLikeSvg(b: Buffer): string | undefined {
  // XML text (optionally with a BOM, declaration, comments or doctype) whose root element is <svg>.
  const head = b
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  if (!/^\s*</.test(head)) return undefined;
  const root = head.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/gi, '').trimStart();
  return /^<(?:[\w-]+:)?svg\b/i.test(root) ? b.toString('utf8') : undefined;
}

/** What MimeAnalyzer::doGuessMimeType takes for PHP: `<?php` in the first kilobyte or the last 64 KiB (8-bit or UTF-16). */
const PHP_OPENERS = ['<?php', '<\x00?\x00p\x00h\x00p', '\x00<\x00?\x00p\x00h\x00p'].map((t) => Buffer.from(t, 'latin1'));
const PHP_TAIL_BYTES = 65558;

function looksLikePhp(b: Buffer): boolean {
  const head = b.subarray(0, 1024);
  const tail = b.subarray(Math.max(0, b.length - PHP_TAIL_BYTES));
  return PHP_OPENERS.some((t) => head.includes(t) || tail.includes(t));
}

/**
 * The type of a file from its bytes; undefined when it is none this wiki knows. As MediaWiki's
 * MimeAnalyzer, a file with PHP in its head or tail is PHP whatever image it starts as (a PNG
 * with `<?php` after IEND), so no image extension matches it.
 */
export function sniffFile(b: Buffer): SniffedFile | undefined {
  if (b.toString('latin1', 0, 4) !== '%PDF' && looksLikePhp(b)) return { mime: 'application/x-php', mediaType: 'UNKNOWN', width: 0, height: 0, bits: 0, metadata: [] };
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return png(b);
  const sig6 = b.toString('latin1', 0, 6);
  if (sig6 === 'GIF87a' || sig6 === 'GIF89a') return gif(b);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  if (b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return webp(b);
  if (b.toString('latin1', 0, 5) === '%PDF-') return { mime: 'application/pdf', mediaType: 'OFFICE', width: 0, height: 0, bits: 0, metadata: [] };
  const svgText = looksLikeSvg(b);
  if (svgText !== undefined) return svg(svgText);
  return undefined;
}

/**
 * UploadBase::detectScript: markup in the first kilobyte that a browser sniffing the content
 * could run as HTML, whatever the file claims to be.
 */
export function detectsHtml(b: Buffer, mime: string): boolean {
  if (mime === 'image/svg+xml') return false; // SVG is XML: checked element by element instead
  const chunk = b.subarray(0, 1024).toString('latin1').toLowerCase().replace(/\s+/g, ' ');
  const tags = ['<!doctype html', '<head', '<html', '<body', '<script', '<title', '<a href', '<img', '<table', '<pre', '<iframe', '<meta', '<frameset', '<plaintext'];
  return tags.some((t) => chunk.includes(t)) || /javascript\s*:/.test(chunk);
}

/** Presentation properties whose url() MediaWiki holds to the file itself (uploaded-remote-url-svg). */
const URL_PROPERTIES = /(?:^|[;\s])(?:font|clip-path|fill|filter|marker|marker-end|marker-mid|marker-start|mask|stroke)\s*:\s*url\s*\(\s*["']?\s*([^)"'\s]*)/gi;

/**
 * UploadBase::checkSvgScriptCallback's rules for what an SVG may point at: an href is a fragment
 * (#id) or an image data: URL, except that a link (<a>) may go to http(s); a url() in a style or
 * presentation attribute is a fragment. Anything else (an <image> or <use> of another site, a
 * local file, another scheme) is refused (uploaded-href-attribute-svg, uploaded-remote-url-svg).
 */
function svgHasForeignReference(text: string): boolean {
  for (const el of text.matchAll(/<([A-Za-z_][-\w:.]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/g)) {
    const element = el[1]!.toLowerCase().replace(/^[\w-]+:/, '');
    for (const m of el[2]!.matchAll(/([A-Za-z_:][-\w:.]*)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/g)) {
      const name = m[1]!.toLowerCase().replace(/^[\w-]+:/, '');
      const value = (m[3] ?? m[4] ?? m[5] ?? '').replace(/[\s\x00-\x1f]+/g, '');
      if (name === 'href' && !value.startsWith('#')) {
        if (/^data:/i.test(value)) {
          if (!/^data:image\/(?:gif|jpeg|jpg|png)[;,]/i.test(value)) return true;
        } else if (!(element === 'a' && /^https?:\/\//i.test(value))) return true;
      }
      const style = name === 'style' ? value : `${name}:${value}`;
      for (const u of style.matchAll(URL_PROPERTIES)) if (!u[1]!.startsWith('#')) return true;
    }
  }
  return false;
}

/**
 * UploadBase::checkSvgScriptCallback (its essentials): SVG with script elements, event-handler
 * attributes, javascript:/data: links, foreign HTML content, external style or entity tricks is
 * refused — a browser opening the file at its URL would run it on the wiki's origin.
 */
export function svgHasScript(text: string): boolean {
  const lower = text.toLowerCase();
  if (/<!entity/i.test(text)) return true;
  if (/<(?:[\w-]+:)?(script|handler|foreignobject|iframe|object|embed|set|animate|animatemotion|animatetransform)\b/.test(lower)) {
    // <set>/<animate> are refused only when they target href or event attributes (as MediaWiki).
    const dangerous =
      /<(?:[\w-]+:)?(script|handler|foreignobject|iframe|object|embed)\b/.test(lower) || /<(?:[\w-]+:)?(set|animate\w*)\b[^>]*attributename\s*=\s*["']?\s*(?:[\w-]+:)?(href|on\w+)/.test(lower);
    if (dangerous) return true;
  }
  for (const m of text.matchAll(/\s([A-Za-z_:][-\w:.]*)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/g)) {
    const name = m[1]!.toLowerCase().replace(/^[\w-]+:/, '');
    const value = (m[3] ?? m[4] ?? m[5] ?? '').replace(/[\s\x00-\x1f]+/g, '').toLowerCase();
    if (name.startsWith('on')) return true;
    if ((name === 'href' || name === 'src' || name === 'from' || name === 'to' || name === 'values') && /^(javascript|vbscript|data:(?!image\/(png|gif|jpe?g|webp)))/.test(value)) return true;
    if (name === 'style' && /(expression|url\s*\(\s*["']?\s*(javascript|data:(?!image)))/.test(value)) return true;
  }
  if (svgHasForeignReference(text)) return true;
  if (/<style\b[^>]*>[^<]*(@import|expression|javascript:)/i.test(text)) return true;
  return /xmlns\s*=\s*["']http:\/\/www\.w3\.org\/1999\/xhtml/i.test(text);
}
