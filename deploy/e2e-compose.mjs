#!/usr/bin/env node
/*
 * npm run e2e:compose: the compose stack (deploy/compose.sh) end to end, as an operator runs it.
 *
 * 1. `deploy/compose.sh up`: builds what is missing (base images included) and starts a stack of
 *    its own (COMPOSE_PROJECT_NAME quire-e2e, a fresh set of volumes).
 *    Each service's image runs as uid 1000, which can read every file under /app.
 * 2. The real client libraries of the conformance run (conformance/run.mjs --against) through
 *    gateway A, with an account and a bot password made by `deploy/compose.sh admin`.
 * 3. A login made through gateway A is a session on gateway B. A file uploaded through A is
 *    served through B by each content replica alone (the other one stopped, then the other way
 *    round), so the replica that did not store it answers: its bytes, its imageinfo and its
 *    description page. An edit made through A is found by a search through B (the indexer, a
 *    service of its own, indexed it; a query replica answered).
 * 4. The kill test: M clients make at least N edits each through the proxy (bounded write load;
 *    they go on until the last kill is made) while one content container, then gateway A, then
 *    Redis are killed (`docker kill`) and started again.
 *    Every acknowledged edit must be in its page's history afterwards, no edit may be in it twice
 *    (each attempt has its own summary: the proxy must not resend a POST a gateway received), and
 *    the wiki must take an edit again within RECOVERY_LIMIT_S after each kill. The whole kill
 *    test stops at KILL_TEST_LIMIT_S. The figures are printed.
 * 5. `deploy/compose.sh down -v` (unless --keep).
 *
 * Options: --keep (leave the stack up), --no-clients, --no-kill, --edits N, --clients M,
 *   --client <substring> (only those conformance clients).
 * Talks only to ports published on 127.0.0.1. Exit code 0 only when everything held.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (n) => args.includes(n);
const optNum = (n, d) => (args.includes(n) ? Number(args[args.indexOf(n) + 1]) : d);
const env = {
  ...process.env,
  COMPOSE_PROJECT_NAME: process.env.COMPOSE_PROJECT_NAME ?? 'quire-e2e',
  GATEWAY_PORTS: process.env.GATEWAY_PORTS ?? '8081,8082',
  PROXY_PORT: process.env.PROXY_PORT ?? '8083',
  // As conformance/run.mjs: lift the per-IP anonymous edit limit, as MediaWiki's own CI does.
  RATE_LIMITS: process.env.RATE_LIMITS ?? JSON.stringify({ edit: { ip: [1000000, 60] } }),
};
const [portA, portB] = env.GATEWAY_PORTS.split(',');
const A = `http://127.0.0.1:${portA}`;
const B = `http://127.0.0.1:${portB}`;
const P = `http://127.0.0.1:${env.PROXY_PORT}`;
const EDIT_CLIENTS = optNum('--clients', 4);
const EDITS_EACH = optNum('--edits', 40);
const RECOVERY_LIMIT_S = 60;
const KILL_TEST_LIMIT_S = 300;
const REPLICA_SWITCH_LIMIT_S = 60;
const log = (...a) => console.log('[e2e:compose]', ...a);
const failures = [];
const check = (ok, what) => {
  if (ok) log(`ok: ${what}`);
  else {
    log(`FAILED: ${what}`);
    failures.push(what);
  }
};

function sh(cmd, argv, o = {}) {
  const r = spawnSync(cmd, argv, { cwd: root, env, encoding: 'utf8', stdio: o.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit', ...o });
  if (r.status !== 0 && !o.allowFail) throw new Error(`${cmd} ${argv.join(' ')} exited ${r.status}`);
  return r;
}
const composeSh = (...a) => sh(path.join(root, 'deploy/compose.sh'), a, { capture: true });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A cookie-keeping client of one base URL's action API. */
class Api {
  cookies = new Map();
  constructor(base) {
    this.base = base;
  }
  async call(params, { post = false, timeoutMs = 15_000 } = {}) {
    const body = new URLSearchParams({ format: 'json', formatversion: '2', ...params });
    const url = `${this.base}/w/api.php${post ? '' : `?${body}`}`;
    const send = () =>
      fetch(url, {
        method: post ? 'POST' : 'GET',
        body: post ? body : undefined,
        headers: { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'user-agent': 'quire-e2e-compose' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    // A kept-alive connection the proxy closed as it was reused ("other side closed", before any
    // answer): sent once more on a new one.
    const r = await send().catch((e) => {
      if (e?.cause?.code !== 'UND_ERR_SOCKET') throw e;
      return send();
    });
    for (const c of r.headers.getSetCookie()) {
      const [kv] = c.split(';');
      const i = kv.indexOf('=');
      this.cookies.set(kv.slice(0, i).trim(), kv.slice(i + 1).trim());
    }
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    return r.json();
  }
  async login(user, password) {
    const t = await this.call({ action: 'query', meta: 'tokens', type: 'login' });
    const r = await this.call({ action: 'login', lgname: user, lgpassword: password, lgtoken: t.query.tokens.logintoken }, { post: true });
    if (r.login?.result !== 'Success') throw new Error(`login: ${JSON.stringify(r)}`);
  }
  async csrf() {
    return (await this.call({ action: 'query', meta: 'tokens' })).query.tokens.csrftoken;
  }
}

function admin(...a) {
  const r = composeSh('admin', ...a);
  return r.stdout.trim().split('\n');
}

/**
 * Each service's image runs as uid 1000 and that user can read every file under /app and enter
 * every folder (a base image built under umask 077 once left /app root-only: every service
 * crash-looped with "Cannot find module").
 */
function imagesReadableByTheirUser() {
  const tag = env.QUIRE_TAG ?? 'latest';
  const walk = `
    const fs = require('fs'), path = require('path');
    const bad = [];
    let files = 0;
    const visit = (p) => {
      const st = fs.lstatSync(p);
      if (st.isSymbolicLink()) return;
      try { fs.accessSync(p, st.isDirectory() ? fs.constants.R_OK | fs.constants.X_OK : fs.constants.R_OK); } catch { bad.push(p); return; }
      if (st.isDirectory()) for (const e of fs.readdirSync(p)) visit(path.join(p, e));
      else files++;
    };
    visit('/app');
    console.log(JSON.stringify({ uid: process.getuid(), files, bad: bad.slice(0, 5), unreadable: bad.length }));`;
  for (const name of ['auth', 'content', 'search', 'gateway']) {
    const image = `quire-${name}:${tag}`;
    const user = sh('docker', ['image', 'inspect', '-f', '{{.Config.User}}', image], { capture: true }).stdout.trim();
    check(user === '1000:1000', `${image} runs as uid 1000 (USER ${user || 'unset'})`);
    const r = sh('docker', ['run', '--rm', '--read-only', '--entrypoint', 'node', image, '-e', walk], { capture: true, allowFail: true });
    let seen;
    try {
      seen = JSON.parse(r.stdout.trim().split('\n').pop());
    } catch {
      seen = { uid: -1, files: 0, unreadable: -1, bad: [r.stdout] };
    }
    check(
      seen.uid === 1000 && seen.files > 0 && seen.unreadable === 0,
      `${image}: uid ${seen.uid} reads all ${seen.files} files under /app (unreadable: ${seen.unreadable}${seen.bad.length ? `, e.g. ${seen.bad.join(', ')}` : ''})`,
    );
  }
}

async function clientsThroughA(user, password) {
  const lines = admin(
    'createBotPassword',
    user,
    'e2ecompose',
    '--grants',
    'basic,highvolume,editpage,editprotected,createeditmovepage,uploadfile,uploadeditmovefile,delete,protect,rollback,patrol,blockusers',
  );
  const header = /^Bot password for (.+) \(grants .*\):$/.exec(lines.at(-2) ?? '');
  if (!header) throw new Error(`createBotPassword: ${lines.join('\n')}`);
  const t0 = Date.now();
  const only = args.includes('--client') ? ['--client', args[args.indexOf('--client') + 1]] : [];
  const r = sh(process.execPath, ['conformance/run.mjs', '--against', A, ...only], {
    allowFail: true,
    env: { ...env, WIKI_USER: user, WIKI_PASSWORD: password, WIKI_BOT_USER: header[1], WIKI_BOT_PASSWORD: lines.at(-1).trim() },
  });
  check(r.status === 0, `conformance clients through gateway A (${Math.round((Date.now() - t0) / 1000)} s)`);
}

async function loginAcrossGateways(user, password) {
  const a = new Api(A);
  await a.login(user, password);
  const b = new Api(B);
  b.cookies = a.cookies;
  const who = await b.call({ action: 'query', meta: 'userinfo' });
  check(who.query?.userinfo?.name === user, `a login through gateway A is a session on gateway B (B says ${who.query?.userinfo?.name})`);
  // servedby: the gateway's SERVED_BY, so the two ports really are two processes.
  const servedA = (await new Api(A).call({ action: 'query', servedby: '1' })).servedby;
  const servedB = (await new Api(B).call({ action: 'query', servedby: '1' })).servedby;
  check(servedA === 'gateway-a' && servedB === 'gateway-b', `gateway A and B are two processes (servedby ${servedA}, ${servedB})`);
}

/**
 * The authorization checks' reproductions on the stack as deployed, through the proxy: each is refused here as on
 * npm start (e2e/permission-matrix.test.ts and e2e/revdel-reads.test.ts hold the full matrix).
 */
async function refusalsOnTheStack(user) {
  // A bot password's session is API-only: a web page treats it as anonymous (BotPasswordSessionProvider).
  const lines = admin('createBotPassword', user, `basic${crypto.randomBytes(3).toString('hex')}`, '--grants', 'basic');
  const header = /^Bot password for (.+) \(grants .*\):$/.exec(lines.at(-2) ?? '');
  if (!header) throw new Error(`createBotPassword: ${lines.join('\n')}`);
  const bot = new Api(P);
  await bot.login(header[1], lines.at(-1).trim());
  const page = await fetch(`${P}/wiki/Special:OAuthManageConsumers/proposed`, {
    headers: { cookie: [...bot.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    redirect: 'manual',
  });
  check(
    page.status === 302 && /Special%3AUserLogin/.test(page.headers.get('location') ?? ''),
    `a basic-only bot password's session is anonymous on Special:OAuthManageConsumers (${page.status} ${page.headers.get('location')})`,
  );

  // A plain user may not edit another user's JavaScript.
  const plainName = `E2eplain${crypto.randomBytes(3).toString('hex')}`;
  const plainPassword = `plain-${crypto.randomBytes(9).toString('hex')}`;
  admin('createAndPromote', plainName, plainPassword);
  const plain = new Api(P);
  await plain.login(plainName, plainPassword);
  const js = await plain.call({ action: 'edit', title: `User:${user}/common.js`, text: 'alert(1);', token: await plain.csrf() }, { post: true });
  check(js.error?.code === 'customjsprotected', `a plain user editing User:${user}/common.js: ${js.error?.code ?? JSON.stringify(js).slice(0, 120)}`);

  // Revision-deleted text is not readable by others (hidden by a suppressor: MediaWiki gives
  // deleterevision to the suppress group only).
  const suppName = `E2esupp${crypto.randomBytes(3).toString('hex')}`;
  const suppPassword = `supp-${crypto.randomBytes(9).toString('hex')}`;
  admin('createAndPromote', suppName, suppPassword, '--groups', 'sysop,suppress');
  const sysop = new Api(P);
  await sysop.login(suppName, suppPassword);
  const token = await sysop.csrf();
  const title = `E2e hidden ${crypto.randomBytes(3).toString('hex')}`;
  const first = await sysop.call({ action: 'edit', title, text: 'SECRETE2ETEXT', token }, { post: true });
  await sysop.call({ action: 'edit', title, text: 'public', token }, { post: true });
  const oldid = first.edit?.newrevid;
  const hid = await sysop.call({ action: 'revisiondelete', type: 'revision', ids: String(oldid), hide: 'content', reason: 'e2e', token }, { post: true });
  check(hid.revisiondelete?.items?.[0]?.status === 'Success', `revision ${oldid} hidden`);
  const anonParse = await new Api(P).call({ action: 'parse', oldid: String(oldid) });
  check(anonParse.error?.code === 'permissiondenied', `action=parse of hidden revision text, anonymous: ${anonParse.error?.code ?? 'served'}`);
  const rest = await fetch(`${P}/w/rest.php/v1/revision/${oldid}/html`);
  check(rest.status === 403 && !(await rest.text()).includes('SECRETE2ETEXT'), `REST /revision/${oldid}/html of hidden text: ${rest.status}`);
}

/**
 * A process on the stack's network that is not a Quire component calls the auth service's
 * ChangeUserGroups without the signed caller token: refused with UNAUTHENTICATED (16) by kit's
 * interceptor, before the handler runs. From the gateway's container, which has @grpc/grpc-js.
 */
function unsignedGrpcCallRefused() {
  const script = [
    "import { Client, Metadata, credentials } from '@grpc/grpc-js';",
    "const c = new Client('auth:50051', credentials.createInsecure());",
    "c.makeUnaryRequest('/wiki.auth.v1.AuthService/ChangeUserGroups', (b) => b, (b) => b, Buffer.alloc(0), new Metadata(), { deadline: Date.now() + 5000 },",
    '  (err) => { console.log(err ? err.code : 0); c.close(); });',
  ].join('\n');
  const r = sh(path.join(root, 'deploy/compose.sh'), ['compose', 'exec', '-T', 'gateway-a', 'node', '--input-type=module', '-e', script], { capture: true, allowFail: true });
  const code = (r.stdout ?? '').trim();
  check(code === '16', `an unsigned gRPC call to the auth service's ChangeUserGroups from another container: code ${code || `none (exit ${r.status})`}, 16 is UNAUTHENTICATED`);
}

/** A PNG of w×h pixels (a gradient), made here: no image library needed. */
function makePng(w, h) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const raw = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) raw.set([(x * 255) / w, (y * 255) / h, 128], y * (w * 3 + 1) + 1 + x * 3);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** Waits until the compose service's containers report healthy (Docker's healthcheck). */
async function waitHealthy(service, limitS = 90) {
  const deadline = Date.now() + limitS * 1000;
  for (;;) {
    const ids = sh('docker', ['ps', '-aq', '--filter', `label=com.docker.compose.project=${env.COMPOSE_PROJECT_NAME}`, '--filter', `label=com.docker.compose.service=${service}`], { capture: true })
      .stdout.trim()
      .split('\n')
      .filter(Boolean);
    const states = ids.map((id) => sh('docker', ['inspect', '-f', '{{.State.Health.Status}}', id], { capture: true, allowFail: true }).stdout.trim());
    if (states.length && states.every((x) => x === 'healthy')) return;
    if (Date.now() > deadline) throw new Error(`${service} not healthy after ${limitS} s (${states.join(', ')})`);
    await sleep(1000);
  }
}

/**
 * An upload through gateway A is served through gateway B by either content replica alone
 * (FILE_STORE=db): each replica in turn is stopped while the other one answers, so whichever
 * stored the file, the other one serves it too.
 */
async function uploadAcrossReplicas(user, password) {
  const a = new Api(A);
  await a.login(user, password);
  const token = await a.csrf();
  const png = makePng(160, 120);
  const name = `Compose upload ${crypto.randomBytes(4).toString('hex')}.png`;
  const fd = new FormData();
  for (const [k, v] of Object.entries({ action: 'upload', format: 'json', filename: name, token, ignorewarnings: '1', text: 'Uploaded by e2e:compose' })) fd.append(k, v);
  fd.append('file', new Blob([png], { type: 'image/png' }), 'x.png');
  const r = await fetch(`${A}/w/api.php`, { method: 'POST', body: fd, headers: { cookie: [...a.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
  const up = await r.json();
  const url = up.upload?.imageinfo?.url;
  check(up.upload?.result === 'Success' && typeof url === 'string', `upload through gateway A (${png.length} bytes; ${up.upload?.result ?? JSON.stringify(up.error)})`);
  if (typeof url !== 'string') return;
  const replicas = sh('docker', ['ps', '-q', '--filter', `label=com.docker.compose.project=${env.COMPOSE_PROJECT_NAME}`, '--filter', 'label=com.docker.compose.service=content'], { capture: true })
    .stdout.trim()
    .split('\n')
    .filter(Boolean);
  check(replicas.length === 2, `two content replicas run (${replicas.length})`);
  const b = new Api(B);
  for (const [i, stopped] of replicas.entries()) {
    const serving = replicas[1 - i];
    sh('docker', ['stop', '-t', '10', stopped], { capture: true });
    try {
      // The gateway's channels drop the stopped replica when its connection closes and ask DNS
      // again, but grpc-js resolves a name at most every 30 s: a replica started again under a
      // new address may be unknown to a channel for that long, so each read is tried until
      // REPLICA_SWITCH_LIMIT_S (each try a fresh request) and the time it took is reported.
      const since = Date.now();
      const attempt = async (what, fn) => {
        let last;
        while (Date.now() - since < REPLICA_SWITCH_LIMIT_S * 1000) {
          try {
            const v = await fn();
            if (v.ok) return v;
            last = v;
          } catch (e) {
            last = { ok: false, detail: String(e) };
          }
          await sleep(1000);
        }
        return { ok: false, detail: `${what}: ${last?.detail}` };
      };
      const file = await attempt('file', async () => {
        const f = await fetch(`${B}${new URL(url).pathname}`);
        const body = Buffer.from(await f.arrayBuffer());
        return { ok: f.status === 200 && body.equals(png), detail: `${f.status}, ${f.headers.get('content-type')}; ${f.headers.get('cache-control')}` };
      });
      const info = await attempt('imageinfo', async () => {
        const q = await b.call({ action: 'query', titles: `File:${name}`, prop: 'imageinfo', iiprop: 'size|sha1|mime' });
        const ii = q.query?.pages?.[0]?.imageinfo?.[0];
        return { ok: ii?.width === 160 && ii?.height === 120 && ii?.mime === 'image/png', detail: JSON.stringify(ii ?? q.error) };
      });
      const page = await attempt('description page', async () => {
        const f = await fetch(`${B}/wiki/${encodeURIComponent(`File:${name}`.replace(/ /g, '_'))}`);
        const html = await f.text();
        return { ok: f.status === 200 && html.includes(new URL(url).pathname), detail: `${f.status}` };
      });
      check(
        file.ok && info.ok && page.ok,
        `with content ${stopped.slice(0, 12)} stopped, content ${serving.slice(0, 12)} serves the file through gateway B (all three within ${((Date.now() - since) / 1000).toFixed(1)} s): bytes (${file.detail}), imageinfo 160×120 (${info.ok ? 'ok' : info.detail}), description page (${page.ok ? 'ok' : page.detail})`,
      );
    } finally {
      sh('docker', ['start', stopped], { capture: true });
      await waitHealthy('content');
    }
  }
  // Thumbnails: Quire has no thumbnailer (imageinfo gives no thumburl), so there is none to read.
}

/** An edit through gateway A is found by a search through gateway B (indexer → query replicas). */
async function searchAcrossGateways(user, password) {
  const a = new Api(A);
  await a.login(user, password);
  const word = `quirecompose${crypto.randomBytes(5).toString('hex')}`;
  const title = `Search probe ${word}`;
  const e = await a.call({ action: 'edit', title, text: `A page with the word ${word} in it.`, token: await a.csrf() }, { post: true });
  const t0 = Date.now();
  const b = new Api(B);
  let hits = 0;
  while (Date.now() - t0 < 60_000) {
    const q = await b.call({ action: 'query', list: 'search', srsearch: word, srwhat: 'text' });
    hits = q.query?.search?.length ?? 0;
    if (hits) break;
    await sleep(500);
  }
  check(e.edit?.result === 'Success' && hits === 1, `an edit through gateway A is found by a search through gateway B after ${((Date.now() - t0) / 1000).toFixed(1)} s (search-indexer indexed it)`);
}

function container(service) {
  const r = sh('docker', ['ps', '-q', '--filter', `label=com.docker.compose.project=${env.COMPOSE_PROJECT_NAME}`, '--filter', `label=com.docker.compose.service=${service}`], { capture: true });
  const ids = r.stdout.trim().split('\n').filter(Boolean);
  if (!ids.length) throw new Error(`no running container of ${service}`);
  return ids[0];
}

async function killTest(user, password) {
  const pages = Array.from({ length: EDIT_CLIENTS }, (_, i) => `Kill test ${crypto.randomBytes(3).toString('hex')} ${i}`);
  const acked = pages.map(() => []); // [revid, marker]
  let attempts = 0;
  let failed = 0;
  const okTimes = [];
  let running = true;
  // Writers go on past their EDITS_EACH until the three kills are made: with fast edits the load
  // could end before the last kill, which then tested nothing.
  let killing = true;
  const t0 = Date.now();
  const stopAt = t0 + KILL_TEST_LIMIT_S * 1000;

  async function writer(i) {
    const api = new Api(P);
    let token;
    for (let n = 0; (n < EDITS_EACH || killing) && Date.now() < stopAt; ) {
      // Every attempt has its own summary: an attempt found twice in the history was applied twice.
      const marker = `edit ${n} of writer ${i}, attempt ${attempts++}`;
      try {
        if (!token) {
          api.cookies.clear();
          await api.login(user, password);
          token = await api.csrf();
        }
        const r = await api.call({ action: 'edit', title: pages[i], appendtext: `\n* ${marker}`, summary: marker, token, bot: '1' }, { post: true });
        if (r.edit?.result === 'Success' && r.edit.newrevid) {
          acked[i].push([r.edit.newrevid, marker]);
          okTimes.push(Date.now());
          n++;
        } else {
          failed++;
          // A session lost with Redis, or a token it no longer knows: log in again.
          if (['badtoken', 'notloggedin', 'assertuserfailed', 'permissiondenied'].includes(r.error?.code)) token = undefined;
          await sleep(200);
        }
      } catch {
        failed++;
        await sleep(200);
      }
    }
  }

  /** Seconds from `t` until an edit is acknowledged again. */
  async function recovery(t) {
    const deadline = Math.min(t + RECOVERY_LIMIT_S * 1000, stopAt);
    while (Date.now() < deadline) {
      const after = okTimes.find((x) => x > t + 50);
      if (after) return (after - t) / 1000;
      await sleep(100);
    }
    return Infinity;
  }

  const statsBefore = await proxyStats();
  const writers = Promise.all(pages.map((_, i) => writer(i))).finally(() => (running = false));
  const kills = [];
  try {
    for (const service of ['content', 'gateway-a', 'redis']) {
      await sleep(3000);
      if (!running) break;
      const id = container(service);
      const t = Date.now();
      sh('docker', ['kill', id], { capture: true });
      await sleep(1500);
      // Back as a restart policy or an orchestrator would bring it (docker kill does not restart).
      sh('docker', ['start', id], { capture: true });
      const s = await recovery(t);
      kills.push({ service, seconds: s });
      log(`killed ${service} (${id.slice(0, 12)}): an edit was acknowledged again ${s === Infinity ? 'NEVER' : `${s.toFixed(1)} s`} after the kill`);
    }
  } finally {
    killing = false;
  }
  await writers;
  const elapsed = (Date.now() - t0) / 1000;
  const statsAfter = await proxyStats();

  // Every acknowledged edit must be in the history, with its text; no attempt may be there twice.
  const reader = new Api(A);
  let lost = 0;
  let total = 0;
  let twice = 0;
  let unacknowledgedApplied = 0;
  for (let i = 0; i < pages.length; i++) {
    const revs = new Map();
    const seen = new Map();
    let cont = {};
    for (;;) {
      const r = await reader.call({ action: 'query', prop: 'revisions', titles: pages[i], rvprop: 'ids|comment', rvlimit: 'max', ...cont });
      for (const rev of r.query.pages[0].revisions ?? []) {
        revs.set(rev.revid, rev.comment);
        seen.set(rev.comment, (seen.get(rev.comment) ?? 0) + 1);
      }
      if (!r.continue) break;
      cont = r.continue;
    }
    const ackedMarkers = new Set(acked[i].map(([, m]) => m));
    for (const [revid, marker] of acked[i]) {
      total++;
      if (revs.get(revid) !== marker) lost++;
    }
    for (const [comment, count] of seen) {
      if (count > 1) twice += count - 1;
      if (!ackedMarkers.has(comment)) unacknowledgedApplied++;
    }
  }
  log(
    `figures: ${EDIT_CLIENTS} writers, at least ${EDITS_EACH} edits each and on until the kills were made, in ${elapsed.toFixed(1)} s; attempts ${attempts}, acknowledged ${total}, failed attempts (retried) ${failed}, lost ${lost}, applied twice ${twice}, applied without an answer ${unacknowledgedApplied}`,
  );
  if (statsBefore && statsAfter) {
    log(
      `proxy: ${statsAfter.resent - statsBefore.resent} requests sent to the other gateway (no connection), ${statsAfter.notResent - statsBefore.notResent} writes answered 502 rather than sent twice`,
    );
  }
  const gaps = okTimes.slice(1).map((x, i) => x - okTimes[i]);
  log(`longest time without an acknowledged edit: ${(Math.max(0, ...gaps) / 1000).toFixed(1)} s`);
  log(`recovery after kill: ${kills.map((k) => `${k.service} ${k.seconds === Infinity ? 'never' : `${k.seconds.toFixed(1)} s`}`).join(', ')}`);
  check(
    acked.every((a) => a.length >= EDITS_EACH),
    `every writer made at least its ${EDITS_EACH} edits within ${KILL_TEST_LIMIT_S} s (${total} acknowledged in all)`,
  );
  check(lost === 0, `every acknowledged edit is in the page history (lost: ${lost})`);
  check(twice === 0, `no edit is in the history twice (${twice})`);
  check(kills.length === 3, `three kills made (${kills.length})`);
  for (const k of kills) check(k.seconds <= RECOVERY_LIMIT_S, `the wiki takes edits again after killing ${k.service} (${k.seconds} s)`);
}

/** The proxy's counters (deploy/compose/proxy.mjs answers /proxy-stats itself). */
async function proxyStats() {
  try {
    return await (await fetch(`${P}/proxy-stats`, { signal: AbortSignal.timeout(5000) })).json();
  } catch {
    return undefined;
  }
}

async function main() {
  const t0 = Date.now();
  const phases = [];
  const phase = async (name, fn) => {
    const t = Date.now();
    try {
      return await fn();
    } finally {
      phases.push(`${name} ${Math.round((Date.now() - t) / 1000)} s`);
    }
  };
  await phase('up', () => composeSh('up'));
  log(`stack up in ${Math.round((Date.now() - t0) / 1000)} s`);
  // A new account each run, so that --keep and a second run against the same stack work.
  const user = `E2e${crypto.randomBytes(4).toString('hex')}`;
  const password = `e2e-${crypto.randomBytes(9).toString('hex')}`;
  try {
    await phase('checks', async () => {
      imagesReadableByTheirUser();
      admin('createAndPromote', user, password, '--groups', 'sysop,bureaucrat,interface-admin');
      const site = await (await fetch(`${P}/w/api.php?action=query&meta=siteinfo&format=json`)).json();
      check(site.query?.general?.sitename !== undefined, 'the proxy answers siteinfo');
      await loginAcrossGateways(user, password);
      await searchAcrossGateways(user, password);
      await uploadAcrossReplicas(user, password);
      await refusalsOnTheStack(user);
      unsignedGrpcCallRefused();
    });
    if (!opt('--no-clients')) await phase('clients', () => clientsThroughA(user, password));
    if (!opt('--no-kill')) await phase('kill test', () => killTest(user, password));
  } finally {
    if (failures.length || opt('--keep')) {
      sh(path.join(root, 'deploy/compose.sh'), ['ps'], { allowFail: true });
    }
    if (failures.length) sh(path.join(root, 'deploy/compose.sh'), ['logs', '--tail', '40'], { allowFail: true });
    if (!opt('--keep')) await phase('down', () => composeSh('down', '-v', '--remove-orphans'));
  }
  console.log(`\ne2e:compose: ${failures.length ? `FAILED (${failures.join('; ')})` : 'all held'}, ${Math.round((Date.now() - t0) / 1000)} s (${phases.join(', ')})`);
  process.exit(failures.length ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  if (!opt('--keep')) spawnSync(path.join(root, 'deploy/compose.sh'), ['down', '-v', '--remove-orphans'], { cwd: root, env, stdio: 'inherit' });
  process.exit(1);
});
