/*
 * /w/rest.php/oauth2/*: the OAuth extension's OAuth 2.0 REST endpoints.
 *  - GET authorize: checks the client's request and sends the user to the consent page
 *    (Special:OAuth/authorize, which asks anonymous visitors to log in first);
 *  - POST access_token: authorization_code (PKCE), refresh_token, client_credentials; the client
 *    authenticates with client_id/client_secret in the body or HTTP Basic;
 *  - GET resource/profile: the user behind a Bearer token.
 * Errors are league/oauth2-server's: {error, error_description, message[, hint]} with 400 or 401.
 */
import express, { type Request, type Response } from 'express';
import { GrpcStatus, ServiceError } from '@quire/kit';
import type { GatewayDeps } from '../context.js';
import { clientAddress } from '../client-ip.js';
import { articlePath } from '../pages/paths.js';
import { OAuthNotApiError } from '../caller.js';
import { oauthCredentials } from './verify.js';

function sendOAuth2Error(res: Response, deps: GatewayDeps, e: unknown): void {
  if (e instanceof ServiceError && e.grpcCode !== GrpcStatus.INTERNAL && e.grpcCode !== GrpcStatus.UNAVAILABLE && e.grpcCode !== GrpcStatus.DEADLINE_EXCEEDED) {
    const api = (e.data.api as Record<string, unknown> | undefined) ?? { error: e.mwCode, error_description: e.message, message: e.message };
    const status = e.grpcCode === GrpcStatus.UNAUTHENTICATED ? 401 : e.grpcCode === GrpcStatus.PERMISSION_DENIED ? 403 : 400;
    if (status === 401) res.set('WWW-Authenticate', 'Bearer realm="OAuth"');
    res.status(status).set('Cache-Control', 'no-store').json(api);
    return;
  }
  const unavailable = e instanceof ServiceError && (e.grpcCode === GrpcStatus.UNAVAILABLE || e.grpcCode === GrpcStatus.DEADLINE_EXCEEDED);
  if (!unavailable) deps.log.error({ err: e }, 'OAuth 2.0 endpoint failed');
  res.status(unavailable ? 503 : 500).json({
    error: 'server_error',
    error_description: 'The authorization server encountered an unexpected condition which prevented it from fulfilling the request.',
    message: 'The authorization server encountered an unexpected condition which prevented it from fulfilling the request.',
  });
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** client_id and client_secret from HTTP Basic (RFC 6749 2.3.1), else from the body. */
function clientCredentials(req: Request, body: Record<string, unknown>): { clientId: string; clientSecret: string } {
  const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return { clientId: decodeURIComponent(decoded.slice(0, colon)), clientSecret: decodeURIComponent(decoded.slice(colon + 1)) };
  }
  return { clientId: str(body.client_id), clientSecret: str(body.client_secret) };
}

export function createOAuth2Router(deps: GatewayDeps): express.Router {
  const router = express.Router();
  const oauth = deps.clients.oauth;
  const noStore = (res: Response) => res.set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });

  router.get('/authorize', async (req, res) => {
    noStore(res);
    // The way to the consent page, a web page: OAuth credentials are the API's only.
    if (oauthCredentials(req)) {
      const e = new OAuthNotApiError();
      return res.status(400).json({ error: e.code, error_description: e.message, message: e.message });
    }
    const q = (n: string) => str(req.query[n]);
    try {
      await oauth.authorizeOAuth2({
        userId: 0,
        clientId: q('client_id'),
        redirectUri: q('redirect_uri'),
        scope: q('scope'),
        codeChallenge: q('code_challenge'),
        codeChallengeMethod: q('code_challenge_method'),
        responseType: q('response_type'),
      });
    } catch (e) {
      return sendOAuth2Error(res, deps, e);
    }
    const forward = new URLSearchParams();
    for (const n of ['client_id', 'response_type', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method']) if (q(n)) forward.set(n, q(n));
    res.redirect(302, articlePath('Special:OAuth/authorize', forward));
  });

  const parseBody = [express.urlencoded({ extended: false, limit: '16kb' }), express.json({ limit: '16kb' })];
  router.post('/access_token', ...parseBody, async (req, res) => {
    noStore(res);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const { clientId, clientSecret } = clientCredentials(req, body);
    try {
      const t = await oauth.issueOAuth2Token({
        grantType: str(body.grant_type),
        clientId,
        clientSecret,
        code: str(body.code),
        redirectUri: str(body.redirect_uri),
        codeVerifier: str(body.code_verifier),
        refreshToken: str(body.refresh_token),
      });
      res.status(200).json({ token_type: t.tokenType, expires_in: t.expiresIn, access_token: t.accessToken, ...(t.refreshToken ? { refresh_token: t.refreshToken } : {}) });
    } catch (e) {
      sendOAuth2Error(res, deps, e);
    }
  });

  router.get('/resource/profile', async (req, res) => {
    noStore(res);
    const creds = oauthCredentials(req);
    if (creds?.kind !== 'bearer') {
      res.set('WWW-Authenticate', 'Bearer realm="OAuth"');
      res.status(401).json({
        error: 'access_denied',
        error_description: 'The resource owner or authorization server denied the request.',
        message: 'The resource owner or authorization server denied the request.',
        hint: 'Missing "Authorization" header',
      });
      return;
    }
    try {
      const r = await oauth.resolveOAuthRequest({ bearerToken: creds.token, ip: clientAddress(req, deps.config.isTrustedProxy), withProfile: true });
      res.status(200).type('application/json').send(r.profileJson);
    } catch (e) {
      sendOAuth2Error(res, deps, e);
    }
  });

  // A body that cannot be read (bad JSON, too large): the client's mistake, in league's format.
  router.use((err: unknown, _req: Request, res: Response, next: express.NextFunction) => {
    if (res.headersSent) return next(err);
    const status = (err as { status?: unknown }).status;
    const code = typeof status === 'number' && status >= 400 && status < 500 ? status : 400;
    const description = 'The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed.';
    res.status(code).set('Cache-Control', 'no-store').json({ error: 'invalid_request', error_description: description, message: description, hint: 'The request body could not be read' });
  });

  router.all(['/authorize', '/access_token', '/resource/profile'], (req, res) => {
    res
      .set('Allow', req.path === '/access_token' ? 'POST' : 'GET, HEAD')
      .status(405)
      .json({ messageTranslations: { en: `Method ${req.method} is not allowed.` }, httpCode: 405, httpReason: 'Method Not Allowed' });
  });
  return router;
}
