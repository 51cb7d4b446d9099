/*
 * action=resetpassword and action=emailuser (MediaWiki's ApiResetPassword, ApiEmailUser). Quire
 * sends no mail (there is no MAIL_URL setting yet), so it answers as MediaWiki does with
 * $wgEnableEmail = false: a password reset is refused with passwordreset-emaildisabled, and an
 * email to a user with usermaildisabled once the target itself is valid (notarget, noemail and
 * nowikiemail come first, as SpecialEmailUser::getTarget checks them before the sender).
 */
import { usageError } from '../errors.js';
import { defineModule } from '../define.js';

export const resetpasswordModule = defineModule({
  name: 'resetpassword',
  group: 'action',
  prefix: '',
  summary: 'Send a password reset email to a user.',
  params: {
    user: { type: 'user', userTypes: ['name'], help: 'User being reset.' },
    email: { type: 'string', help: 'Email address of the user being reset.' },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: {
    'action=resetpassword&user=Example&token=123ABC': 'Send a password reset email to user <kbd>Example</kbd>.',
    'action=resetpassword&user=Example&email=user@example.com&token=123ABC': 'Send a password reset email for all users with email address <kbd>user@example.com</kbd>.',
  },
  async execute() {
    // PasswordReset::isAllowed, checked before the user and email parameters are looked at.
    throw usageError('passwordreset-emaildisabled', 'passwordreset-emaildisabled');
  },
});

export const emailuserModule = defineModule({
  name: 'emailuser',
  group: 'action',
  prefix: '',
  summary: 'Email a user.',
  params: {
    target: { type: 'string', required: true, help: 'User to send the email to.' },
    subject: { type: 'string', required: true, help: 'Subject header.' },
    text: { type: 'text', required: true, help: 'Email body.' },
    ccme: { type: 'boolean', default: false, help: 'Send a copy of this mail to me.' },
  },
  flags: { mustBePosted: true, needsToken: 'csrf', writeMode: true },
  examples: { 'action=emailuser&target=WikiSysop&text=Content&token=123ABC': 'Send an email to the user <kbd>WikiSysop</kbd> with the text <kbd>Content</kbd>.' },
  async execute(ctx) {
    const target = ctx.params.target;
    const notarget = () => usageError('notarget', 'apierror-notarget');
    if (target === '') throw notarget();
    const found = await ctx.deps.clients.auth.getUsers({ names: [target] });
    const user = found.users[0];
    if (!user?.user) throw notarget();
    // User::isEmailConfirmed ($wgEmailAuthentication): an authenticated address.
    if (user.email === '' || user.emailAuthenticated === '') throw usageError('noemail', 'noemail', [target]);
    const options = JSON.parse(user.optionsJson || '{}') as Record<string, unknown>;
    if (options.disablemail === true || options.disablemail === 1 || options.disablemail === '1') throw usageError('nowikiemail', 'nowikiemailtext');
    // SpecialEmailUser::getPermissionsError: email is disabled on this wiki.
    throw usageError('usermaildisabled', 'usermaildisabled');
  },
});
