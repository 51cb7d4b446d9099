/*
 * MediaWiki's feed output (ChannelFeed, RSSFeed, AtomFeed, FeedItem and their mustache
 * templates) for the feed modules: the document is written as MediaWiki's templates print it,
 * byte for byte, and sent in place of a formatted result (ApiFormatFeedWrapper).
 */
import type { Namespace } from '../clients/types.js';
import { ARTICLE_PATH, SCRIPT_PATH } from '../config.js';
import { QUIRE_GENERATOR } from './query/siteinfo.js';
import { wfUrlencode } from './query/encoding.js';
import type { ActionContext } from './types.js';
import { defineParam } from './define.js';

/** $wgFeedClasses. */
export const FEED_FORMATS = ['rss', 'atom'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

export const FEED_FORMAT_PARAM = defineParam({ type: FEED_FORMATS, default: 'rss', help: 'The format of the feed.' });

/** $wgFeedLimit. */
export const FEED_LIMIT = 50;

export interface FeedItem {
  /** Plain text; escaped when written. */
  title: string;
  /** HTML; escaped when written, as MediaWiki does. */
  description: string;
  url: string;
  /** ISO 8601, or "" for none. */
  date: string;
  /** Printed even when empty (the templates' section sees the empty string as set). */
  author: string;
  /** The talk page's URL, or "". */
  comments: string;
}

export interface FeedChannel {
  /** Escaped when written (FeedItem::getTitle). */
  title: string;
  /** Escaped when written (FeedItem::getDescription); ChangesFeed escapes it once before. */
  description: string;
  url: string;
}

/** FeedItem::xmlEncode: CRLF to LF, C0 controls but tab/LF/CR dropped, htmlspecialchars. */
export function xmlEncode(s: string): string {
  return s
    .replace(/\r\n/g, '\n')
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#039;');
}

/** RSSFeed::formatTime: "Wed, 25 Nov 2026 15:02:15 GMT". */
function rssTime(d: Date): string {
  return d.toUTCString();
}

/** AtomFeed::formatTime (the templates add the Z). */
function atomTime(d: Date): string {
  return d.toISOString().slice(0, 19);
}

/** MW_VERSION, the number in siteinfo's generator. */
const MW_VERSION = QUIRE_GENERATOR.replace(/^MediaWiki /, '');

export function renderFeed(format: FeedFormat, channel: FeedChannel, items: readonly FeedItem[], o: { now: Date; selfUrl: string; language: string }): string {
  const out = ['<?xml version="1.0"?>\n'];
  const optional = (value: string, wrap: (v: string) => string) => (value ? wrap(value) : '');
  if (format === 'rss') {
    out.push(
      '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">\n\t<channel>\n' +
        `\t\t<title>${xmlEncode(channel.title)}</title>\n\t\t<link>${xmlEncode(channel.url)}</link>\n\t\t<description>${xmlEncode(channel.description)}</description>\n` +
        `\t\t<language>${xmlEncode(o.language)}</language>\n\t\t<generator>MediaWiki ${xmlEncode(MW_VERSION)}</generator>\n` +
        `\t\t<lastBuildDate>${xmlEncode(rssTime(o.now))}</lastBuildDate>\n`,
    );
    for (const item of items) {
      const url = xmlEncode(item.url);
      out.push(
        `\t\t<item>\n\t\t\t<title>${xmlEncode(item.title)}</title>\n\t\t\t<link>${url}</link>\n\t\t\t<guid isPermaLink="false">${url}</guid>\n` +
          `\t\t\t<description>${xmlEncode(item.description)}</description>\n` +
          `\t\t\t${optional(item.date, (d) => `<pubDate>${xmlEncode(rssTime(new Date(d)))}</pubDate>`)}\n` +
          `\t\t\t<dc:creator>${xmlEncode(item.author)}</dc:creator>\n` +
          `\t\t\t${optional(item.comments, (c) => `<comments>${xmlEncode(c)}</comments>`)}\n\t\t</item>\n`,
      );
    }
    out.push('</channel></rss>');
  } else {
    const self = xmlEncode(o.selfUrl);
    out.push(
      `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${xmlEncode(o.language)}">\n\t<id>${self}</id>\n\t<title>${xmlEncode(channel.title)}</title>\n` +
        `\t<link rel="self" type="application/atom+xml" href="${self}"/>\n\t<link rel="alternate" type="text/html" href="${xmlEncode(channel.url)}"/>\n` +
        `\t<updated>${xmlEncode(atomTime(o.now))}Z</updated>\n\t<subtitle>${xmlEncode(channel.description)}</subtitle>\n\t<generator>MediaWiki ${xmlEncode(MW_VERSION)}</generator>\n`,
    );
    for (const item of items) {
      const url = xmlEncode(item.url);
      out.push(
        `\t<entry>\n\t\t<id>${url}</id>\n\t\t<title>${xmlEncode(item.title)}</title>\n\t\t<link rel="alternate" type="text/html" href="${url}"/>\n` +
          `\t\t${optional(item.date, (d) => `<updated>${xmlEncode(atomTime(new Date(d)))}Z</updated>`)}\n\n` +
          `\t\t<summary type="html">${xmlEncode(item.description)}</summary>\n` +
          `\t\t<author><name>${xmlEncode(item.author)}</name></author>\n\t</entry>\n`,
      );
    }
    out.push('</feed>');
  }
  return out.join('');
}

/** ChannelFeed::contentType: the `ctype` request value when allowed, else application/xml. */
const CONTENT_TYPES = ['application/xml', 'text/xml', 'application/rss+xml', 'application/atom+xml'];

/** Sends the feed in place of the API result (ApiFormatFeedWrapper with ChannelFeed::httpHeaders). */
export function sendFeed(ctx: ActionContext, format: FeedFormat, channel: FeedChannel, items: readonly FeedItem[]): void {
  ctx.markUsed('ctype');
  const requested = ctx.raw.get('ctype') ?? 'application/xml';
  const contentType = CONTENT_TYPES.includes(requested) ? requested : 'application/xml';
  // WebRequest::getFullRequestURL echoes the query as sent; this is its usual spelling.
  const selfUrl = `${ctx.deps.config.server}${SCRIPT_PATH}/api.php?${[...ctx.raw].map(([k, v]) => `${wfUrlencode(k)}=${wfUrlencode(v)}`).join('&')}`;
  const body = renderFeed(format, channel, items, { now: new Date(), selfUrl, language: ctx.deps.config.lang });
  // The reference wiki names every one of them feed.xml (no extension known for the feed types).
  ctx.setRawOutput({ contentType, filename: 'feed.xml', body });
}

/** Title::getFullURL() of a prefixed title, with a query (index.php) or without (the article path). */
export function fullUrl(server: string, title: string, query?: Record<string, string | number>): string {
  const key = wfUrlencode(title.replace(/ /g, '_'));
  if (!query) return server + ARTICLE_PATH.replace('$1', key);
  const rest = Object.entries(query).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`);
  return `${server}${SCRIPT_PATH}/index.php?title=${key}&${rest.join('&')}`;
}

/** Title::getTalkPage() of a prefixed title in namespace `ns` (a talk page is its own). */
export function talkPageTitle(title: string, ns: number, namespaces: readonly Namespace[]): string | undefined {
  if (ns < 0) return undefined;
  const own = namespaces.find((n) => n.id === ns);
  const talk = namespaces.find((n) => n.id === (ns % 2 === 0 ? ns + 1 : ns));
  if (!own || !talk) return undefined;
  const text = own.name && title.startsWith(`${own.name}:`) ? title.slice(own.name.length + 1) : title;
  return talk.name ? `${talk.name}:${text}` : text;
}
