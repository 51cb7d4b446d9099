/* action=validatepassword (MediaWiki's ApiValidatePassword): the password policy's verdict. */
import { setIndexedTagName, type ResultObject } from '../types.js';
import { apiError } from './support.js';
import { defineModule } from '../define.js';

export const validatepasswordModule = defineModule({
  name: 'validatepassword',
  group: 'action',
  prefix: '',
  summary: "Validate a password against the wiki's password policies.",
  params: {
    password: { type: 'password', required: true, sensitive: true, mustBePosted: true, help: 'Password to validate.' },
    user: { type: 'user', userTypes: ['name'], help: 'User name, for use when testing account creation. The named user must not exist.' },
    email: { type: 'string', help: 'Email address, for use when testing account creation.' },
    realname: { type: 'string', help: 'Real name, for use when testing account creation.' },
  },
  flags: { mustBePosted: true },
  examples: { 'action=validatepassword&password=foobar': 'Validate the password foobar for the current user.' },
  async execute(ctx) {
    const p = ctx.params;
    const { auth } = ctx.deps.clients;
    let name = ctx.caller.user.name;
    if (typeof p.user === 'string') {
      const raw = ctx.raw.get('user') ?? p.user;
      const found = await auth.getUsers({ names: [p.user] });
      // RIGOR_CREATABLE: no "@", ":" or ">" either.
      if (found.invalidNames.length || /[@:>]/.test(p.user)) throw apiError('baduser_user', 'apierror-baduser', ['user', raw]);
      if (found.users.length) throw apiError('userexists', 'userexists');
      name = p.user;
    }
    const r = await auth.validatePassword({ username: name, password: p.password, email: p.email ?? '', realname: p.realname ?? '' });
    const out: ResultObject = { validity: r.validity };
    if (r.messages.length) {
      out.validitymessages = setIndexedTagName(
        r.messages.map((m) => ({ message: m.key, params: setIndexedTagName([...m.params], 'param'), code: m.key, type: 'error' })),
        'message',
      );
    }
    ctx.result.validatepassword = out;
  },
});
