/*
 * OAuth 1.0a parameters wherever RFC 5849 §3.5 lets a client put them: the Authorization header,
 * the query string or a form body. MWOAuthRequest::fromRequest merges the three into one set (a
 * name in two places counts once, the header's winning), and the signature covers that set. Each
 * placement runs the whole handshake (initiate, the user's consent, token, identify) signed by two
 * client libraries: the npm `oauth-1.0a` package, and Debian's python3-requests-oauthlib
 * (`oauth1-sign.py` signs, this test sends). The API, as the OAuth extension's SessionProvider,
 * takes OAuth only from a request with an `Authorization: OAuth` header.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';
import OAuth from 'oauth-1.0a';
import { runAdmin } from '../scripts/admin.js';
import { startWiki, testBackends, WikiClient, type HttpResponse, type TestWiki } from './harness.js';
import { hiddenFields } from './special-pages.js';

type Placement = 'header' | 'query' | 'body';
type KeyPair = { key: string; secret: string };

/** A request to sign: the URL (with any query), form fields, and the OAuth parameters beyond the library's own. */
interface ToSign {
  method: 'GET' | 'POST';
  url: string;
  form?: Record<string, string>;
  placement: Placement;
  consumer: KeyPair;
  token?: KeyPair;
  callback?: string;
  verifier?: string;
}

/** What a client library sends. */
interface Signed {
  url: string;
  headers: Record<string, string>;
  body?: string;
}

interface Signer {
  name: string;
  sign(r: ToSign): Promise<Signed>;
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * The npm `oauth-1.0a` package as MediaWiki's documentation uses it: the extra OAuth parameters
 * (oauth_callback, oauth_verifier) are signed from the request's data and sent both in the
 * header and where the request carries its other parameters.
 */
const npmOAuth: Signer = {
  name: 'oauth-1.0a (npm)',
  async sign(r) {
    const client = new OAuth({
      consumer: r.consumer,
      signature_method: 'HMAC-SHA1',
      hash_function: (base, key) => crypto.createHmac('sha1', key).update(base).digest('base64'),
    });
    const extra: Record<string, string> = { ...(r.callback ? { oauth_callback: r.callback } : {}), ...(r.verifier ? { oauth_verifier: r.verifier } : {}) };
    const data = { ...r.form, ...extra };
    const authorized = client.authorize({ url: r.url, method: r.method, data }, r.token);
    // (authorize() also copies the request's data into its answer: only the oauth_* are the library's.)
    const oauth: Record<string, string> = { ...Object.fromEntries(Object.entries(authorized).flatMap(([k, v]) => (k.startsWith('oauth_') ? [[k, String(v)]] : []))), ...extra };
    const form = new URLSearchParams(r.form);
    if (r.placement === 'header') {
      for (const [k, v] of Object.entries(extra)) (r.method === 'POST' ? form : null)?.set(k, v);
      const url = r.method === 'GET' && Object.keys(extra).length ? `${r.url}&${new URLSearchParams(extra)}` : r.url;
      return { url, headers: { ...client.toHeader({ ...authorized, ...extra }), ...(r.method === 'POST' ? FORM : {}) }, body: r.method === 'POST' ? form.toString() : undefined };
    }
    // The query as the library's users write it: everything authorize() answered, so the URL's own
    // parameters come twice (PHP's $_GET keeps one of each).
    const everything = Object.entries({ ...authorized, ...extra }).map(([k, v]): [string, string] => [k, String(v)]);
    if (r.placement === 'query') return { url: `${r.url}${r.url.includes('?') ? '&' : '?'}${new URLSearchParams(everything)}`, headers: {}, body: r.method === 'POST' ? form.toString() : undefined };
    for (const [k, v] of Object.entries(oauth)) form.set(k, v);
    return { url: r.url, headers: FORM, body: form.toString() };
  },
};

const SIGN_PY = fileURLToPath(new URL('./oauth1-sign.py', import.meta.url));

/** Debian's python3-requests-oauthlib (oauthlib's Client with the placement as its signature type). */
const requestsOAuthlib: Signer = {
  name: 'requests-oauthlib (python3)',
  sign(r) {
    return new Promise((resolve, reject) => {
      const child = execFile('/usr/bin/python3', [SIGN_PY], (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as Signed)));
      child.stdin!.end(
        JSON.stringify({
          method: r.method,
          url: r.url,
          form: r.form ?? null,
          placement: r.placement,
          consumer: [r.consumer.key, r.consumer.secret],
          token: r.token ? [r.token.key, r.token.secret] : null,
          callback: r.callback ?? null,
          verifier: r.verifier ?? null,
        }),
      );
    });
  },
};

/** Where the test sends a Special:OAuth step: GET with the query for header and query, POST of the form for body. */
function stepRequest(wiki: TestWiki, step: string, placement: Placement): Pick<ToSign, 'method' | 'url' | 'form' | 'placement'> {
  const params = { title: `Special:OAuth/${step}`, format: 'json' };
  if (placement === 'body') return { method: 'POST', url: `${wiki.baseUrl}/w/index.php`, form: params, placement };
  return { method: 'GET', url: `${wiki.baseUrl}/w/index.php?${new URLSearchParams(params)}`, placement };
}

async function send(wiki: TestWiki, method: string, s: Signed): Promise<HttpResponse> {
  const path = s.url.slice(wiki.baseUrl.length);
  return new WikiClient(wiki.baseUrl).request(method, path, s.body, { headers: s.headers, cookies: false });
}

function credentials(r: HttpResponse): KeyPair {
  assert.equal(r.status, 200, r.text);
  const j = r.json<KeyPair>();
  assert.match(j.key, /^[0-9a-f]{32}$/);
  assert.match(j.secret, /^[0-9a-f]{32,40}$/);
  return j;
}

for (const backend of testBackends()) {
  describe(`OAuth 1.0a parameters in the header, the query or the body (${backend})`, () => {
    let wiki: TestWiki;
    let consumer: KeyPair;
    /** Olga, logged in on the web pages. */
    let olga: WikiClient;

    before(async () => {
      wiki = await startWiki(backend);
      const lines: string[] = [];
      const run = (argv: string[]) => runAdmin(argv, wiki.testEnv.env, (l) => lines.push(l));
      await run(['createAndPromote', 'Olga', 'olgapass1234567']);
      await run(['createAndPromote', 'Dana', 'danapass1234567']);
      await run([
        'createOAuthConsumer',
        '--user',
        'Dana',
        '--name',
        'Tool',
        '--version',
        '1',
        '--description',
        'Tool',
        '--callbackUrl',
        'http://client.example/cb',
        '--grants',
        'basic',
        '--oauthVersion',
        '1',
        '--approve',
        '--json',
      ]);
      consumer = JSON.parse(lines.at(-1)!) as KeyPair;
      olga = new WikiClient(wiki.baseUrl);
      const form = await olga.get('/wiki/Special:UserLogin');
      const login = await olga.post('/wiki/Special:UserLogin', { wpName: 'Olga', wpPassword: 'olgapass1234567', wpLoginToken: hiddenFields(form.text).wpLoginToken!, authAction: 'login' });
      assert.equal(login.status, 302, login.text);
    });
    after(() => wiki?.close());

    /** Olga allows the request token on the consent page: the verifier of the callback. */
    async function consent(requestToken: string): Promise<string> {
      const page = await olga.get(`/wiki/Special:OAuth/authorize?${new URLSearchParams({ oauth_token: requestToken, oauth_consumer_key: consumer.key })}`);
      assert.equal(page.status, 200, page.text.slice(0, 500));
      const allow = await olga.post('/wiki/Special:OAuth/authorize', { ...hiddenFields(page.text), wpAllow: '1' });
      assert.equal(allow.status, 302, allow.text.slice(0, 500));
      const target = new URL(allow.headers.get('location')!);
      assert.equal(target.searchParams.get('oauth_token'), requestToken);
      return target.searchParams.get('oauth_verifier')!;
    }

    for (const signer of [npmOAuth, requestsOAuthlib]) {
      for (const placement of ['header', 'query', 'body'] as const) {
        test(`${signer.name}, parameters in the ${placement}: initiate, token, identify`, async () => {
          const initiate = stepRequest(wiki, 'initiate', placement);
          const request = credentials(await send(wiki, initiate.method, await signer.sign({ ...initiate, consumer, callback: 'oob' })));
          assert.equal((await send(wiki, initiate.method, await signer.sign({ ...initiate, consumer, callback: 'oob' }))).status, 200, 'a new nonce: a second request token');

          const verifier = await consent(request.key);
          const token = stepRequest(wiki, 'token', placement);
          const access = credentials(await send(wiki, token.method, await signer.sign({ ...token, consumer, token: request, verifier })));
          // The request token was used once.
          const again = await send(wiki, token.method, await signer.sign({ ...token, consumer, token: request, verifier }));
          assert.equal(again.status, 400, again.text);

          const identify = stepRequest(wiki, 'identify', placement);
          const jwt = await send(wiki, identify.method, await signer.sign({ ...identify, consumer, token: access }));
          assert.equal(jwt.status, 200, jwt.text);
          const claims = JSON.parse(Buffer.from(jwt.text.split('.')[1]!, 'base64url').toString('utf8')) as { username: string; iss: string };
          assert.equal(claims.username, 'Olga');

          // The API with the header (its other parameters in the form body or the query): Olga.
          const api = await signer.sign({
            method: 'POST',
            url: `${wiki.baseUrl}/w/api.php?format=json`,
            form: { action: 'query', meta: 'userinfo' },
            placement: 'header',
            consumer,
            token: access,
          });
          const info = await send(wiki, 'POST', api);
          assert.equal(info.status, 200, info.text);
          assert.equal(info.json<{ query: { userinfo: { name: string } } }>().query.userinfo.name, 'Olga', info.text);
        });
      }
    }

    test('a parameter in the header and the query counts once; a changed one fails the signature', async () => {
      const initiate = stepRequest(wiki, 'initiate', 'header');
      const signed = await npmOAuth.sign({ ...initiate, consumer, callback: 'oob' });
      assert.match(signed.url, /oauth_callback=oob/);
      assert.match(signed.headers.Authorization!, /oauth_callback="oob"/);
      credentials(await send(wiki, 'GET', signed));
      // The same request with a query parameter the client did not sign.
      const tampered = await npmOAuth.sign({ ...initiate, consumer, callback: 'oob' });
      const r = await send(wiki, 'GET', { ...tampered, url: `${tampered.url}&extra=1` });
      assert.equal(r.status, 400, r.text);
      assert.deepEqual(r.json(), { error: 'mwoauth-invalid-authorization', message: 'Invalid signature' });
    });

    test('the API takes OAuth from the Authorization header only (Utils::hasOAuthHeaders): query parameters alone are an anonymous request', async () => {
      const lines: string[] = [];
      await runAdmin(
        [
          'createOAuthConsumer',
          '--user',
          'Olga',
          '--name',
          'Own',
          '--version',
          '1',
          '--description',
          'Own',
          '--callbackUrl',
          'http://client.example/cb',
          '--grants',
          'basic',
          '--oauthVersion',
          '1',
          '--ownerOnly',
          '--approve',
          '--json',
        ],
        wiki.testEnv.env,
        (l) => lines.push(l),
      );
      const own = JSON.parse(lines.at(-1)!) as KeyPair & { accessToken: string; accessSecret: string };
      const token = { key: own.accessToken, secret: own.accessSecret };
      const url = `${wiki.baseUrl}/w/api.php?${new URLSearchParams({ action: 'query', meta: 'userinfo', format: 'json' })}`;
      const header = await send(wiki, 'GET', await requestsOAuthlib.sign({ method: 'GET', url, placement: 'header', consumer: own, token }));
      assert.equal(header.json<{ query: { userinfo: { name: string } } }>().query.userinfo.name, 'Olga', header.text);
      const query = await send(wiki, 'GET', await requestsOAuthlib.sign({ method: 'GET', url, placement: 'query', consumer: own, token }));
      assert.equal(query.status, 200, query.text);
      assert.deepEqual(query.json<{ query: { userinfo: unknown } }>().query.userinfo, { id: 0, name: '127.0.0.1', anon: '' }, query.text);
    });
  });
}
