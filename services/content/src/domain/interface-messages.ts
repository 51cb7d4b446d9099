/*
 * The texts MediaWiki writes into summaries itself (a protection's, a move's, an undo's, a
 * rollback's, a redirect's) are interface messages in the content language: a wiki that edits
 * MediaWiki:<Key> sees its own text (MessageCache: the page's latest text, else the default).
 */
import type { Db } from '@quire/kit';
import { messageTexts } from '../store/tags.js';

const NS_MEDIAWIKI = 8;

/** MediaWiki 1.39's English defaults (languages/i18n/en.json). */
export const DEFAULT_MESSAGES = {
  'colon-separator': ': ',
  'word-separator': ' ',
  parentheses: '($1)',
  brackets: '[$1]',
  'protectedarticle-comment': '{{GENDER:$2|Protected}} "[[$1]]"',
  'modifiedarticleprotection-comment': '{{GENDER:$2|Changed}} protection settings for "[[$1]]"',
  'unprotectedarticle-comment': '{{GENDER:$2|Removed protection}} from "[[$1]]"',
  'protect-summary-desc': '[$1=$2] ($3)',
  'protect-summary-cascade': 'cascading',
  'protect-expiry-indefinite': 'indefinite',
  'protect-expiring': 'expires $1 (UTC)',
  'restriction-edit': 'Edit',
  'restriction-move': 'Move',
  'restriction-create': 'Create',
  'restriction-upload': 'Upload',
  'protect-level-sysop': 'Allow only administrators',
  'protect-level-autoconfirmed': 'Allow only autoconfirmed users',
  'logentry-move-move': '$1 {{GENDER:$2|moved}} page $3 to $4',
  'logentry-move-move_redir': '$1 {{GENDER:$2|moved}} page $3 to $4 over redirect',
  'undo-summary': 'Undo revision $1 by [[Special:Contributions/$2|$2]] ([[User talk:$2|talk]])',
  autoredircomment: 'Redirected page to [[$1]]',
  'autosumm-changed-redirect-target': 'Changed redirect target from [[$1]] to [[$2]]',
  'autosumm-removed-redirect': 'Removed redirect to [[$1]]',
  'autosumm-new': 'Created page with "$1"',
  'autosumm-blank': 'Blanked the page',
  'autosumm-replace': 'Replaced content with "$1"',
  'autosumm-newblank': 'Created blank page',
  'mergehistory-comment': 'Merged [[:$1]] into [[:$2]]: $3',
  'mergehistory-autocomment': 'Merged [[:$1]] into [[:$2]]',
  revertpage: 'Reverted edits by [[Special:Contributions/$2|$2]] ([[User talk:$2|talk]]) to last revision by [[User:$1|$1]]',
} as const;

export type MessageKey = keyof typeof DEFAULT_MESSAGES;

/** Message::text() in the content language: the parameters filled in, then {{GENDER}} and {{PLURAL}} resolved. */
export type MessageText = (key: MessageKey, ...params: (string | number)[]) => string;

/**
 * Message::text's transform of a filled-in message, for what summaries hold: {{GENDER:user|…}}
 * takes the form of an unknown gender (the third, else the first), {{PLURAL:n|one|other}} the
 * English form for n.
 */
export function transformMessage(text: string): string {
  return text
    .replace(/\{\{\s*GENDER:[^|}]*\|([^}]*)\}\}/gi, (_m, forms: string) => {
      const f = forms.split('|');
      return (f.length >= 3 ? f[2] : f[0]) ?? '';
    })
    .replace(/\{\{\s*PLURAL:\s*([^|}]*)\|([^}]*)\}\}/gi, (_m, n: string, forms: string) => {
      const f = forms.split('|');
      return (Number(n.trim().replace(/,/g, '')) === 1 ? f[0] : (f[1] ?? f[0])) ?? '';
    });
}

/** A message's text with `$1`… filled in (Message::params, then text()). */
export function fillMessage(template: string, params: readonly (string | number)[]): string {
  return transformMessage(template.replace(/\$(\d+)/g, (m, n: string) => (params[Number(n) - 1] !== undefined ? String(params[Number(n) - 1]) : m)));
}

/** The texts of `keys`, each the wiki's MediaWiki:<Key> page when it has one. */
export async function interfaceMessages(db: Db, keys: readonly MessageKey[]): Promise<MessageText> {
  const own = await messageTexts(db, keys, NS_MEDIAWIKI);
  return (key, ...params) => fillMessage(own.get(key) ?? DEFAULT_MESSAGES[key], params);
}

/** Whether MediaWiki has a message of this key here. */
export const isMessageKey = (key: string): key is MessageKey => key in DEFAULT_MESSAGES;

/** The defaults alone (no wiki to read from: tests, previews of a text). */
export const defaultMessages: MessageText = (key, ...params) => fillMessage(DEFAULT_MESSAGES[key], params);
