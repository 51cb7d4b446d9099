/* list=tags (MediaWiki's ApiQueryTags): every change tag, defined or merely used. */
import { escapeHtml } from '../errors.js';
import { setIndexedTagName, type ResultObject } from '../types.js';
import { queryRunOf } from './run.js';
import { defineModule } from '../define.js';

/** English display names and descriptions of MediaWiki's own tags (tag-<name> and tag-<name>-description). */
export const SOFTWARE_TAG_TEXTS: Record<string, [string, string]> = {
  'mw-blank': ['Blanking', 'Edits that blank a page'],
  'mw-changed-redirect-target': ['Redirect target changed', 'Edits that change the target of a redirect'],
  'mw-contentmodelchange': ['content model change', 'Edits that [https://www.mediawiki.org/wiki/Special:MyLanguage/Help:ChangeContentModel change the content model] of a page'],
  'mw-manual-revert': ['Manual revert', 'Edits that manually restore the page to a previous version'],
  'mw-new-redirect': ['New redirect', 'Edits that create a new redirect or change a page into a redirect'],
  'mw-removed-redirect': ['Removed redirect', 'Edits that change an existing redirect into a non-redirect'],
  'mw-replace': ['Replaced', 'Edits that remove more than 90% of the content of a page'],
  'mw-reverted': ['Reverted', 'Edits that were later reverted'],
  'mw-rollback': ['Rollback', 'Edits that roll back the previous edits using the rollback link'],
  'mw-server-side-upload': ['Server-side upload', 'Uploads by maintenance scripts'],
  'mw-undo': ['Undo', 'Edits that undo previous edits using the undo link'],
};

export const tagsModule = defineModule({
  name: 'tags',
  group: 'list',
  prefix: 'tg',
  summary: 'List change tags.',
  params: {
    continue: { type: 'string', help: 'When more results are available, use this to continue.' },
    limit: { type: 'limit', default: 10, min: 1, max: 500, highMax: 5000, help: 'The maximum number of tags to list.' },
    prop: { type: ['active', 'defined', 'description', 'displayname', 'hitcount', 'source'], multi: true, default: '', help: 'Which properties to get.' },
  },
  flags: {},
  examples: { 'action=query&list=tags&tgprop=displayname|description|hitcount|defined': 'List available tags.' },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    const props = new Set(ctx.params.prop ?? []);
    const resp = await ctx.deps.clients.content.listTags(ctx.params.limit, ctx.params.continue ?? '');
    run.data.tags = setIndexedTagName(
      resp.tags.map((t): ResultObject => {
        const v: ResultObject = { name: t.name };
        const texts = SOFTWARE_TAG_TEXTS[t.name];
        // ChangeTags::tagDescription: the customised message (MediaWiki:Tag-<name>), else
        // MediaWiki's own, else the name; false when the message is disabled.
        if (props.has('displayname')) v.displayname = t.displayDisabled ? false : (t.displayHtml ?? texts?.[0] ?? escapeHtml(t.name));
        if (props.has('description')) v.description = t.descriptionText ?? texts?.[1] ?? '';
        if (props.has('hitcount')) v.hitcount = t.hitCount;
        if (props.has('defined')) v.defined = t.defined;
        if (props.has('source')) v.source = setIndexedTagName([...t.source], 'source');
        if (props.has('active')) v.active = t.active;
        return v;
      }),
      'tag',
    );
    if (resp.continueFrom) run.continuation.addContinueParam('tags', 'tgcontinue', resp.continueFrom);
  },
});
