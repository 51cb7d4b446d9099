/*
 * prop=revisions' content options (ApiQueryRevisionsBase): rvsection, and the parameters
 * MediaWiki 1.39 still accepts with deprecation warnings — rvparse, rvexpandtemplates,
 * rvgeneratexml, rvprop=parsetree, rvdiffto, rvdifftotext(pst), rvcontentformat — whose output
 * (ApiQueryRevisionsBase::extractDeprecatedContent) is only given in the legacy format (no rvslots).
 * The content service does the work: sections, template expansion and parse trees, rendering, diffs.
 */
import { type Revision, CompareRelative } from '../../clients/types.js';
import { ApiUsageError, setContentValue, type ActionContext, type ResultObject } from '../types.js';
import { defineParams, type ParamsOf } from '../define.js';
import { CONTENT_FORMAT_VALUES, FORMATS_OF } from '../content-formats.js';
import { DELETED_TEXT, textAccess, userCanSee } from '../../revdel.js';
import { signaturePreference } from '../../signature.js';

/** $wgAPIMaxUncachedDiffs: diffs computed per request; later revisions get `notcached`. */
const MAX_UNCACHED_DIFFS = 1;

export const CONTENT_OPTION_PARAMS = defineParams({
  expandtemplates: { type: 'boolean', default: false, deprecated: true, help: 'Expand templates in revision content (requires rvprop=content).' },
  generatexml: { type: 'boolean', default: false, deprecated: true, help: 'Generate XML parse tree for revision content (requires rvprop=content).' },
  parse: { type: 'boolean', default: false, deprecated: true, help: 'Parse revision content (requires rvprop=content). For performance reasons, if this option is used, rvlimit is enforced to 1.' },
  section: { type: 'string', help: 'Only retrieve the content of the section with this identifier.' },
  diffto: { type: 'string', deprecated: true, help: 'Revision ID to diff each revision to. Use prev, next and cur for the previous, next and current revision respectively.' },
  difftotext: {
    type: 'string',
    deprecated: true,
    help: 'Text to diff each revision to. Only diffs a limited number of revisions. Overrides rvdiffto. If rvsection is set, only that section will be diffed against this text.',
  },
  difftotextpst: { type: 'boolean', default: false, deprecated: true, help: 'Perform a pre-save transform on the text before diffing it. Only valid when used with rvdifftotext.' },
  contentformat: { type: CONTENT_FORMAT_VALUES, deprecated: true, help: 'Serialization format used for rvdifftotext and expected for output of content.' },
});

type ContentOptionParams = ParamsOf<typeof CONTENT_OPTION_PARAMS>;

export interface ContentOptions {
  /** Content is read: rvprop=content or parsetree, or a diff. */
  fetchContent: boolean;
  section?: string;
  parse: boolean;
  expandTemplates: boolean;
  generateXml: boolean;
  parsetree: boolean;
  content: boolean;
  contentFormat?: string;
  /** "prev", "next", "cur" or a revision id. */
  diffto?: string;
  difftotext?: string;
  difftotextpst: boolean;
}

/** ApiQueryRevisionsBase::parseParameters for the content options. */
export async function parseContentOptions(
  ctx: ActionContext<ContentOptionParams>,
  props: ReadonlySet<string>,
  slots: readonly string[] | undefined,
  warn: (text: string, code: string) => void,
): Promise<ContentOptions> {
  const p = ctx.params;
  const prefix = ctx.module.prefix;
  if (slots !== undefined) {
    if (props.has('parsetree')) throw new ApiUsageError('invalidparammix', `The "${prefix}prop=parsetree" parameter cannot be used with "${prefix}slots".`);
    for (const name of ['expandtemplates', 'generatexml', 'parse', 'diffto', 'difftotext', 'difftotextpst', 'contentformat'] as const) {
      const v = p[name];
      if (v !== undefined && v !== false) throw new ApiUsageError('invalidparammix', `The "${prefix}${name}" parameter cannot be used with "${prefix}slots".`);
    }
  }
  let diffto: string | undefined;
  const difftotext = p.difftotext;
  if (difftotext === undefined && p.diffto !== undefined) {
    diffto = p.diffto === 'cur' ? '0' : p.diffto;
    if (!/^\d+$/.test(diffto) && diffto !== 'prev' && diffto !== 'next') {
      throw new ApiUsageError('diffto', `"${prefix}diffto" must be set to a non-negative number, "prev", "next" or "cur".`);
    }
    if (/^\d+$/.test(diffto) && Number(diffto) !== 0) {
      const rev = (await ctx.deps.clients.content.getRevisions({ revIds: [Number(diffto)] })).revisions[0];
      if (!rev) throw new ApiUsageError('nosuchrevid', `There is no revision with ID ${diffto}.`);
      if (!userCanSee(rev.deleted, DELETED_TEXT, ctx.caller.user.rights)) {
        warn(`Couldn't diff to r${rev.id}: content is hidden.`, 'difftohidden');
        diffto = undefined;
      }
    }
  }
  const parsetree = props.has('parsetree');
  const content = props.has('content');
  const fetchContent = content || diffto !== undefined || difftotext !== undefined || parsetree;
  return {
    fetchContent,
    ...(fetchContent && p.section !== undefined ? { section: p.section } : {}),
    parse: fetchContent && p.parse === true,
    expandTemplates: fetchContent && p.expandtemplates === true,
    generateXml: fetchContent && p.generatexml === true,
    parsetree,
    content,
    ...(p.contentformat !== undefined ? { contentFormat: p.contentformat } : {}),
    ...(diffto !== undefined ? { diffto } : {}),
    ...(difftotext !== undefined ? { difftotext } : {}),
    difftotextpst: p.difftotextpst === true,
  };
}

/** What the content options make of each revision's content, computed before the output. */
export interface DerivedContent {
  /** The (section's) text by revision id; absent: none could be shown. */
  text: Map<number, string>;
  /** rvsection named no section of these revisions. */
  noSuchSection: Set<number>;
  /** extractDeprecatedContent's fields by revision id (legacy format only). */
  legacy: Map<number, ResultObject>;
}

/** rvsection over the revisions' texts (WikitextContent::getSection; other models have no sections). */
async function applySection(ctx: ActionContext, o: ContentOptions, revisions: readonly Revision[], out: DerivedContent): Promise<void> {
  // A text hidden from the caller is neither shown nor parsed, expanded or diffed.
  const withText = revisions.filter((r) => r.content !== undefined && userCanSee(r.deleted, DELETED_TEXT, ctx.caller.user.rights));
  if (o.section === undefined) {
    for (const r of withText) out.text.set(r.id, r.content!);
    return;
  }
  const wikitext = withText.filter((r) => r.contentModel === 'wikitext');
  const sections = /^\d+$/.test(o.section)
    ? await ctx.deps.clients.archive.extractSections(
        wikitext.map((r) => r.content!),
        o.section,
      )
    : wikitext.map(() => undefined);
  wikitext.forEach((r, i) => {
    const s = sections[i];
    if (s === undefined) out.noSuchSection.add(r.id);
    else out.text.set(r.id, s);
  });
  for (const r of withText) if (r.contentModel !== 'wikitext') out.noSuchSection.add(r.id);
}

/** ApiQueryRevisionsBase::extractDeprecatedContent for one revision. */
async function deprecatedFields(
  ctx: ActionContext,
  o: ContentOptions,
  rev: Revision,
  title: string,
  text: string,
  warn: (text: string, code: string) => void,
  diffBudget: { left: number },
): Promise<ResultObject> {
  const { content } = ctx.deps.clients;
  const vals: ResultObject = {};
  const wikitext = rev.contentModel === 'wikitext';
  if (o.parsetree || (o.content && o.generateXml)) {
    if (wikitext) vals.parsetree = (await content.expandTemplates({ text, title })).parseTree;
    else {
      vals.badcontentformatforparsetree = true;
      warn(`"prop=parsetree" is only supported for wikitext content. ${title} uses content model ${rev.contentModel}.`, 'parsetree-notwikitext');
    }
  }
  if (o.content) {
    let shown: string | false | undefined;
    if (o.expandTemplates && !o.parse) {
      if (wikitext) shown = (await content.expandTemplates({ text, title, revId: rev.id })).wikitext;
      else {
        warn(`Template expansion is only supported for wikitext content. ${title} uses content model ${rev.contentModel}.`, 'templateexpansion-notwikitext');
        vals.badcontentformat = true;
        shown = false;
      }
    }
    if (o.parse) shown = (await content.parse({ hasText: true, text, title, textRevId: rev.id, contentModel: rev.contentModel === 'wikitext' ? '' : rev.contentModel })).html;
    if (shown === undefined) {
      const format = o.contentFormat ?? FORMATS_OF[rev.contentModel]?.[0] ?? 'text/plain';
      if (!(FORMATS_OF[rev.contentModel] ?? []).includes(format)) {
        warn(`The requested format ${o.contentFormat} is not supported for content model ${rev.contentModel} used by ${title}.`, 'badformat');
        vals.badcontentformat = true;
        shown = false;
      } else {
        shown = text;
        vals.contentformat = format;
        vals.contentmodel = rev.contentModel;
      }
    }
    if (shown !== false) setContentValue(vals, 'content', shown);
  }
  if (o.diffto !== undefined || o.difftotext !== undefined) {
    if (diffBudget.left <= 0) {
      vals.diff = { notcached: true };
      return vals;
    }
    diffBudget.left--;
    const diff: ResultObject = {};
    if (o.difftotext !== undefined) {
      if (o.contentFormat && !(FORMATS_OF[rev.contentModel] ?? []).includes(o.contentFormat)) {
        warn(`The requested format ${o.contentFormat} is not supported for content model ${rev.contentModel} used by ${title}.`, 'badformat');
        diff.badcontentformat = true;
      } else {
        const user = ctx.caller.user;
        const pst = o.difftotextpst && rev.contentModel === 'wikitext';
        const other = pst
          ? (
              await content.preSaveTransform({
                text: o.difftotext,
                title,
                userName: user.name,
                userAnonymous: user.anonymous,
                signature: await signaturePreference(ctx.deps, ctx.caller, [o.difftotext]),
              })
            ).text
          : o.difftotext;
        const res = await content.compare({ from: { text, title, contentModel: rev.contentModel }, to: { text: other, title, contentModel: rev.contentModel } });
        setContentValue(diff, 'body', res.tableHtml);
      }
    } else {
      const relative = { prev: CompareRelative.COMPARE_RELATIVE_PREV, next: CompareRelative.COMPARE_RELATIVE_NEXT, '0': CompareRelative.COMPARE_RELATIVE_CUR }[o.diffto!];
      const res = await content.compare({
        from: { revId: rev.id },
        ...(relative !== undefined ? { toRelative: relative } : { to: { revId: Number(o.diffto) } }),
        ...textAccess(ctx.caller.user.rights),
      });
      const from = res.from?.revision?.id ?? 0;
      const to = res.to?.revision?.id ?? 0;
      diff.from = from;
      diff.to = to;
      // DifferenceEngine::getDiffBody marks a revision diff with its cache key (wikidiff2 1.13 here).
      setContentValue(diff, 'body', `${res.tableHtml}\n<!-- diff cache key ${ctx.deps.config.wikiId}:diff:wikidiff2:1.12:old-${from}:rev-${to}:1.13.0 -->\n`);
    }
    vals.diff = diff;
  }
  return vals;
}

/**
 * The content of each revision as the options shape it: section texts, `nosuchsection` (an
 * error in the legacy format, a flag per slot otherwise), and the deprecated fields.
 */
export async function deriveContent(
  ctx: ActionContext,
  o: ContentOptions,
  revisions: readonly Revision[],
  titleOf: (rev: Revision) => string,
  legacy: boolean,
  warn: (text: string, code: string) => void,
): Promise<DerivedContent> {
  const out: DerivedContent = { text: new Map(), noSuchSection: new Set(), legacy: new Map() };
  if (!o.fetchContent) return out;
  await applySection(ctx, o, revisions, out);
  if (!legacy) return out;
  const budget = { left: MAX_UNCACHED_DIFFS };
  for (const rev of revisions) {
    if (out.noSuchSection.has(rev.id)) throw new ApiUsageError('nosuchsection', `There is no section ${o.section} in revision ${rev.id}.`);
    const text = out.text.get(rev.id);
    if (text === undefined) continue;
    out.legacy.set(rev.id, await deprecatedFields(ctx, o, rev, titleOf(rev), text, warn, budget));
  }
  return out;
}
