/*
 * The OAuth extension's special pages, server-rendered like Special:BotPasswords:
 *  - Special:OAuth/initiate|token|identify: the OAuth 1.0a endpoints (signed requests; plain
 *    `oauth_token=…` answers, or JSON with format=json; identify answers a JWT);
 *  - Special:OAuth/authorize|authenticate: the consent page of both OAuth 1.0a (oauth_token,
 *    oauth_consumer_key) and OAuth 2.0 (client_id, response_type, … forwarded by
 *    /rest.php/oauth2/authorize);
 *  - Special:OAuthConsumerRegistration/propose|list|update/<key>, Special:OAuthManageConsumers[/<stage>],
 *    Special:OAuthManageMyGrants.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { GrpcStatus, ServiceError } from '@quire/kit';
import { ConsumerStage, type Consumer } from '../clients/types.js';
import { ARTICLE_PATH, SCRIPT_PATH } from '../config.js';
import { clientAddress } from '../client-ip.js';
import type { GatewayDeps } from '../context.js';
import { OAuthNotApiError, resolvePageCaller } from '../caller.js';
import { grantCheckboxes } from '../pages/botpasswords.js';
import { GRANT_LABELS, grantsFromForm } from '../pages/grants.js';
import { hidden, html, messageBox, SafeHtml } from '../pages/html.js';
import { articlePath } from '../pages/paths.js';
import { lacksRight } from '../pages/wiki.js';
import { anonymousCaller, csrfToken, field, fields, param, redirect, send, SESSION_FAILURE, validCsrf, type PageRequest } from '../pages/request.js';
import { oauthCredentials, signedRequest } from './verify.js';

const PAGES = ['OAuth', 'OAuthConsumerRegistration', 'OAuthManageConsumers', 'OAuthManageMyGrants'] as const;
type OAuthPage = (typeof PAGES)[number];

const AUTH_ONLY = ['mwoauth-authonly', 'mwoauth-authonlyprivate'];
const STAGE_NAMES: Record<number, string> = { 0: 'proposed', 1: 'approved', 2: 'rejected', 3: 'expired', 4: 'disabled' };
const GRANT_TEXT: Record<string, string> = {
  ...GRANT_LABELS,
  'mwoauth-authonly': 'User identity verification only, no ability to read pages or act on a user’s behalf.',
  'mwoauth-authonlyprivate': 'User identity verification only, with access to real name and email address.',
};

function oauthTitle(title: string | null): { page: OAuthPage; subpage: string } | null {
  if (title === null) return null;
  const m = /^special:\s*([^/]+)(?:\/(.*))?$/i.exec(title.trim().replace(/_/g, ' '));
  if (!m) return null;
  const name = m[1]!.replace(/ /g, '').toLowerCase();
  const page = PAGES.find((p) => p.toLowerCase() === name);
  return page ? { page, subpage: (m[2] ?? '').replace(/ /g, '_') } : null;
}

/** A parameter's value: the last one of a repeated parameter, as PHP's $_GET and $_POST keep it. */
function lastString(value: unknown): string | null {
  const last = [value].flat().at(-1);
  return typeof last === 'string' ? last : null;
}

function pathTitle(req: Request): string | null {
  const prefix = ARTICLE_PATH.replace('$1', '');
  if (req.path === `${SCRIPT_PATH}/index.php`) return lastString(req.query.title);
  if (!req.path.startsWith(prefix)) return null;
  try {
    return decodeURIComponent(req.path.slice(prefix.length));
  } catch {
    return null;
  }
}

function pagePath(page: OAuthPage, subpage?: string): string {
  return articlePath(`Special:${page}${subpage ? `/${subpage}` : ''}`);
}

/** The message of a service error for a page (its own text for client mistakes). */
function errorText(e: unknown): string {
  if (e instanceof ServiceError && e.grpcCode !== GrpcStatus.INTERNAL && e.grpcCode !== GrpcStatus.UNAVAILABLE) return e.message;
  throw e;
}

function loginRedirect(p: PageRequest, returnTo: string): void {
  const query = new URLSearchParams(p.req.query as Record<string, string>);
  query.delete('title');
  const q = new URLSearchParams({ title: 'Special:UserLogin', returnto: returnTo, returntoquery: query.toString() });
  redirect(p, `${SCRIPT_PATH}/index.php?${q}`);
}

// ---------------------------------------------------------------- Special:OAuth (1.0a endpoints)

/** SpecialMWOAuth's answers: JSON with format=json, else the form-encoded OAuth response. */
function sendCredentials(p: PageRequest, json: Record<string, string>, form: Record<string, string>): void {
  p.res.set('Cache-Control', 'private, no-store');
  if (param(p, 'format') === 'json') p.res.status(200).json(json);
  else p.res.status(200).type('text/plain').send(new URLSearchParams(form).toString());
}

function sendOAuthError(p: PageRequest, e: unknown): void {
  const text = errorText(e);
  const code = e instanceof ServiceError ? e.mwCode : 'mwoauth-oauth-exception';
  p.res.set('Cache-Control', 'private, no-store');
  if (param(p, 'format') === 'json') p.res.status(400).json({ error: code, message: text });
  else p.res.status(400).type('text/plain').send(`Error: ${text}`);
}

async function oauthEndpoint(p: PageRequest, step: 'initiate' | 'token' | 'identify'): Promise<void> {
  const creds = oauthCredentials(p.req);
  const headerParams = creds?.kind === 'oauth1' ? creds.headerParams : [];
  // Every value of a repeated field (the parser gives those as an array).
  const form = Object.entries((p.req.body ?? {}) as Record<string, unknown>).flatMap(([name, v]) => [v].flat().flatMap((value) => (typeof value === 'string' ? [[name, value] as const] : [])));
  const signed = signedRequest(p.req, p.deps, p.caller.ip, headerParams, form);
  const oauth = p.deps.clients.oauth;
  try {
    if (step === 'initiate') {
      const t = await oauth.initiateOAuth1(signed);
      return sendCredentials(p, { key: t.key, secret: t.secret, oauth_callback_confirmed: 'true' }, { oauth_token: t.key, oauth_token_secret: t.secret, oauth_callback_confirmed: 'true' });
    }
    if (step === 'token') {
      const t = await oauth.exchangeOAuth1(signed);
      return sendCredentials(p, { key: t.key, secret: t.secret }, { oauth_token: t.key, oauth_token_secret: t.secret });
    }
    const jwt = await oauth.identifyOAuth1(signed);
    p.res.set('Cache-Control', 'private, no-store');
    p.res.status(200).type('application/jwt').send(jwt);
  } catch (e) {
    sendOAuthError(p, e);
  }
}

// ---------------------------------------------------------------- consent (1.0a and 2.0)

const OAUTH2_PARAMS = ['client_id', 'response_type', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

function grantList(grants: readonly string[]): SafeHtml {
  return html`<ul>${grants.map((g) => html`<li>${GRANT_TEXT[g] ?? g} <code>${g}</code></li>`)}</ul>`;
}

function originOf(url: string): string[] {
  try {
    const u = new URL(url);
    return u.origin === 'null' ? [] : [u.origin];
  } catch {
    return [];
  }
}

async function consentPage(p: PageRequest): Promise<void> {
  if (p.caller.user.anonymous) return loginRedirect(p, `Special:OAuth/${p.subpage || 'authorize'}`);
  const oauth = p.deps.clients.oauth;
  const isOAuth2 = param(p, 'client_id') !== '';
  let consumer: Consumer;
  let redirectTarget = '';
  let grants: string[];
  try {
    if (isOAuth2) {
      const r = await oauth.authorizeOAuth2({
        userId: 0,
        clientId: param(p, 'client_id'),
        redirectUri: param(p, 'redirect_uri'),
        scope: param(p, 'scope'),
        codeChallenge: param(p, 'code_challenge'),
        codeChallengeMethod: param(p, 'code_challenge_method'),
        responseType: param(p, 'response_type'),
      });
      consumer = r.consumer!;
      redirectTarget = r.redirectUri;
      const asked = param(p, 'scope')
        .split(/[\s,]+/)
        .filter(Boolean);
      grants = asked.length ? consumer.grants.filter((g) => g === 'basic' || asked.includes(g)) : consumer.grants;
    } else {
      consumer = await oauth.describeRequestToken(param(p, 'oauth_consumer_key'), param(p, 'oauth_token'));
      redirectTarget = consumer.callbackUrl;
      grants = consumer.grants;
    }
  } catch (e) {
    return send(p, { title: 'OAuth error', status: 400, body: messageBox('error', `An error occurred in the OAuth protocol: ${errorText(e)}`) });
  }

  // SpecialMWOAuth: "authenticate" of an identification-only consumer the user already
  // authorized with the same grants goes straight back to the app.
  if (!isOAuth2 && p.subpage === 'authenticate' && p.method === 'GET' && consumer.grants.every((g) => AUTH_ONLY.includes(g))) {
    const existing = (await oauth.listAuthorizations(p.caller.user.id)).find((a) => a.consumer?.key === consumer.key);
    if (existing?.grants.every((g) => consumer.grants.includes(g))) {
      const r = await oauth.authorizeOAuth1({ userId: p.caller.user.id, consumerKey: consumer.key, requestToken: param(p, 'oauth_token'), approve: true });
      return redirect(p, r.callbackUrl);
    }
  }

  if (p.method === 'POST') {
    if (!(await validCsrf(p))) return send(p, { title: 'OAuth error', status: 400, body: messageBox('error', SESSION_FAILURE) });
    const approve = field(p, 'wpAllow') !== '';
    try {
      if (isOAuth2) {
        const target = new URL(redirectTarget);
        if (approve) {
          const r = await oauth.authorizeOAuth2({
            userId: p.caller.user.id,
            approve: true,
            clientId: param(p, 'client_id'),
            redirectUri: param(p, 'redirect_uri'),
            scope: param(p, 'scope'),
            codeChallenge: param(p, 'code_challenge'),
            codeChallengeMethod: param(p, 'code_challenge_method'),
            responseType: param(p, 'response_type'),
          });
          target.searchParams.set('code', r.code);
        } else {
          target.searchParams.set('error', 'access_denied');
          target.searchParams.set('error_description', 'The resource owner or authorization server denied the request.');
        }
        if (param(p, 'state')) target.searchParams.set('state', param(p, 'state'));
        return redirect(p, target.toString());
      }
      const r = await oauth.authorizeOAuth1({ userId: p.caller.user.id, consumerKey: consumer.key, requestToken: param(p, 'oauth_token'), approve });
      if (!approve) return send(p, { title: 'Request cancelled', body: messageBox('notice', `You have cancelled the request to connect "${consumer.name}" to your account.`) });
      return redirect(p, r.callbackUrl);
    } catch (e) {
      return send(p, { title: 'OAuth error', status: 400, body: messageBox('error', `An error occurred in the OAuth protocol: ${errorText(e)}`) });
    }
  }

  const keep = isOAuth2 ? OAUTH2_PARAMS.map((n) => hidden(n, param(p, n))) : [hidden('oauth_token', param(p, 'oauth_token')), hidden('oauth_consumer_key', param(p, 'oauth_consumer_key'))];
  const body = html`<p>Hi ${p.caller.user.name},</p>
<p><strong>${consumer.name}</strong> (version ${consumer.version}, by ${consumer.ownerName}) would like to:</p>
${grantList(grants)}
${consumer.description ? html`<p class="description">${consumer.description}</p>` : ''}
${consumer.stage === ConsumerStage.CONSUMER_STAGE_PROPOSED ? messageBox('warning', 'This application has not been approved yet; only its owner can use it.') : ''}
<form method="post" action="${pagePath('OAuth', p.subpage || 'authorize')}">
${keep}${hidden('wpEditToken', await csrfToken(p))}
<button type="submit" name="wpAllow" value="1">Allow</button>
<button type="submit" name="wpCancel" value="1">Cancel</button>
</form>`;
  send(p, { title: 'Connect an application to your account', body, formActionOrigins: originOf(redirectTarget) });
}

async function oauthPage(p: PageRequest): Promise<void> {
  const step = (p.subpage ?? '').split('/')[0]!.toLowerCase();
  if (step === 'initiate' || step === 'token' || step === 'identify') return oauthEndpoint(p, step);
  if (step === 'authorize' || step === 'authenticate' || step === 'approve') return consentPage({ ...p, subpage: step });
  send(p, { title: 'OAuth', status: 404, body: messageBox('error', `Unknown OAuth action "${p.subpage}".`) });
}

// ---------------------------------------------------------------- consumer registration

function consumerRow(c: Consumer, link: boolean): SafeHtml {
  return html`<tr><td>${link ? html`<a href="${pagePath('OAuthConsumerRegistration', `update/${c.key}`)}">${c.name}</a>` : c.name}</td><td>${c.version}</td><td><code>${c.key}</code></td><td>${c.oauthVersion === 1 ? '1.0a' : '2.0'}</td><td>${STAGE_NAMES[c.stage] ?? c.stage}</td><td>${c.grants.join(', ')}</td><td>${c.ownerName}</td></tr>\n`;
}

function consumerTable(consumers: Consumer[], link: boolean): SafeHtml {
  if (!consumers.length) return html`<p>No consumers.</p>`;
  return html`<table class="wikitable"><tr><th>Name</th><th>Version</th><th>Key</th><th>OAuth</th><th>Stage</th><th>Grants</th><th>Owner</th></tr>
${consumers.map((c) => consumerRow(c, link))}</table>`;
}

function secretsBox(c: Consumer, secret: string, accessToken: string, accessSecret: string): SafeHtml {
  return messageBox(
    'success',
    html`<p>Your consumer "${c.name}" was ${c.stage === 1 ? 'registered and approved' : 'proposed'}. Keep these values: the secret is not shown again.</p>
<p>${c.oauthVersion === 1 ? 'Consumer token' : 'Client application key'}: <code>${c.key}</code><br>
${c.oauthVersion === 1 ? 'Consumer secret' : 'Client application secret'}: <code>${secret}</code>
${accessToken ? html`<br>Access token: <code>${accessToken}</code>` : ''}${accessSecret ? html`<br>Access secret: <code>${accessSecret}</code>` : ''}</p>`,
  );
}

async function proposeForm(p: PageRequest, error = ''): Promise<void> {
  const v = (n: string) => field(p, n);
  const body = html`${error ? messageBox('error', error) : ''}
<form method="post" action="${pagePath('OAuthConsumerRegistration', 'propose')}">
${hidden('wpEditToken', await csrfToken(p))}
<label class="field" for="wpname">Application name</label><input id="wpname" name="wpname" value="${v('wpname')}" required maxlength="128">
<label class="field" for="wpversion">Consumer version</label><input id="wpversion" name="wpversion" value="${v('wpversion') || '1.0'}" required maxlength="32">
<label class="field" for="wpdescription">Application description</label><textarea id="wpdescription" name="wpdescription">${v('wpdescription')}</textarea>
<label class="field"><input type="radio" name="wpoauthVersion" value="1"${v('wpoauthVersion') === '2' ? '' : new SafeHtml(' checked')}> OAuth 1.0a</label>
<label class="field"><input type="radio" name="wpoauthVersion" value="2"${v('wpoauthVersion') === '2' ? new SafeHtml(' checked') : ''}> OAuth 2.0</label>
<label class="field"><input type="checkbox" name="wpownerOnly" value="1"${v('wpownerOnly') ? new SafeHtml(' checked') : ''}> This consumer is for use only by ${p.caller.user.name}</label>
<label class="field" for="wpcallbackUrl">OAuth "callback" URL</label><input id="wpcallbackUrl" name="wpcallbackUrl" value="${v('wpcallbackUrl')}" type="url">
<label class="field"><input type="checkbox" name="wpcallbackIsPrefix" value="1"${v('wpcallbackIsPrefix') ? new SafeHtml(' checked') : ''}> Allow consumer to specify a callback in requests and use "callback" URL above as a required prefix</label>
<label class="field" for="wprsaKey">OAuth 1.0a: RSA public key (PEM), to sign with RSA-SHA1 instead of the secret</label><textarea id="wprsaKey" name="wprsaKey">${v('wprsaKey')}</textarea>
<label class="field"><input type="checkbox" name="wpoauth2IsPublic" value="1"${v('wpoauth2IsPublic') ? new SafeHtml(' checked') : ''}> OAuth 2.0: a public client (no secret; PKCE only)</label>
<label class="field" for="wpgranttype">Types of grants being requested</label>
<select id="wpgranttype" name="wpgranttype"><option value="normal">Request authorization for specific permissions</option><option value="authonly"${v('wpgranttype') === 'authonly' ? new SafeHtml(' selected') : ''}>User identity verification only, no ability to read pages or act on a user's behalf</option><option value="authonlyprivate"${v('wpgranttype') === 'authonlyprivate' ? new SafeHtml(' selected') : ''}>User identity verification only with access to real name and email address</option></select>
<p><strong>Applicable grants:</strong></p>
${grantCheckboxes(grantsFromForm(fields(p, 'wpgrants[]')))}
<button type="submit">Propose consumer</button>
</form>`;
  send(p, { title: 'Propose an OAuth consumer', body, status: error ? 400 : 200 });
}

async function registrationPage(p: PageRequest): Promise<void> {
  if (p.caller.user.anonymous) return loginRedirect(p, `Special:OAuthConsumerRegistration${p.subpage ? `/${p.subpage}` : ''}`);
  const oauth = p.deps.clients.oauth;
  const [action, key = ''] = (p.subpage ?? '').split('/');
  if (action === 'propose') {
    if (lacksRight(p, 'mwoauthproposeconsumer', 'propose new OAuth consumers')) return;
    if (p.method === 'GET') return proposeForm(p);
    if (!(await validCsrf(p))) return proposeForm(p, SESSION_FAILURE);
    try {
      const r = await oauth.proposeConsumer({
        userId: p.caller.user.id,
        name: field(p, 'wpname'),
        version: field(p, 'wpversion'),
        description: field(p, 'wpdescription'),
        callbackUrl: field(p, 'wpcallbackUrl'),
        callbackIsPrefix: field(p, 'wpcallbackIsPrefix') !== '',
        oauthVersion: field(p, 'wpoauthVersion') === '2' ? 2 : 1,
        // ConsumerSubmitControl: an identification-only grant type replaces the checked grants.
        grants: AUTH_ONLY.includes(`mwoauth-${field(p, 'wpgranttype')}`) ? [`mwoauth-${field(p, 'wpgranttype')}`] : grantsFromForm(fields(p, 'wpgrants[]')),
        ownerOnly: field(p, 'wpownerOnly') !== '',
        oauth2Public: field(p, 'wpoauth2IsPublic') !== '',
        rsaKey: field(p, 'wprsaKey').trim(),
      });
      return send(p, { title: 'Consumer proposed', body: secretsBox(r.consumer!, r.secret, r.accessToken, r.accessSecret) });
    } catch (e) {
      return proposeForm(p, errorText(e));
    }
  }
  if (action === 'update' && key) {
    if (lacksRight(p, 'mwoauthupdateownconsumer', 'update OAuth consumers you control')) return;
    let consumer: Consumer;
    try {
      consumer = await oauth.getConsumer(key);
    } catch (e) {
      return send(p, { title: 'Update consumer', status: 404, body: messageBox('error', errorText(e)) });
    }
    if (consumer.ownerId !== p.caller.user.id) return send(p, { title: 'Update consumer', status: 403, body: messageBox('error', 'Only the owner of a consumer can update it.') });
    let notice = new SafeHtml('');
    if (p.method === 'POST') {
      if (!(await validCsrf(p))) notice = messageBox('error', SESSION_FAILURE);
      else {
        try {
          const r = await oauth.updateConsumer({
            userId: p.caller.user.id,
            key,
            description: field(p, 'wpdescription'),
            callbackUrl: consumer.ownerOnly ? undefined : field(p, 'wpcallbackUrl'),
            grants: grantsFromForm(fields(p, 'wpgrants[]')),
            resetSecret: field(p, 'wpresetSecretKey') !== '',
          });
          consumer = r.consumer!;
          notice = r.secret ? secretsBox(consumer, r.secret, '', '') : messageBox('success', 'The consumer was updated.');
        } catch (e) {
          notice = messageBox('error', errorText(e));
        }
      }
    }
    const body = html`${notice}
<form method="post" action="${pagePath('OAuthConsumerRegistration', `update/${key}`)}">
${hidden('wpEditToken', await csrfToken(p))}
<p>${consumer.name} ${consumer.version} — <code>${consumer.key}</code> (${STAGE_NAMES[consumer.stage] ?? ''})</p>
<label class="field" for="wpdescription">Application description</label><textarea id="wpdescription" name="wpdescription">${consumer.description}</textarea>
${consumer.ownerOnly ? '' : html`<label class="field" for="wpcallbackUrl">OAuth "callback" URL</label><input id="wpcallbackUrl" name="wpcallbackUrl" value="${consumer.callbackUrl}" type="url">`}
<p><strong>Applicable grants:</strong></p>
${grantCheckboxes(consumer.grants)}
<label class="field"><input type="checkbox" name="wpresetSecretKey" value="1"> Reset the secret key to a new value</label>
<button type="submit">Update consumer</button>
</form>`;
    return send(p, { title: 'Update consumer', body });
  }
  const mine = await oauth.listConsumers({ ownerId: p.caller.user.id });
  send(p, {
    title: 'OAuth consumer registration',
    body: html`<p><a href="${pagePath('OAuthConsumerRegistration', 'propose')}">Request a token for a new consumer</a></p><h2>Your consumers</h2>${consumerTable(mine, true)}`,
  });
}

// ---------------------------------------------------------------- administrators

/** A posted form's outcome as a message box: its CSRF token checked, then `act` (its success text). */
async function submission(p: PageRequest, act: () => Promise<string>): Promise<SafeHtml> {
  if (p.method !== 'POST') return new SafeHtml('');
  if (!(await validCsrf(p))) return messageBox('error', SESSION_FAILURE);
  try {
    return messageBox('success', await act());
  } catch (e) {
    return messageBox('error', errorText(e));
  }
}

async function manageConsumersPage(p: PageRequest): Promise<void> {
  if (p.caller.user.anonymous) return loginRedirect(p, 'Special:OAuthManageConsumers');
  if (lacksRight(p, 'mwoauthmanageconsumer', 'manage OAuth consumers')) return;
  const oauth = p.deps.clients.oauth;
  const notice = await submission(p, async () => {
    const c = await oauth.manageConsumer({ performerId: p.caller.user.id, key: field(p, 'wpconsumerKey'), action: field(p, 'wpaction'), reason: field(p, 'wpreason') });
    return `The consumer "${c.name}" is now ${STAGE_NAMES[c.stage]}.`;
  });
  const stageName = (p.subpage || 'proposed').toLowerCase();
  const stage = Number(Object.entries(STAGE_NAMES).find(([, n]) => n === stageName)?.[0] ?? 0) as ConsumerStage;
  const consumers = await oauth.listConsumers({ stage });
  const token = await csrfToken(p);
  const rows = consumers.map(
    (c) => html`<tr><td>${c.name} ${c.version}</td><td><code>${c.key}</code></td><td>${c.ownerName}</td><td>${c.oauthVersion === 1 ? '1.0a' : '2.0'}</td><td>${c.grants.join(', ')}</td><td>
<form method="post" action="${pagePath('OAuthManageConsumers', stageName)}">${hidden('wpEditToken', token)}${hidden('wpconsumerKey', c.key)}
<select name="wpaction"><option value="approve">Approve</option><option value="reject">Reject</option><option value="disable">Disable</option><option value="reenable">Re-enable</option></select>
<input name="wpreason" placeholder="Reason"><button type="submit">Submit</button></form></td></tr>\n`,
  );
  const links = Object.values(STAGE_NAMES).map((n) => html`<a href="${pagePath('OAuthManageConsumers', n)}">${n}</a> `);
  send(p, {
    title: 'Manage OAuth consumers',
    body: html`${notice}<p>${links}</p><h2>Consumers: ${stageName}</h2>${rows.length ? html`<table class="wikitable"><tr><th>Consumer</th><th>Key</th><th>Owner</th><th>OAuth</th><th>Grants</th><th>Action</th></tr>${rows}</table>` : html`<p>No consumers.</p>`}`,
  });
}

async function manageMyGrantsPage(p: PageRequest): Promise<void> {
  if (p.caller.user.anonymous) return loginRedirect(p, 'Special:OAuthManageMyGrants');
  if (lacksRight(p, 'mwoauthmanagemygrants', 'manage your OAuth grants')) return;
  const oauth = p.deps.clients.oauth;
  const notice = await submission(p, async () => {
    await oauth.revokeAuthorization(p.caller.user.id, field(p, 'wpconsumerKey'));
    return 'Access was revoked: the application can no longer act on your behalf.';
  });
  const token = await csrfToken(p);
  const list = await oauth.listAuthorizations(p.caller.user.id);
  const rows = list.map(
    (a) => html`<tr><td>${a.consumer!.name} ${a.consumer!.version}</td><td>${a.consumer!.ownerName}</td><td>${a.grants.join(', ')}</td><td>${a.accepted.slice(0, 19).replace('T', ' ')}</td><td>
<form method="post" action="${pagePath('OAuthManageMyGrants')}">${hidden('wpEditToken', token)}${hidden('wpconsumerKey', a.consumer!.key)}<button type="submit">Revoke</button></form></td></tr>\n`,
  );
  send(p, {
    title: 'Manage connected applications',
    body: html`${notice}${rows.length ? html`<table class="wikitable"><tr><th>Application</th><th>Publisher</th><th>Grants</th><th>Accepted</th><th></th></tr>${rows}</table>` : html`<p>No applications are connected to your account.</p>`}`,
  });
}

const HANDLERS: Record<OAuthPage, (p: PageRequest) => Promise<void>> = {
  OAuth: oauthPage,
  OAuthConsumerRegistration: registrationPage,
  OAuthManageConsumers: manageConsumersPage,
  OAuthManageMyGrants: manageMyGrantsPage,
};

/** Mounted before the other special pages: answers the OAuth ones, passes everything else on. */
export function createOAuthPages(deps: GatewayDeps): express.Router {
  const router = express.Router();
  const parseForm = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 200 });
  const parse = (req: Request, res: Response) => new Promise<void>((resolve, reject) => parseForm(req, res, (err?: unknown) => (err ? reject(err) : resolve())));
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    let caller = anonymousCaller(clientAddress(req, deps.config.isTrustedProxy));
    const fail = (status: number, text: string) => send({ req, res, deps, caller, method: 'GET', subpage: null }, { title: 'Error', status, body: messageBox('error', text) });
    try {
      let title = pathTitle(req);
      if (title === null && req.method === 'POST' && req.path === `${SCRIPT_PATH}/index.php`) {
        await parse(req, res);
        title = lastString((req.body as Record<string, unknown> | undefined)?.title);
      }
      const target = oauthTitle(title);
      if (!target) return next();
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      if (method !== 'GET' && method !== 'POST') {
        res.set('Allow', 'GET, HEAD, POST');
        return fail(405, `${req.method} is not allowed here.`);
      }
      if (method === 'POST') await parse(req, res);
      // Special:OAuth's endpoints are signed by the consumer; the user is only the consent page's.
      if (!(target.page === 'OAuth' && /^(initiate|token|identify)/i.test(target.subpage))) caller = await resolvePageCaller(req, deps);
      await HANDLERS[target.page]({ req, res, deps, caller, method, subpage: target.subpage });
    } catch (e) {
      if (res.headersSent) return deps.log.error({ err: e, path: req.path }, 'OAuth page failed after its response started');
      if (e instanceof OAuthNotApiError) return fail(400, e.message);
      const status = (e as { status?: unknown }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) return fail(status, 'The submitted form could not be read.');
      if (e instanceof ServiceError && (e.grpcCode === GrpcStatus.UNAVAILABLE || e.grpcCode === GrpcStatus.DEADLINE_EXCEEDED))
        return fail(503, 'The wiki is temporarily unavailable. Please try again in a few minutes.');
      deps.log.error({ err: e, path: req.path }, 'OAuth page failed');
      fail(500, 'An internal error occurred. It has been logged.');
    }
  });
  return router;
}
