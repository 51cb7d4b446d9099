/*
 * action=changecontentmodel (ApiChangeContentModel): the content service saves the page's text
 * in the new model and logs contentmodel/change, in one transaction.
 */
import { defineModule } from '../define.js';
import { pageWritingActor, TAGS_PARAM, titleOrPageId } from './writes.js';

/** The content models that support direct editing (ContentHandler::supportsDirectEditing). */
const MODELS = ['css', 'javascript', 'json', 'text', 'wikitext'] as const;

export const changecontentmodelModule = defineModule({
  name: 'changecontentmodel',
  group: 'action',
  prefix: '',
  summary: 'Change the content model of a page',
  params: {
    title: { type: 'string', help: 'Title of the page to change the contentmodel of. Cannot be used together with pageid.' },
    pageid: { type: 'integer', help: 'Page ID of the page to change the contentmodel of. Cannot be used together with title.' },
    summary: { type: 'string', help: 'Edit summary and log entry reason' },
    tags: { ...TAGS_PARAM, help: 'Change tags to apply to the log entry and edit.' },
    model: { type: MODELS, required: true, help: 'Content model of the new content.' },
    bot: { type: 'boolean', default: false, help: 'Mark the content model change with a bot flag.' },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=changecontentmodel&title=Main Page&model=text&token=123ABC': 'Change the main page to have the text content model',
    'action=changecontentmodel&pageid=123&model=text&summary=Change content model&token=123ABC': 'Change the page with the ID 123 to have the text content model',
  },
  async execute(ctx) {
    const p = ctx.params;
    const target = titleOrPageId(p);
    const actor = await pageWritingActor(ctx, [target]);
    const res = await ctx.deps.clients.archive.changeContentModel({
      ...target,
      model: p.model,
      summary: p.summary ?? '',
      tags: p.tags ?? [],
      bot: p.bot,
      actor,
    });
    ctx.result.changecontentmodel = { result: 'Success', title: res.title, pageid: res.pageId, contentmodel: res.contentModel, logid: res.logId, revid: res.revId };
  },
});
