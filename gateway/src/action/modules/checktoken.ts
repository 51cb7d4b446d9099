/* action=checktoken (MediaWiki's ApiCheckToken). */
import { TOKEN_TYPES, type ResultObject } from '../types.js';
import { defineModule } from '../define.js';

export const checktokenModule = defineModule({
  name: 'checktoken',
  group: 'action',
  prefix: '',
  summary: 'Check the validity of a token from action=query&meta=tokens.',
  params: {
    type: { type: TOKEN_TYPES, required: true, help: 'Type of token being tested.' },
    token: { type: 'string', required: true, sensitive: true, help: 'Token to test.' },
    maxtokenage: { type: 'integer', help: 'Maximum allowed age of the token, in seconds.' },
  },
  flags: {},
  examples: { 'action=checktoken&type=csrf&token=123ABC': 'Test the validity of a csrf token.' },
  async execute(ctx) {
    const { type, token, maxtokenage } = ctx.params;
    const r = await ctx.deps.clients.auth.checkToken(ctx.caller.sessionId, String(type), String(token));
    const out: ResultObject = {};
    if (!r.valid) out.result = 'invalid';
    else if (typeof maxtokenage === 'number' && r.generated > 0 && Date.now() / 1000 - r.generated > maxtokenage) out.result = 'expired';
    else out.result = 'valid';
    if (r.generated > 0) out.generated = new Date(r.generated * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    ctx.result.checktoken = out;
  },
});
