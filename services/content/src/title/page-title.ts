import { invalidArgument } from '@quire/kit';
import { MalformedTitleError, type ParsedTitle, type TitleCodec } from './codec.js';

/**
 * Parses the title of one page for an RPC that needs it: `invalidtitle` with MediaWiki's reason
 * otherwise (a bare "#fragment" names no page: title-invalid-empty).
 */
export function parsePageTitleOrThrow(codec: TitleCodec, text: string): ParsedTitle {
  try {
    const title = codec.parse(text);
    if (title.dbkey === '') throw new MalformedTitleError('title-invalid-empty', text);
    return title;
  } catch (e) {
    if (!(e instanceof MalformedTitleError)) throw e;
    throw invalidArgument('invalidtitle', `Bad title "${text}".`, { title: text, reasonCode: e.code, reason: e.message });
  }
}
