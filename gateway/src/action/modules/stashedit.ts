/*
 * action=stashedit (ApiStashEdit, internal): what an editor sends while the user is still typing.
 * Checked as MediaWiki checks it (bots refused, model/format, text or stashedtexthash, the base
 * revision of an existing page); the text is kept under its SHA-1 by the content service, so a
 * later request may name it by `stashedtexthash`. No rendered edit is cached: action=edit renders
 * at save time.
 */
import { ApiUsageError } from '../types.js';
import { requireRight } from './support.js';
import { pageWritingActor } from './writes.js';
import { defineModule } from '../define.js';
import { CONTENT_FORMAT_VALUES, CONTENT_MODEL_VALUES, supportsFormat } from '../content-formats.js';

const missingText = () => new ApiUsageError('missingtext', 'No stashed text found with the given hash.');

export const stasheditModule = defineModule({
  name: 'stashedit',
  group: 'action',
  prefix: '',
  summary: 'Prepare an edit in shared cache.',
  params: {
    title: { type: 'string', required: true, help: 'Title of the page being edited.' },
    section: { type: 'string', help: 'Section identifier. 0 for the top section, new for a new section.' },
    sectiontitle: { type: 'string', help: 'The title for a new section.' },
    text: { type: 'text', help: 'Page content.' },
    stashedtexthash: { type: 'string', help: 'Page content hash from a prior stash to use instead.' },
    summary: { type: 'string', default: '', help: 'Change summary.' },
    contentmodel: { type: CONTENT_MODEL_VALUES, required: true, help: 'Content model of the new content.' },
    contentformat: { type: CONTENT_FORMAT_VALUES, required: true, help: 'Content serialization format used for the input text.' },
    baserevid: { type: 'integer', required: true, help: 'Revision ID of the base revision.' },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true, internal: true },
  async execute(ctx) {
    const p = ctx.params;
    if (ctx.caller.user.rights.includes('bot')) throw new ApiUsageError('botsnotsupported', 'This interface is not supported for bots.');
    const resolved = await ctx.deps.clients.content.resolvePages({ titles: [p.title] });
    const invalid = resolved.invalid[0];
    if (invalid) throw new ApiUsageError('invalidtitle', `Bad title "${p.title}".`);
    if (!supportsFormat(p.contentmodel, p.contentformat)) {
      throw new ApiUsageError('badmodelformat', `The requested format ${p.contentformat} is not supported for content model ${p.contentmodel}.`);
    }
    // ApiBase::requireOnlyOneParameter( stashedtexthash, text ).
    if (p.stashedtexthash !== undefined && p.text !== undefined) {
      throw new ApiUsageError('invalidparammix', 'The parameters "text" and "stashedtexthash" can not be used together.');
    }
    if (p.stashedtexthash === undefined && p.text === undefined) {
      throw new ApiUsageError('missingparam', 'One of the parameters "stashedtexthash" and "text" is required.');
    }
    let text: string;
    if (p.stashedtexthash !== undefined) {
      if (!/^[0-9a-f]{40}$/.test(p.stashedtexthash)) throw missingText();
      const stashed = await ctx.deps.clients.archive.fetchStashedEditText(p.stashedtexthash);
      if (stashed === undefined) throw missingText();
      text = stashed;
    } else {
      text = (p.text ?? '').replace(/\r\n/g, '\n').replace(/[ \t\n\r\0\x0B]+$/, '');
    }
    // ApiStashEdit::checkTitleUserPermissions( 'edit' ): the right, then the blocks that cover the page.
    requireRight(ctx, 'edit', 'edit this page');
    await pageWritingActor(ctx, [{ title: p.title }]);
    const page = resolved.pages[0];
    if (page && !page.missing && !page.special && page.id > 0) {
      // RevisionLookup::getRevisionByPageId: the base must be a revision of this page.
      const base = p.baserevid > 0 ? (await ctx.deps.clients.content.getRevisions({ revIds: [p.baserevid] })).revisions[0] : undefined;
      if (!base || base.pageId !== page.id) throw new ApiUsageError('nosuchrevid', `There is no revision with ID ${p.baserevid}.`);
    }
    const texthash = await ctx.deps.clients.archive.stashEditText(text);
    ctx.result.stashedit = { status: 'stashed', texthash };
  },
});
