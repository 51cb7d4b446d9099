/*
 * The interface messages of change tags as an administrator customised them on MediaWiki: pages
 * (ChangeTags::tagShortDescriptionMessage and tagLongDescriptionMessage): `tag-<name>` parsed
 * as Message::parse does, and `tag-<name>-description` as text. MediaWiki's own English defaults
 * are the gateway's; here only the pages count.
 */
import type { Db } from '@quire/kit';
import type { RenderService } from '../domain/render.js';
import { messageTexts } from '../store/tags.js';
import { NS_MEDIAWIKI } from '../title/namespaces.js';

export interface TagMessage {
  /** The parsed tag-<name> message, when its page exists and is not disabled. */
  html?: string;
  /** The page says "-" or nothing: the tag has no display name (and lists leave it out). */
  disabled: boolean;
  /** The text of tag-<name>-description, when its page exists. */
  description?: string;
}

/** Parser::stripOuterParagraph, as Message::parse leaves a one-paragraph message. */
function stripOuterParagraph(html: string): string {
  const m = /^<p>([\s\S]*?)\n?<\/p>\n?$/.exec(html);
  return m && !m[1]!.includes('</p>') ? m[1]! : html;
}

/** Message::isDisabled: an empty text or "-". */
const isDisabled = (text: string) => text.trim() === '' || text.trim() === '-';

export async function tagMessages(db: Db, render: RenderService, names: readonly string[]): Promise<Map<string, TagMessage>> {
  const texts = await messageTexts(
    db,
    names.flatMap((n) => [`tag-${n}`, `tag-${n}-description`]),
    NS_MEDIAWIKI,
  );
  const out = new Map<string, TagMessage>();
  for (const name of names) {
    const text = texts.get(`tag-${name}`);
    const description = texts.get(`tag-${name}-description`);
    const msg: TagMessage = { disabled: text !== undefined && isDisabled(text) };
    if (text !== undefined && !msg.disabled) {
      const rendered = await render.render({ text, title: { ns: NS_MEDIAWIKI, dbkey: `Tag-${name}` }, pageId: 0, revId: 0, wrapClass: '', limitReport: false });
      msg.html = stripOuterParagraph(rendered.html.trim());
    }
    if (description !== undefined && !isDisabled(description)) msg.description = description;
    out.set(name, msg);
  }
  return out;
}
