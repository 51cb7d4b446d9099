/*
 * action=expandtemplates (MediaWiki's ApiExpandTemplates): template expansion of supplied
 * wikitext through the content service, with the props wikitext, categories, properties,
 * volatile, ttl, modules, jsconfigvars, encodedjsconfigvars and parsetree (the deprecated default
 * output without prop is the bare wikitext).
 */
import { setArrayType, setContentValue, setIndexedTagName, META, type ResultObject } from '../types.js';
import { defineModule } from '../define.js';
import { message } from '../errors.js';
import { apiError } from './support.js';

const PROPS = ['wikitext', 'categories', 'properties', 'volatile', 'ttl', 'modules', 'jsconfigvars', 'encodedjsconfigvars', 'parsetree'] as const;

export const expandtemplatesModule = defineModule({
  name: 'expandtemplates',
  group: 'action',
  prefix: '',
  summary: 'Expands all templates within wikitext.',
  params: {
    title: { type: 'string', help: 'Title of the page.' },
    text: { type: 'text', required: true, help: 'Wikitext to convert.' },
    revid: { type: 'integer', help: 'Revision ID, for {{REVISIONID}} and similar variables.' },
    prop: { type: PROPS, multi: true, help: 'Which pieces of information to get.' },
    includecomments: { type: 'boolean', default: false, help: 'Whether to include HTML comments in the output.' },
    showstrategykeys: { type: 'boolean', default: false, help: 'Whether to include internal merge strategy information in jsconfigvars.' },
    generatexml: { type: 'boolean', default: false, deprecated: true, help: 'Generate XML parse tree (replaced by prop=parsetree).' },
  },
  flags: {},
  examples: { 'action=expandtemplates&text={{Project:Sandbox}}&prop=wikitext': 'Expand the wikitext {{Project:Sandbox}}.' },
  async execute(ctx) {
    const p = ctx.params;
    if (p.prop !== undefined && p.generatexml) throw apiError('invalidparammix', 'apierror-invalidparammix', ['<var>prop</var> and <var>generatexml</var>', 2]);
    const props = new Set(p.prop ?? []);
    // A title is needed for parsing, so MediaWiki arbitrarily chooses one.
    const r = await ctx.deps.clients.content.expandTemplates({ text: p.text, title: p.title ?? 'API', revId: p.revid ?? 0 });
    if (props.size === 0) {
      // Without prop MediaWiki returns the bare wikitext and a deprecation warning.
      ctx.addWarning('expandtemplates', message('deprecation', 'apiwarn-deprecation-missingparam', ['prop'], { feature: 'action=expandtemplates&!prop' }));
      // The deprecated generatexml puts the parse tree beside the module's result, "the old way".
      if (p.generatexml) {
        ctx.result.parsetree = r.parseTree;
        ctx.result[META.BC_SUBELEMENTS] = ['parsetree'];
      }
      ctx.result.expandtemplates = setContentValue({ [META.BC_SUBELEMENTS]: [] }, 'wikitext', r.wikitext);
      return;
    }
    // ApiExpandTemplates::execute, in its order: the parse tree first, then what the expansion gave.
    const out: ResultObject = {};
    if (props.has('parsetree')) out.parsetree = r.parseTree;
    // Categories and page properties only when there are any.
    if (props.has('categories') && r.categories.length > 0)
      out.categories = setIndexedTagName(
        r.categories.map((c) => setContentValue({ sortkey: c.sortkey }, 'category', c.name)),
        'category',
      );
    if (props.has('properties') && r.properties.length > 0)
      out.properties = setIndexedTagName(
        r.properties.map((x) => setContentValue({ name: x.name }, 'value', x.value)),
        'property',
      );
    if (props.has('volatile')) out.volatile = r.volatile;
    if (props.has('ttl') && r.volatile) out.ttl = r.ttl;
    if (props.has('wikitext')) out.wikitext = r.wikitext;
    // Preprocessing adds no ResourceLoader modules nor configuration variables.
    if (props.has('modules')) {
      out.modules = [];
      out.modulescripts = [];
      out.modulestyles = [];
    }
    if (props.has('jsconfigvars')) out.jsconfigvars = setArrayType({}, 'assoc');
    if (props.has('encodedjsconfigvars')) {
      out.encodedjsconfigvars = '[]';
      out[META.SUBELEMENTS] = ['encodedjsconfigvars'];
    }
    if (props.has('modules') && !props.has('jsconfigvars') && !props.has('encodedjsconfigvars')) {
      ctx.addWarning('expandtemplates', message('moduleswithoutvars', 'apiwarn-moduleswithoutvars'));
    }
    out[META.BC_SUBELEMENTS] = ['wikitext', 'parsetree'];
    ctx.result.expandtemplates = out;
  },
});
