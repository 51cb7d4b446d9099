/* English texts of the messages the auth service returns (languages/i18n/en.json, OATHAuth's en.json). */
import type { Message } from '@quire/proto/wiki/auth/v1/auth';

const TEXTS: Record<string, string> = {
  wrongpassword: 'Incorrect username or password entered.\nPlease try again.',
  wrongpasswordempty: 'Password entered was blank.\nPlease try again.',
  noname: 'You have not specified a valid username.',
  userexists: 'Username entered already in use.\nPlease choose a different name.',
  'login-throttled': 'You have made too many recent login attempts.\nPlease wait $1 before trying again.',
  acct_creation_throttle_hit:
    'Visitors to this wiki using your IP address have created {{PLURAL:$1|1 account|$1 accounts}} in the last $2, which is the maximum allowed in this time period.\nAs a result, visitors using this IP address cannot create any more accounts at the moment.',
  'authmanager-authn-not-in-progress': 'Authentication is not in progress or session data has been lost. Please start again from the beginning.',
  'authpage-cannot-login-continue': 'Unable to continue login. Your session most likely timed out.',
  'oathauth-auth-ui': 'Please enter a code from your two-factor authentication application (such as Google Authenticator).',
  'oathauth-login-failed': 'Verification failed.',
  'api-login-fail-aborted':
    'Authentication requires user interaction, which is not supported by <kbd>action=login</kbd>. To be able to login with <kbd>action=login</kbd>, see [[Special:BotPasswords]]. To continue using main-account login, see <kbd>[[Special:ApiHelp/clientlogin|action=clientlogin]]</kbd>.',
  passwordtooshort: 'Passwords must be at least {{PLURAL:$1|1 character|$1 characters}}.',
  passwordtoolong: 'Passwords cannot be longer than {{PLURAL:$1|1 character|$1 characters}}.',
  passwordincommonlist: 'The password entered is in a list of very commonly used passwords. Please choose a more unique password.',
  'password-substring-username-match': 'Your password must not appear within your username.',
  'password-login-forbidden': 'The use of this username and password has been forbidden.',
  'cantcreateaccount-text': 'Account creation from this IP address (<strong>$1</strong>) has been blocked by [[User:$3|$3]].\n\nThe reason given by $3 is <em>$2</em>',
  'botpasswords-insert-failed': 'Failed to add bot name "$1". Was it already added?',
  'botpasswords-not-exist': 'User "$1" does not have a bot password named "$2".',
  'botpasswords-bad-appid': 'The bot name "$1" is not valid.',
};

/** Durations as MediaWiki's Language::formatDuration writes them ("5 minutes", "2 days"). */
export function formatDuration(seconds: number): string {
  const units: [number, string][] = [
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  for (const [size, name] of units) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${name}${n === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} seconds`;
}

export function msg(key: string, params: (string | number)[] = []): Message {
  const template = TEXTS[key] ?? key;
  const text = template
    .replace(/\{\{PLURAL:\$(\d+)\|([^|}]*)\|([^}]*)\}\}/g, (_m, n: string, one: string, other: string) => (Number(params[Number(n) - 1]) === 1 ? one : other))
    .replace(/\$(\d+)/g, (m, n: string) => String(params[Number(n) - 1] ?? m));
  return { key, text, params: params.map(String) };
}
