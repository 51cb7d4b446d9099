/* meta=tokens (MediaWiki's ApiQueryTokens). */
import { TOKEN_TYPES, setArrayType, type ResultObject } from '../types.js';
import { message } from '../errors.js';
import { modulePath, queryRunOf } from './run.js';
import { defineModule } from '../define.js';

export const TOKENS_ORIGIN_WARNING = 'Tokens may not be obtained when the same-origin policy is not applied.';

/** ApiMain::lacksSameOriginSecurity as far as parameters tell: JSONP or anonymous CORS. */
export function lacksSameOriginSecurity(raw: ReadonlyMap<string, string>): boolean {
  return raw.has('callback') || raw.get('origin') === '*';
}

/** `{ csrftoken: …, … }` in the requested order. */
export function tokensResult(types: readonly string[], tokens: Record<string, string>): ResultObject {
  const out: ResultObject = {};
  for (const type of types) {
    const token = tokens[type];
    if (token !== undefined) out[`${type}token`] = token;
  }
  return setArrayType(out, 'assoc');
}

export const tokensModule = defineModule({
  name: 'tokens',
  group: 'meta',
  prefix: '',
  summary: 'Gets tokens for data-modifying actions.',
  params: {
    type: { type: TOKEN_TYPES, multi: true, allowAll: true, default: 'csrf', help: 'Types of token to request.' },
  },
  // Login tokens must be obtainable on wikis without public read access.
  flags: { readRights: false },
  examples: {
    'action=query&meta=tokens': 'Retrieve a csrf token (the default).',
    'action=query&meta=tokens&type=watch|patrol': 'Retrieve a watch token and a patrol token.',
  },
  async execute(ctx, query) {
    const run = queryRunOf(query);
    if (lacksSameOriginSecurity(ctx.raw)) {
      ctx.addWarning(modulePath(ctx.module), message('tokens-origin', 'apiwarn-tokens-origin'));
      return;
    }
    const types = ctx.params.type ?? ['csrf'];
    let tokens: Record<string, string> = {};
    if (types.length) {
      // Login and createaccount tokens need a session: one is created and its cookie set.
      const r = await ctx.deps.clients.auth.getTokensWithSession(ctx.caller.sessionId, types);
      if (r.newSessionId) ctx.caller.cookies?.set(r.newSessionId);
      tokens = r.tokens;
    }
    run.data.tokens = tokensResult(types, tokens);
  },
});
