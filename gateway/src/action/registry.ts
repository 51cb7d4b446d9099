/*
 * The module registry (MediaWiki's ApiModuleManager): action modules, the query submodules
 * (prop/list/meta) and the output formats. Only implemented modules are registered, so an
 * unknown action gets MediaWiki's "Unrecognized value for parameter "action"" error.
 */
import type { ModuleDecl, ModuleGroup, ModuleLookup, ParamDecl } from './types.js';
import { formatModules, DEFAULT_FORMAT, type FormatModuleDecl } from './format.js';
import { ERROR_FORMATS } from './errors.js';
import { queryModule, querySubmodules } from './query/index.js';
import { helpModule } from './help.js';
import { paraminfoModule } from './paraminfo.js';
import { loginModule } from './modules/login.js';
import { clientloginModule } from './modules/clientlogin.js';
import { logoutModule } from './modules/logout.js';
import { createaccountModule } from './modules/createaccount.js';
import { checktokenModule } from './modules/checktoken.js';
import { validatepasswordModule } from './modules/validatepassword.js';
import { userrightsModule } from './modules/userrights.js';
import { blockModule, unblockModule } from './modules/block.js';

/** The account, session and block modules (auth service). */
const AUTH_ACTIONS = [loginModule, clientloginModule, logoutModule, createaccountModule, checktokenModule, validatepasswordModule, userrightsModule, blockModule, unblockModule];
import { oathvalidateModule } from './modules/oathvalidate.js';
import { clearhasmsgModule } from './modules/clearhasmsg.js';
import { rsdModule } from './modules/rsd.js';
import { feedcontributionsModule } from './modules/feedcontributions.js';
import { linkaccountModule, unlinkaccountModule, removeauthenticationdataModule, changeauthenticationdataModule } from './modules/authdata.js';
import { resetpasswordModule, emailuserModule } from './modules/accountmail.js';
import { feedwatchlistModule } from './modules/feedwatchlist.js';
import { feedrecentchangesModule } from './modules/feedrecentchanges.js';
import { setnotificationtimestampModule } from './modules/setnotificationtimestamp.js';
import { cspreportModule } from './modules/cspreport.js';
import { editModule } from './modules/edit.js';
import { compareModule } from './modules/compare.js';
import { parseModule } from './modules/parse.js';
import { expandtemplatesModule } from './modules/expandtemplates.js';
import { opensearchModule } from './modules/opensearch.js';
import { deleteModule } from './modules/delete.js';
import { undeleteModule } from './modules/undelete.js';
import { protectModule } from './modules/protect.js';
import { moveModule } from './modules/move.js';
import { rollbackModule } from './modules/rollback.js';
import { purgeModule } from './modules/purge.js';
import { patrolModule } from './modules/patrol.js';

/** The page lifecycle modules (content service, src/store/lifecycle). */
import { uploadModule } from './modules/upload.js';
import { filerevertModule } from './modules/filerevert.js';
import { imagerotateModule } from './modules/imagerotate.js';
import { watchModule } from './modules/watch.js';
import { optionsModule } from './modules/options.js';
import { tagModule } from './modules/tag.js';
import { managetagsModule } from './modules/managetags.js';
import { revisiondeleteModule } from './modules/revisiondelete.js';
import { changecontentmodelModule } from './modules/changecontentmodel.js';
import { mergehistoryModule } from './modules/mergehistory.js';
import { setpagelanguageModule } from './modules/setpagelanguage.js';
import { stasheditModule } from './modules/stashedit.js';
import { importModule } from './modules/import.js';

/** Files, watchlist, preferences and change tags. */
const FILE_AND_WATCH_ACTIONS = [uploadModule, filerevertModule, imagerotateModule, watchModule, optionsModule, tagModule, managetagsModule];
const LIFECYCLE_ACTIONS = [
  deleteModule,
  undeleteModule,
  protectModule,
  moveModule,
  rollbackModule,
  purgeModule,
  patrolModule,
  revisiondeleteModule,
  changecontentmodelModule,
  mergehistoryModule,
  setpagelanguageModule,
  stasheditModule,
  importModule,
];

const SUBMODULE_GROUPS: readonly ModuleGroup[] = ['prop', 'list', 'meta'];

/** ApiBase::getFinalParams: modules that need a token get the required `token` parameter. */
function withTokenParam(decl: ModuleDecl): ModuleDecl {
  const type = decl.flags.needsToken;
  if (!type || decl.params.token) return decl;
  const token: ParamDecl = {
    type: 'string',
    required: true,
    sensitive: true,
    // ApiMain::setupModule requires it in the POST body.
    mustBePosted: true,
    help: `A "${type}" token retrieved from action=query&meta=tokens`,
  };
  return { ...decl, params: { ...decl.params, token } };
}

/** The main module's parameters (ApiMain::getAllowedParams). */
function mainModuleDecl(actions: readonly string[], formats: readonly string[]): ModuleDecl {
  return {
    name: 'main',
    group: 'action',
    prefix: '',
    summary: 'The MediaWiki action API: one endpoint, the action parameter selects the module.',
    params: {
      action: { type: actions, default: 'help', submoduleGroup: 'action', help: 'Which action to perform.' },
      format: { type: formats, default: DEFAULT_FORMAT, submoduleGroup: 'format', help: 'The format of the output.' },
      maxlag: {
        type: 'integer',
        help: 'Maximum lag can be used when the wiki runs on a replicated database cluster. In case of excessive lag, error code maxlag is returned with a message like "Waiting for $host: $lag seconds lagged".',
      },
      smaxage: { type: 'integer', default: 0, help: 'Set the s-maxage HTTP cache control header to this many seconds. Errors are never cached.' },
      maxage: { type: 'integer', default: 0, help: 'Set the max-age HTTP cache control header to this many seconds. Errors are never cached.' },
      assert: {
        type: ['anon', 'user', 'bot'],
        help: 'Verify that the user is logged in if set to user, not logged in if set to anon, or has the bot user right if bot.',
      },
      assertuser: { type: 'user', userTypes: ['name'], help: 'Verify the current user is the named user.' },
      requestid: { type: 'string', help: 'Any value given here will be included in the response. May be used to distinguish requests.' },
      servedby: { type: 'boolean', help: 'Include the hostname that served the request in the results.' },
      curtimestamp: { type: 'boolean', help: 'Include the current timestamp in the result.' },
      responselanginfo: { type: 'boolean', help: 'Include the languages used for uselang and errorlang in the result.' },
      origin: {
        type: 'string',
        help: 'When accessing the API using a cross-domain AJAX request (CORS), set this to the originating domain; it must match the Origin header exactly. For non-authenticated requests, specify the value *.',
      },
      uselang: { type: 'string', default: 'user', help: 'Language to use for message translations: a language code, user or content.' },
      variant: { type: 'string', help: 'Variant of the language. Only works if the base language supports variant conversion.' },
      errorformat: { type: ERROR_FORMATS, default: 'bc', help: 'Format to use for warning and error text output.' },
      errorlang: { type: 'string', default: 'uselang', help: 'Language to use for warnings and errors: a language code, content or uselang.' },
      errorsuselocal: { type: 'boolean', help: 'If given, error texts will use locally-customized messages from the MediaWiki namespace.' },
    },
    flags: { readRights: false },
    examples: { 'action=help': 'Help for the main module.', 'action=help&recursivesubmodules=1': 'All help in one page.' },
    async execute() {
      // The main module is the pipeline itself (action/main.ts).
    },
  };
}

export interface RegistryContents {
  actions: readonly ModuleDecl[];
  submodules: readonly ModuleDecl[];
  formats: readonly FormatModuleDecl[];
}

export class ModuleRegistry implements ModuleLookup {
  readonly main: ModuleDecl;
  private readonly groups = new Map<ModuleGroup, ModuleDecl[]>();
  private readonly formatDecls = new Map<string, FormatModuleDecl>();

  constructor(readonly contents: RegistryContents) {
    for (const m of [...contents.actions, ...contents.submodules]) {
      const list = this.groups.get(m.group) ?? [];
      list.push(withTokenParam(m));
      this.groups.set(m.group, list);
    }
    for (const f of contents.formats) this.formatDecls.set(f.name, f);
    this.groups.set('format', [...contents.formats]);
    this.main = mainModuleDecl(
      contents.actions.map((m) => m.name),
      contents.formats.map((f) => f.name),
    );
  }

  /** A registry with more modules (tests register fixture modules this way). */
  with(...extra: ModuleDecl[]): ModuleRegistry {
    return new ModuleRegistry({
      actions: [...this.contents.actions, ...extra.filter((m) => m.group === 'action')],
      submodules: [...this.contents.submodules, ...extra.filter((m) => SUBMODULE_GROUPS.includes(m.group))],
      formats: this.contents.formats,
    });
  }

  modules(group: ModuleGroup): readonly ModuleDecl[] {
    return this.groups.get(group) ?? [];
  }

  get(group: ModuleGroup, name: string): ModuleDecl | undefined {
    return this.modules(group).find((m) => m.name === name);
  }

  format(name: string): FormatModuleDecl | undefined {
    return this.formatDecls.get(name);
  }

  pathOf(module: ModuleDecl): string {
    return SUBMODULE_GROUPS.includes(module.group) ? `query+${module.name}` : module.name;
  }

  byPath(path: string): ModuleDecl | undefined {
    if (path === 'main') return this.main;
    const [first, sub, ...rest] = path.split('+');
    if (rest.length > 0 || first === undefined) return undefined;
    if (sub === undefined) return this.get('action', first) ?? this.format(first);
    if (first !== 'query') return undefined;
    return SUBMODULE_GROUPS.map((g) => this.get(g, sub)).find((m) => m !== undefined);
  }

  /** Every module, each with its path (main first). */
  all(): { path: string; module: ModuleDecl }[] {
    const out = [{ path: 'main', module: this.main }];
    for (const g of ['action', 'format', ...SUBMODULE_GROUPS] as ModuleGroup[]) {
      for (const m of this.modules(g)) out.push({ path: this.pathOf(m), module: m });
    }
    return out;
  }
}

export function createDefaultRegistry(): ModuleRegistry {
  return new ModuleRegistry({
    actions: [
      queryModule,
      editModule,
      compareModule,
      parseModule,
      expandtemplatesModule,
      opensearchModule,
      helpModule,
      paraminfoModule,
      ...AUTH_ACTIONS,
      ...LIFECYCLE_ACTIONS,
      ...FILE_AND_WATCH_ACTIONS,
      oathvalidateModule,
      clearhasmsgModule,
      rsdModule,
      feedcontributionsModule,
      linkaccountModule,
      unlinkaccountModule,
      removeauthenticationdataModule,
      changeauthenticationdataModule,
      resetpasswordModule,
      emailuserModule,
      feedwatchlistModule,
      feedrecentchangesModule,
      setnotificationtimestampModule,
      cspreportModule,
    ],
    submodules: querySubmodules,
    formats: formatModules,
  });
}
