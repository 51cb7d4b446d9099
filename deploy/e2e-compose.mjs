#!/usr/bin/env node
/*
 * npm run e2e:compose: the compose stack (deploy/compose.sh) end to end, as an operator runs it.
 *
 * 1. `deploy/compose.sh up`: builds what is missing (base images included) and starts a stack of
 *    its own (COMPOSE_PROJECT_NAME quire-e2e, a fresh set of volumes).
 * 2. The real client libraries of the conformance run (conformance/run.mjs --against) through
 *    gateway A, with an account and a bot password made by `deploy/compose.sh admin`.
 * 3. A login made through gateway A is a session on gateway B; a file uploaded through A is
 *    served through B (either content replica: uploads are in the database).
 * 4. The kill test: M clients make N edits each through the proxy (bounded write load) while one
 *    content container, then gateway A, then Redis are killed (`docker kill`) and started again.
 *    Every acknowledged edit must be in its page's history afterwards, and the wiki must answer
 *    an edit again within RECOVERY_LIMIT_S after each kill. The figures are printed.
 * 5. `deploy/compose.sh down -v` (unless --keep).
 *
 * Options: --keep (leave the stack up), --no-clients, --no-kill, --edits N, --clients M.
 * Talks only to ports published on 127.0.0.1. Exit code 0 only when everything held.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
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
    const r = await fetch(url, {
      method: post ? 'POST' : 'GET',
      body: post ? body : undefined,
      headers: { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'user-agent': 'quire-e2e-compose' },
      signal: AbortSignal.timeout(timeoutMs),
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

async function clientsThroughA(user, password) {
  const lines = admin('createBotPassword', user, 'e2ecompose', '--grants', 'basic,highvolume,editpage,editprotected,createeditmovepage,uploadfile,uploadeditmovefile,delete,protect,rollback,patrol,blockusers');
  const header = /^Bot password for (.+) \(grants .*\):$/.exec(lines.at(-2) ?? '');
  if (!header) throw new Error(`createBotPassword: ${lines.join('\n')}`);
  const t0 = Date.now();
  const r = sh(process.execPath, ['conformance/run.mjs', '--against', A], {
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

/** An upload through gateway A is served by gateway B from either content replica (FILE_STORE=db). */
async function uploadAcrossReplicas(user, password) {
  const a = new Api(A);
  await a.login(user, password);
  const token = await a.csrf();
  // A 1×1 PNG under a new name (same bytes each run: ignorewarnings passes the duplicate warning).
  const png = Buffer.concat([
    Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
    Buffer.from('0000000d49444154789c6360000002000100e221bc33', 'hex'),
    Buffer.from('0000000049454e44ae426082', 'hex'),
  ]);
  const name = `Compose upload ${crypto.randomBytes(4).toString('hex')}.png`;
  const fd = new FormData();
  for (const [k, v] of Object.entries({ action: 'upload', format: 'json', filename: name, token, ignorewarnings: '1' })) fd.append(k, v);
  fd.append('file', new Blob([png], { type: 'image/png' }), 'x.png');
  const r = await fetch(`${A}/w/api.php`, { method: 'POST', body: fd, headers: { cookie: [...a.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
  const up = await r.json();
  const url = up.upload?.imageinfo?.url;
  check(up.upload?.result === 'Success' && typeof url === 'string', `upload through gateway A (${up.upload?.result ?? JSON.stringify(up.error)})`);
  if (typeof url !== 'string') return;
  // Several reads: the gateway's round-robin spreads them over both content replicas.
  let same = 0;
  let headers = '';
  for (let i = 0; i < 6; i++) {
    const f = await fetch(`${B}${new URL(url).pathname}`);
    if (f.status === 200 && Buffer.from(await f.arrayBuffer()).equals(png)) same++;
    headers = `${f.headers.get('content-type')}; ${f.headers.get('cache-control')}`;
  }
  check(same === 6, `the file is served through gateway B, 6 reads of 6 identical (${headers})`);
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
  let lastOk = Date.now();
  const okTimes = [];
  let running = true;

  async function writer(i) {
    const api = new Api(P);
    let token;
    for (let n = 0; n < EDITS_EACH; ) {
      const marker = `edit ${n} of writer ${i}`;
      attempts++;
      try {
        if (!token) {
          api.cookies.clear();
          await api.login(user, password);
          token = await api.csrf();
        }
        const r = await api.call({ action: 'edit', title: pages[i], appendtext: `\n* ${marker}`, summary: marker, token, bot: '1' }, { post: true });
        if (r.edit?.result === 'Success' && r.edit.newrevid) {
          acked[i].push([r.edit.newrevid, marker]);
          lastOk = Date.now();
          okTimes.push(lastOk);
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
    const deadline = t + RECOVERY_LIMIT_S * 1000;
    while (Date.now() < deadline) {
      const after = okTimes.find((x) => x > t + 50);
      if (after) return (after - t) / 1000;
      await sleep(100);
    }
    return Infinity;
  }

  const t0 = Date.now();
  const writers = Promise.all(pages.map((_, i) => writer(i))).finally(() => (running = false));
  const kills = [];
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
  await writers;
  const elapsed = (Date.now() - t0) / 1000;

  // Every acknowledged edit must be in the history, with its text.
  const reader = new Api(A);
  let lost = 0;
  let total = 0;
  for (let i = 0; i < pages.length; i++) {
    const revs = new Map();
    let cont = {};
    for (;;) {
      const r = await reader.call({ action: 'query', prop: 'revisions', titles: pages[i], rvprop: 'ids|comment', rvlimit: 'max', ...cont });
      for (const rev of r.query.pages[0].revisions ?? []) revs.set(rev.revid, rev.comment);
      if (!r.continue) break;
      cont = r.continue;
    }
    for (const [revid, marker] of acked[i]) {
      total++;
      if (revs.get(revid) !== marker) lost++;
    }
  }
  log(`figures: ${EDIT_CLIENTS} writers x ${EDITS_EACH} edits in ${elapsed.toFixed(1)} s; attempts ${attempts}, acknowledged ${total}, failed attempts (retried) ${failed}, lost ${lost}`);
  const gaps = okTimes.slice(1).map((x, i) => x - okTimes[i]);
  log(`longest time without an acknowledged edit: ${(Math.max(0, ...gaps) / 1000).toFixed(1)} s`);
  log(`recovery after kill: ${kills.map((k) => `${k.service} ${k.seconds === Infinity ? 'never' : `${k.seconds.toFixed(1)} s`}`).join(', ')}`);
  check(total === EDIT_CLIENTS * EDITS_EACH, `every writer finished its ${EDITS_EACH} edits (${total})`);
  check(lost === 0, `every acknowledged edit is in the page history (lost: ${lost})`);
  for (const k of kills) check(k.seconds <= RECOVERY_LIMIT_S, `the wiki takes edits again after killing ${k.service} (${k.seconds} s)`);
}

async function main() {
  const t0 = Date.now();
  composeSh('up');
  log(`stack up in ${Math.round((Date.now() - t0) / 1000)} s`);
  const user = 'E2eroot';
  const password = `e2e-${crypto.randomBytes(9).toString('hex')}`;
  try {
    admin('createAndPromote', user, password, '--groups', 'sysop,bureaucrat,interface-admin');
    const site = await (await fetch(`${P}/w/api.php?action=query&meta=siteinfo&format=json`)).json();
    check(site.query?.general?.sitename !== undefined, 'the proxy answers siteinfo');
    await loginAcrossGateways(user, password);
    await uploadAcrossReplicas(user, password);
    if (!opt('--no-clients')) await clientsThroughA(user, password);
    if (!opt('--no-kill')) await killTest(user, password);
  } finally {
    if (failures.length || opt('--keep')) {
      sh(path.join(root, 'deploy/compose.sh'), ['ps'], { allowFail: true });
    }
    if (!opt('--keep')) composeSh('down', '-v', '--remove-orphans');
  }
  console.log(`\ne2e:compose: ${failures.length ? `FAILED (${failures.join('; ')})` : 'all held'}, ${Math.round((Date.now() - t0) / 1000)} s`);
  process.exit(failures.length ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  if (!opt('--keep')) spawnSync(path.join(root, 'deploy/compose.sh'), ['down', '-v', '--remove-orphans'], { cwd: root, env, stdio: 'inherit' });
  process.exit(1);
});
