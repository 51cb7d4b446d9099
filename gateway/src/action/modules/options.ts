/*
 * action=options (MediaWiki's ApiOptions): changes or resets the caller's preferences, which the
 * auth service keeps (users.options overrides of $wgDefaultUserOptions).
 */
import { ApiUsageError } from '../types.js';
import { DEFAULT_USER_OPTIONS } from '../query/userinfo.js';
import { SKINS } from '../query/siteinfo-props.js';
import { apiError } from './support.js';
import { defineModule } from '../define.js';

/** Preferences with a closed set of values (the rest take any string, as MediaWiki's text/int fields). */
const CHOICES: Record<string, readonly string[]> = {
  skin: Object.keys(SKINS),
  gender: ['male', 'female', 'unknown'],
  editfont: ['monospace', 'sans-serif', 'serif'],
  date: ['default', 'mdy', 'dmy', 'ymd', 'ISO 8601'],
};

/** Why a value is refused for an option, or undefined when it is accepted (ApiOptions::execute's validation). */
function validationError(name: string, value: string | undefined): string | undefined {
  if (name.startsWith('userjs-')) return undefined; // scripts' own options are free-form
  if (!(name in DEFAULT_USER_OPTIONS)) return 'not a valid preference.';
  if (value === undefined) return undefined;
  const choices = CHOICES[name];
  if (choices && !choices.includes(value)) return 'The value you specified is not a valid option.';
  const def = DEFAULT_USER_OPTIONS[name];
  if ((typeof def === 'number' || typeof def === 'boolean') && !/^-?\d+$/.test(value) && value !== 'true' && value !== 'false') {
    return 'The value you specified is not a valid option.';
  }
  return undefined;
}

export const optionsModule = defineModule({
  name: 'options',
  group: 'action',
  prefix: '',
  summary: 'Change preferences of the current user.',
  params: {
    reset: { type: 'boolean', default: false, help: 'Resets preferences to the site defaults.' },
    resetkinds: {
      type: ['all', 'registered', 'registered-checkmatrix', 'registered-multiselect', 'special', 'unused', 'userjs'],
      multi: true,
      default: 'all',
      help: 'List of types of options to reset when the reset option is set.',
    },
    change: {
      type: 'string',
      multi: true,
      help: 'List of changes, formatted name=value (e.g. skin=vector). If no value is given (not even an equals sign), e.g., optionname|otheroption|..., the option will be reset to its default value.',
    },
    optionname: { type: 'string', help: 'The name of the option that should be set to the value given by optionvalue.' },
    optionvalue: { type: 'string', help: 'The value for the option specified by optionname. When optionname is set but optionvalue is omitted, the option will be reset to its default value.' },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=options&reset=&token=123ABC': 'Reset all preferences.',
    'action=options&change=skin=vector|hideminor=1&token=123ABC': 'Change skin and hideminor preferences.',
  },
  async execute(ctx) {
    const p = ctx.params;
    const user = ctx.caller.user;
    if (user.anonymous || user.id === 0) throw new ApiUsageError('notloggedin', 'Anonymous users cannot change preferences.');
    if (!user.rights.includes('editmyoptions')) throw apiError('permissiondenied', 'apierror-permissiondenied', ['edit your own user preferences']);
    const changes: [string, string | undefined][] = [];
    for (const entry of p.change ?? []) {
      const eq = entry.indexOf('=');
      changes.push(eq < 0 ? [entry, undefined] : [entry.slice(0, eq), entry.slice(eq + 1)]);
    }
    if (typeof p.optionname === 'string') changes.push([p.optionname, p.optionvalue]);
    const reset = p.reset;
    if (!reset && changes.length === 0) throw new ApiUsageError('nochanges', 'No changes were requested.');
    const set: Record<string, string> = {};
    const unset: string[] = [];
    for (const [name, value] of changes) {
      const why = validationError(name, value);
      if (why) {
        ctx.addWarning('options', {
          code: 'validationerror',
          key: 'apiwarn-validationfailed',
          params: [name, why],
          text: `Validation error for "${name}": ${why}`,
          wikitext: `Validation error for <kbd>${name}</kbd>: ${why}`,
        });
        continue;
      }
      if (value === undefined) unset.push(name);
      else set[name] = value;
    }
    await ctx.deps.clients.auth.changeOptions({ userId: user.id, reset, set, unset });
    ctx.result.options = 'success';
  },
});
