/*
 * The MediaWiki export format as MediaWiki 1.39's XmlDumpWriter writes it (schema 0.10 and 0.11):
 * the same elements, attributes, indentation and escaping, so a dump from Quire reads like one
 * from MediaWiki (and `importDump.php` takes it). Each method returns the next piece of the
 * document, so callers stream it.
 */
import { isIP } from 'node:net';
import type { ExportedPage, ExportedRevision } from '../clients/types.js';

export const DUMP_SCHEMAS = ['0.10', '0.11'] as const;
export type DumpSchema = (typeof DUMP_SCHEMAS)[number];

export interface DumpSiteInfo {
  sitename: string;
  dbname: string;
  /** The main page's canonical URL. */
  base: string;
  generator: string;
  /** $wgCapitalLinks: first-letter or case-sensitive. */
  case: string;
  /** Every namespace with its local name ('' for the main namespace), by id. */
  namespaces: { key: number; case: string; name: string }[];
  /** The content language's HTML code (xml:lang). */
  lang: string;
}

/** A page's header and its revisions as the content service's ExportPages streams them. */
export type DumpPageHeader = ExportedPage;
export type DumpRevision = ExportedRevision;

const DELETED_TEXT = 1;
const DELETED_COMMENT = 2;
const DELETED_USER = 4;

/** htmlspecialchars($s, ENT_NOQUOTES): element content. */
function escapeText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

const ATTR_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' };

/** Sanitizer::encodeAttribute: htmlspecialchars with ENT_QUOTES, whitespace as references. */
function escapeAttr(s: string): string {
  return s.replace(/[&<>"'\n\r\t]/g, (c) => ATTR_ESCAPES[c]!);
}

// Characters XML 1.0 cannot carry, and lone surrogates.
const NOT_XML = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** UtfNormal\Validator::cleanUp (Xml::elementClean): invalid characters become U+FFFD, then NFC. */
function cleanUp(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x09\x0A\x0D\x20-\x7E]*$/.test(s)) return s;
  return s.replace(NOT_XML, '\uFFFD').normalize('NFC');
}

function attrs(a: Record<string, string | number>): string {
  return Object.entries(a)
    .map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`)
    .join('');
}

/** Xml::element: `<name attrs />` for empty content, else `<name attrs>content</name>`. */
function element(name: string, a: Record<string, string | number> | null, content: string): string {
  const at = a ? attrs(a) : '';
  return content === '' ? `<${name}${at} />` : `<${name}${at}>${escapeText(content)}</${name}>`;
}

const clean = (name: string, a: Record<string, string | number> | null, content: string) => element(name, a, cleanUp(content));

export class DumpWriter {
  constructor(readonly schema: DumpSchema = '0.11') {}

  /** XmlDumpWriter::openStream: the root element and the siteinfo. */
  open(site: DumpSiteInfo): string {
    const ver = this.schema;
    const root = `<mediawiki${attrs({
      xmlns: `http://www.mediawiki.org/xml/export-${ver}/`,
      'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      'xsi:schemaLocation': `http://www.mediawiki.org/xml/export-${ver}/ http://www.mediawiki.org/xml/export-${ver}.xsd`,
      version: ver,
      'xml:lang': site.lang,
    })}>\n`;
    const namespaces = `<namespaces>\n${site.namespaces.map((n) => `      ${element('namespace', { key: n.key, case: n.case }, n.name)}\n`).join('')}    </namespaces>`;
    const info = [
      element('sitename', null, site.sitename),
      element('dbname', null, site.dbname),
      element('base', null, site.base),
      element('generator', null, site.generator),
      element('case', null, site.case),
      namespaces,
    ];
    return `${root}  <siteinfo>\n    ${info.join('\n    ')}\n  </siteinfo>\n`;
  }

  close(): string {
    return '</mediawiki>\n';
  }

  openPage(p: DumpPageHeader): string {
    let out = '  <page>\n';
    out += `    ${clean('title', null, p.title)}\n`;
    out += `    ${element('ns', null, String(p.ns))}\n`;
    out += `    ${element('id', null, String(p.pageId))}\n`;
    if (p.redirectTitle) out += `    ${element('redirect', { title: p.redirectTitle }, '')}\n`;
    return out;
  }

  closePage(): string {
    return '  </page>\n';
  }

  revision(r: DumpRevision): string {
    let out = '    <revision>\n';
    out += `      ${element('id', null, String(r.id))}\n`;
    if (r.parentId) out += `      ${element('parentid', null, String(r.parentId))}\n`;
    out += `      ${element('timestamp', null, r.timestamp)}\n`;
    if (r.deleted & DELETED_USER) out += `      ${element('contributor', { deleted: 'deleted' }, '')}\n`;
    else out += contributor(r.userId, r.userName);
    if (r.minor) out += '      <minor/>\n';
    if (r.deleted & DELETED_COMMENT) out += `      ${element('comment', { deleted: 'deleted' }, '')}\n`;
    else if (r.comment !== '') out += `      ${clean('comment', null, r.comment)}\n`;
    if (this.schema === '0.11') out += `      ${element('origin', null, String(r.origin))}\n`;
    out += `      ${element('model', null, r.model)}\n`;
    out += `      ${element('format', null, r.format)}\n`;
    const textAttrs: Record<string, string | number> = { bytes: r.size || '0' };
    if (this.schema === '0.11') textAttrs.sha1 = r.sha1;
    if (r.deleted & DELETED_TEXT) {
      out += `      ${element('text', { ...textAttrs, deleted: 'deleted' }, '')}\n`;
      out += '      <sha1/>\n';
    } else {
      // writeText: the actual byte length of what is written.
      textAttrs.bytes = Buffer.byteLength(r.text, 'utf8');
      textAttrs['xml:space'] = 'preserve';
      out += `      ${clean('text', textAttrs, r.text)}\n`;
      out += `      ${element('sha1', null, r.sha1)}\n`;
    }
    return `${out}    </revision>\n`;
  }
}

/** XmlDumpWriter::writeContributor: a user name and id, or an IP address. */
function contributor(id: number, name: string): string {
  let out = '      <contributor>\n';
  if (id || isIP(name) === 0) {
    out += `        ${clean('username', null, name)}\n`;
    out += `        ${element('id', null, String(id))}\n`;
  } else {
    out += `        ${clean('ip', null, name)}\n`;
  }
  return `${out}      </contributor>\n`;
}
