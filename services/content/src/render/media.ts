/*
 * Sizes, URLs and markup of images as MediaWiki 1.39 renders them with its default (legacy) media
 * DOM: File::transform's sizing (ImageHandler::normaliseParams), thumbnail URLs and names
 * (File::thumbName, $wgUploadPath/thumb/…), the 1.5x/2x srcset (Linker::processResponsiveImages,
 * Html::srcSet), ThumbnailImage::toHtml's <img>, and the option words of `[[File:…|…]]`
 * (Parser::makeImage's magic words, Parser::parseWidthParam).
 */
import { UPLOAD_PATH } from '../files/paths.js';
import type { FileFacts } from './types.js';
import { encodeAttr, escapeAttr } from './sanitizer.js';

/** $wgThumbLimits[ default 'thumbsize' option ]: the width of a thumb without a size. */
export const DEFAULT_THUMB_LIMIT = 300;
/** $wgThumbUpright: the factor of a bare `upright`. */
export const THUMB_UPRIGHT = 0.75;
/** $wgSVGMaxSize: a vector image sized by height alone starts from this width. */
export const SVG_MAX_SIZE = 5120;

export const isVector = (f: FileFacts) => f.mime === 'image/svg+xml';
/** MediaHandler::mustRender: formats a browser cannot show as they are (always thumbnailed). */
export const mustRender = (f: FileFacts) => isVector(f) || f.mime === 'image/vnd.djvu' || f.mime === 'image/tiff';
/** File::canRender / allowInlineDisplay: formats core has an image handler for (no video or audio). */
export const canRender = (f: FileFacts) => f.mime.startsWith('image/') && f.width > 0;

/** File::scaleHeight. */
export const scaleHeight = (srcW: number, srcH: number, w: number) => (srcW === 0 ? 0 : Math.round((srcH * w) / srcW));

/** MediaHandler::fitBoxWidth: the widest width whose scaled height still fits maxHeight. */
export function fitBoxWidth(boxW: number, boxH: number, maxHeight: number): number {
  const ideal = (boxW * maxHeight) / boxH;
  const up = Math.ceil(ideal);
  return Math.round((up * boxH) / boxW) > maxHeight ? Math.floor(ideal) : up;
}

export interface Transformed {
  url: string;
  width: number;
  height: number;
}

/** Handler parameters beyond the size: a DjVu page, an SVG's language. */
export interface RenderVariant {
  page?: number;
  lang?: string;
}

/** SvgHandler's default rendering language (no prefix in thumbnail names). */
const SVG_DEFAULT_LANG = 'en';
const isDjvu = (f: FileFacts) => f.mime === 'image/vnd.djvu';

/**
 * The thumbnail URL of a width: $wgUploadPath/thumb/<hash>/<name>/<params>-<name>[.png|.jpg]
 * (File::thumbName with the handler's makeParamString: `page1-180px` for DjVu, `langde-180px`
 * for an SVG in another language, else `180px`).
 */
function thumbUrl(file: FileFacts, width: number, v: RenderVariant): string {
  const slash = file.url.lastIndexOf('/');
  const encName = file.url.slice(slash + 1);
  const dir = file.url.startsWith(`${UPLOAD_PATH}/`) ? `${UPLOAD_PATH}/thumb${file.url.slice(UPLOAD_PATH.length, slash)}` : file.url.slice(0, slash);
  let params = `${width}px`;
  if (isDjvu(file)) params = `page${v.page ?? 1}-${params}`;
  else if (isVector(file) && v.lang && v.lang.toLowerCase() !== SVG_DEFAULT_LANG) params = `lang${v.lang.toLowerCase()}-${params}`;
  return `${dir}/${encName}/${params}-${encName}${isVector(file) ? '.png' : isDjvu(file) ? '.jpg' : ''}`;
}

/** A well-formed BCP 47 tag (LanguageCode::isWellFormedLanguageTag, loosely): an SVG's `lang=`. */
export const isLanguageTag = (s: string) => /^[a-z]{2,8}(?:-[a-z0-9]{1,8})*$/i.test(s);

/**
 * File::transform: a box (width, optional height) to the displayed size and URL. A bitmap is
 * never scaled up: at or past its own width the original is shown at the asked size.
 */
export function transform(file: FileFacts, width: number, height?: number, v: RenderVariant = {}): Transformed {
  let w = width;
  let h = height;
  if (h !== undefined && h !== -1 && w * file.height > h * file.width) {
    w = Math.max(1, fitBoxWidth(file.width, file.height, h));
  } else h = undefined;
  const physical = w;
  const shownHeight = h ?? scaleHeight(file.width, file.height, physical);
  if (!mustRender(file) && physical >= file.width) return { url: file.url, width: w, height: shownHeight };
  return { url: thumbUrl(file, physical, v), width: w, height: shownHeight };
}

/** Linker::processResponsiveImages + Html::srcSet: 1.5x and 2x URLs other than the 1x one, each URL once. */
export function srcset(file: FileFacts, shown: Transformed, width: number, height?: number, v: RenderVariant = {}): string {
  const seen = new Set<string>([shown.url]);
  const out: string[] = [];
  for (const [density, factor] of [
    ['1.5', 1.5],
    ['2', 2],
  ] as const) {
    const t = transform(file, Math.round(width * factor), height === undefined ? undefined : Math.round(height * factor), v);
    if (seen.has(t.url)) continue;
    seen.add(t.url);
    out.push(`${t.url} ${density}x`);
  }
  return out.join(', ');
}

/** ThumbnailImage::toHtml's <img> (legacy DOM): attribute order as MediaWiki writes them. */
export function imgTag(shown: Transformed, o: { alt: string; title?: string; valign?: string; className?: string; overrideWidth?: number; overrideHeight?: number; srcset?: string }): string {
  let s = `<img alt="${encodeAttr(o.alt)}" src="${escapeAttr(shown.url)}" decoding="async"`;
  if (o.title) s += ` title="${encodeAttr(o.title)}"`;
  // Packed galleries show a 1.5x thumb at its 1x size (override-width / override-height).
  s += ` width="${o.overrideWidth ?? shown.width}" height="${o.overrideHeight ?? shown.height}"`;
  if (o.valign) s += ` style="vertical-align: ${escapeAttr(o.valign)}"`;
  if (o.className) s += ` class="${escapeAttr(o.className)}"`;
  if (o.srcset) s += ` srcset="${escapeAttr(o.srcset)}"`;
  return `${s} />`;
}

export type HorizAlign = 'left' | 'right' | 'center' | 'none';
export const VERTICAL_ALIGNS = new Set(['baseline', 'sub', 'super', 'sup', 'top', 'text-top', 'middle', 'bottom', 'text-bottom']);

/**
 * Parser::parseWidthParam: `200`, `200x100`, `x100` (each may end in `px`) to a width and height;
 * undefined parts were not given. With parseHeight false only a width is read.
 */
export function parseWidthParam(value: string, parseHeight = true): { width?: number; height?: number } {
  if (value === '') return {};
  let m: RegExpExecArray | null;
  if (parseHeight && (m = /^([0-9]*)x([0-9]*)\s*(?:px)?\s*$/.exec(value))) {
    const out: { width?: number; height?: number } = { width: Number.parseInt(m[1]!, 10) || 0 };
    const h = Number.parseInt(m[2]!, 10) || 0;
    if (h > 0) out.height = h;
    return out;
  }
  if (/^[0-9]*\s*(?:px)?\s*$/.test(value)) return { width: Number.parseInt(value, 10) || 0 };
  return {};
}

/** One `[[File:…]]` option recognised as a magic word (MessagesEn img_* words, case-sensitive). */
export type ImageOption =
  | { kind: 'format'; format: 'thumb' | 'frame' | 'frameless' | 'manualthumb'; value?: string }
  | { kind: 'halign'; align: HorizAlign }
  | { kind: 'valign'; align: string }
  | { kind: 'width'; value: string }
  | { kind: 'upright'; value: string | undefined }
  | { kind: 'border' }
  | { kind: 'link'; value: string }
  | { kind: 'alt'; value: string }
  | { kind: 'class'; value: string }
  | { kind: 'page'; value: string }
  | { kind: 'lang'; value: string };

/** MagicWordArray::matchVariableStartToEnd over the image option words. */
export function matchImageOption(part: string): ImageOption | undefined {
  let m: RegExpExecArray | null;
  if (part === 'thumb' || part === 'thumbnail') return { kind: 'format', format: 'thumb' };
  if ((m = /^(?:thumbnail|thumb)=([\s\S]*)$/.exec(part))) return { kind: 'format', format: 'manualthumb', value: m[1]! };
  if (part === 'frame' || part === 'framed' || part === 'enframed') return { kind: 'format', format: 'frame' };
  if (part === 'frameless') return { kind: 'format', format: 'frameless' };
  if (part === 'left' || part === 'right' || part === 'none') return { kind: 'halign', align: part };
  if (part === 'center' || part === 'centre') return { kind: 'halign', align: 'center' };
  if (VERTICAL_ALIGNS.has(part)) return { kind: 'valign', align: part === 'sup' ? 'super' : part };
  if (part === 'border') return { kind: 'border' };
  if (part === 'upright') return { kind: 'upright', value: undefined };
  if ((m = /^upright(?:=|\s)([\s\S]*)$/.exec(part))) return { kind: 'upright', value: m[1]! };
  if ((m = /^link=([\s\S]*)$/.exec(part))) return { kind: 'link', value: m[1]! };
  if ((m = /^alt=([\s\S]*)$/.exec(part))) return { kind: 'alt', value: m[1]! };
  if ((m = /^class=([\s\S]*)$/.exec(part))) return { kind: 'class', value: m[1]! };
  if ((m = /^page(?:=|\s)([\s\S]*)$/.exec(part))) return { kind: 'page', value: m[1]! };
  if ((m = /^lang=([\s\S]*)$/.exec(part))) return { kind: 'lang', value: m[1]! };
  if ((m = /^([\s\S]*?)px$/.exec(part))) return { kind: 'width', value: m[1]! };
  return undefined;
}

/** PHP's is_numeric on a trimmed string (upright's value). */
export const isNumeric = (s: string) => /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(s.trim());

/** A number as PHP prints a float (precision 14): 1061.3333333333. */
export const phpFloat = (n: number) => String(Number(n.toPrecision(14)));

export const GALLERY_MODES = new Set(['traditional', 'nolines', 'packed', 'packed-overlay', 'packed-hover', 'slideshow']);

/**
 * The box arithmetic of each gallery mode (TraditionalImageGallery and its subclasses): padding
 * around thumbs, the thumb box asked of File::transform, and the widths of the boxes.
 */
export function galleryLayout(mode: string, widths: number, heights: number) {
  const packed = mode.startsWith('packed');
  const nolines = mode === 'nolines';
  const SCALE = 1.5;
  const thumbPadding = packed || nolines ? 0 : 30;
  const gbPadding = packed ? 2 : 5;
  const gbBorders = nolines ? 4 : 8;
  const thumbDivWidth = (thumbWidth: number) => (packed ? Math.max(thumbWidth, 60 * SCALE) / SCALE + thumbPadding : widths + thumbPadding);
  return {
    packed,
    thumbPadding,
    allPadding: thumbPadding + gbPadding + gbBorders,
    thumbBox: packed ? { width: (heights * 10 + 100) * SCALE, height: heights * SCALE } : { width: widths, height: heights },
    vpad: (thumbHeight: number) => (nolines ? 0 : packed ? (thumbPadding + heights - thumbHeight / SCALE) / 2 : (thumbPadding + heights - thumbHeight) / 2),
    thumbDivWidth,
    gbWidth: (thumbWidth: number | undefined) => (packed ? thumbDivWidth(thumbWidth ?? widths * SCALE) : widths + thumbPadding) + gbPadding,
    override: (t: Transformed) => (packed ? { overrideWidth: Math.ceil(t.width / SCALE), overrideHeight: Math.ceil(t.height / SCALE) } : {}),
  };
}
