#!/usr/bin/env node
/*
 * npm run conformance: judge Quire by what we did not write.
 *
 * 1. Fetches MediaWiki 1.39's own API test suite (tests/api-testing from Debian bookworm's
 *    `mediawiki` source package, through apt with a private config) into .cache/conformance.
 *    MediaWiki's test code is GPL and is never committed.
 * 2. Installs this folder's package.json (mocha, api-testing 1.8.0, the client libraries).
 * 3. Starts Quire exactly as `npm start` does, on a private port with a fresh data folder, with only
 *    the settings MediaWiki's own CI changes (RATE_LIMITS lifting the per-IP anonymous edit limit,
 *    REST_DEV_ROUTES=1), and provisions the root user with the admin CLI.
 * 4. Runs the suite, prints passed/total per file, and checks failures against ratchet.txt:
 *    a failure not listed fails the run, and so does a listed test that now passes.
 * 5. Runs the real client workflows in clients/ against the same wiki.
 *
 * 6. Runs MediaWiki's parser tests (parser-tests/) against a second Quire with the site settings
 *    MediaWiki's parser test runner sets, checked against parser-ratchet.txt the same way.
 *
 * Options: --only <substring> (suite files), --no-clients, --no-suite, --keep (leave the wiki running),
 *   --client <substring> (client files), --against <url> (only the clients, against another wiki),
 *   --only-parser, --no-parser, --parser-file <substring>, --parser-test <substring>,
 *   --write-parser-ratchet, --only-differential, --no-differential, --write-differential-ratchet,
 *   --differential-dump DIR (both answers of each differing request, one JSON file each)
 *   (the differential check against the reference MediaWiki, differential.mjs; REFERENCE_URL,
 *   REFERENCE_USER and REFERENCE_PASSWORD name another reference than conformance/reference/setup.sh's).
 */
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runDifferential } from './differential.mjs';
import { checkParserRatchet, parserTestInterwikis, printParserReport, runParserTests, SITE_SETTINGS, writeParserRatchet } from './parser-tests/runner.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const root = path.resolve(here, '..');
const cache = path.join(root, '.cache', 'conformance');
const args = process.argv.slice(2);
const opt = (name) => args.includes(name);
const optValue = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const log = (...a) => console.log('[conformance]', ...a);

function run(cmd, argv, o = {}) {
  const r = spawnSync(cmd, argv, { stdio: 'inherit', ...o });
  if (r.status !== 0) throw new Error(`${cmd} ${argv.join(' ')} exited ${r.status}`);
  return r;
}

/**
 * What the tarball yields into .cache/conformance: [folder inside MediaWiki's tree, where it goes,
 * a file whose presence says it is there]. A cache missing any part (e.g. one made before the
 * parser tests) fetches the tarball once and unpacks what is missing.
 */
const PARTS = [
  ['tests/api-testing', 'api-testing', 'action/Edit.js'],
  ['tests/parser', 'mediawiki/tests/parser', 'parserTests.txt'],
  ['tests/phpunit/data/parser', 'mediawiki/tests/phpunit/data/parser', 'headbg.jpg'],
  ['extensions/Cite/tests/parser', 'mediawiki/extensions/Cite/tests/parser', 'citeParserTests.txt'],
  ['extensions/ParserFunctions/tests/parser', 'mediawiki/extensions/ParserFunctions/tests/parser', 'funcsParserTests.txt'],
];

/**
 * tests/api-testing, the parser tests and their test files of MediaWiki 1.39, from Debian
 * bookworm's source package. Returns { suiteDir, mwDir } (mwDir: a partial MediaWiki tree).
 */
function fetchSuite() {
  const suiteDir = path.join(cache, 'api-testing');
  const mwDir = path.join(cache, 'mediawiki');
  // MediaWiki's test files are CommonJS; the repo's package.json says "type": "module".
  fs.mkdirSync(cache, { recursive: true });
  fs.writeFileSync(path.join(cache, 'package.json'), '{ "type": "commonjs" }\n');
  const missing = PARTS.filter(([, dest, marker]) => !fs.existsSync(path.join(cache, dest, marker)));
  if (!missing.length) return { suiteDir, mwDir };
  const apt = path.join(cache, 'apt');
  for (const d of ['lists/partial', 'cache/archives/partial', 'sources.list.d', 'download']) fs.mkdirSync(path.join(apt, d), { recursive: true });
  // The machine's own Debian sources, as deb-src entries: deb822 files and one-line lists.
  const srcDir = '/etc/apt/sources.list.d';
  let sources = '';
  for (const f of fs.existsSync(srcDir) ? fs.readdirSync(srcDir) : []) {
    const text = fs.readFileSync(path.join(srcDir, f), 'utf8');
    if (f.endsWith('.sources')) {
      for (const stanza of text.split(/\n\s*\n/)) {
        if (/^Types:.*\bdeb\b/m.test(stanza) && /Suites:.*bookworm/.test(stanza)) sources += `${stanza.replace(/^Types:.*$/m, 'Types: deb-src')}\n\n`;
      }
    } else if (f.endsWith('.list')) {
      for (const line of text.split('\n')) if (/^deb\s.*bookworm/.test(line)) sources += `${line.replace(/^deb\s/, 'deb-src ')}\n`;
    }
  }
  if (fs.existsSync('/etc/apt/sources.list')) {
    for (const line of fs.readFileSync('/etc/apt/sources.list', 'utf8').split('\n')) {
      if (/^deb\s.*bookworm/.test(line)) sources += `${line.replace(/^deb\s/, 'deb-src ')}\n`;
    }
  }
  if (!sources) throw new Error('no Debian bookworm apt source on this machine to fetch the mediawiki source package from');
  fs.writeFileSync(path.join(apt, 'sources.list.d', 'mediawiki-src.sources'), sources.includes('Types:') ? sources : '');
  fs.writeFileSync(path.join(apt, 'sources.list'), sources.includes('Types:') ? '' : sources);
  const conf = path.join(apt, 'apt.conf');
  fs.writeFileSync(
    conf,
    [
      `Dir::Etc::SourceList "${path.join(apt, 'sources.list')}";`,
      `Dir::Etc::SourceParts "${path.join(apt, 'sources.list.d')}";`,
      `Dir::State::Lists "${path.join(apt, 'lists')}";`,
      `Dir::Cache "${path.join(apt, 'cache')}";`,
      `APT::Sandbox::User "root";`,
      '',
    ].join('\n'),
  );
  const env = { ...process.env, APT_CONFIG: conf };
  log(`fetching the mediawiki source package (Debian bookworm) for ${missing.map(([p]) => p).join(', ')}`);
  run('apt-get', ['update', '-qq'], { env });
  run('apt-get', ['source', '--download-only', '-qq', 'mediawiki'], { env, cwd: path.join(apt, 'download') });
  const tarball = fs.readdirSync(path.join(apt, 'download')).find((f) => /^mediawiki_1\.39\.[0-9]+\.orig\.tar\.gz$/.test(f));
  if (!tarball) throw new Error('apt-get source mediawiki did not bring a 1.39 .orig.tar.gz');
  const tarPath = path.join(apt, 'download', tarball);
  const sha = crypto.createHash('sha256').update(fs.readFileSync(tarPath)).digest('hex');
  log(`suite: ${tarball} (sha256 ${sha})`);
  const top = tarball.replace(/^mediawiki_/, 'mediawiki-').replace(/\.orig\.tar\.gz$/, '');
  const tmp = path.join(cache, 'unpack');
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  run('tar', ['xzf', tarPath, '-C', tmp, ...missing.map(([p]) => `${top}/${p}`)]);
  for (const [p, dest] of missing) {
    fs.rmSync(path.join(cache, dest), { recursive: true, force: true });
    fs.mkdirSync(path.dirname(path.join(cache, dest)), { recursive: true });
    fs.renameSync(path.join(tmp, top, p), path.join(cache, dest));
  }
  fs.writeFileSync(path.join(cache, 'suite-version.txt'), `${tarball} sha256 ${sha}\n`);
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(path.join(apt, 'download'), { recursive: true, force: true });
  return { suiteDir, mwDir };
}

/** This folder's dependencies (mocha, api-testing, clients), installed when the lock changed. */
function installDeps() {
  const lock = fs.readFileSync(path.join(here, 'package-lock.json'));
  const stamp = path.join(here, 'node_modules', '.lock-sha');
  const want = crypto.createHash('sha256').update(lock).digest('hex');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === want) return;
  log('installing mocha, api-testing and the client libraries (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: here });
  fs.writeFileSync(stamp, want);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Quire as `npm start` runs it, on a private port and data folder (a new one, or one given). */
async function startQuire(settings = {}, existingDataDir = undefined) {
  const port = Number(process.env.CONFORMANCE_PORT) || (await freePort());
  const dataDir = existingDataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'quire-conformance-'));
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    // The two settings MediaWiki's own CI changes for this suite (see the README).
    RATE_LIMITS: JSON.stringify({ edit: { ip: [1000000, 60] } }),
    REST_DEV_ROUTES: '1',
    LOG_LEVEL: process.env.CONFORMANCE_LOG_LEVEL ?? 'warn',
  };
  // The embedded default: no external servers, exactly as a fresh `npm start`.
  for (const k of Object.keys(env)) if (/^(|AUTH_|CONTENT_|SEARCH_)(DATABASE_URL|REDIS_URL)$/.test(k)) delete env[k];
  delete env.MEILISEARCH_URL;
  delete env.SECRET_KEY;
  // No WIKI_SERVER: the wiki's URL is the address the suite uses (127.0.0.1, not the localhost
  // a fresh start names), as MediaWiki detects $wgServer from the request.
  delete env.WIKI_SERVER;
  Object.assign(env, settings);
  const logFile = path.join(dataDir, 'quire.log');
  const out = fs.openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--conditions=quire-dist', 'scripts/start.mjs'], { cwd: root, env, stdio: ['ignore', out, out] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Quire exited ${child.exitCode} while starting:\n${fs.readFileSync(logFile, 'utf8').slice(-4000)}`);
    if (fs.readFileSync(logFile, 'utf8').includes('Quire is ready')) break;
    if (Date.now() > deadline) throw new Error(`Quire did not start in 120 s:\n${fs.readFileSync(logFile, 'utf8').slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  log(`Quire started at ${url} (data ${dataDir}, log ${logFile})`);
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => {
      const t = setTimeout(() => {
        child.kill('SIGKILL');
        r();
      }, 15_000);
      child.once('exit', () => {
        clearTimeout(t);
        r();
      });
    });
  };
  return { url, port, dataDir, env, child, logFile, stop };
}

function admin(quire, argv) {
  run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...argv], { cwd: root, env: quire.env, stdio: ['ignore', 'inherit', 'inherit'] });
}

function readRatchet() {
  const file = path.join(here, 'ratchet.txt');
  const listed = new Map();
  if (!fs.existsSync(file)) return listed;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [f, title, reason = ''] = line.split(' :: ');
    if (f && title) listed.set(`${f} :: ${title}`, reason);
  }
  return listed;
}

async function runSuite(quire, suiteDir, rootUser) {
  const resultsFile = path.join(quire.dataDir, 'api-testing-results.jsonl');
  const only = optValue('--only');
  const files = [];
  for (const sub of ['REST', 'action']) {
    for (const f of fs.readdirSync(path.join(suiteDir, sub)).sort()) if (f.endsWith('.js')) files.push(path.join(sub, f));
  }
  const selected = only ? files.filter((f) => f.includes(only)) : files;
  const env = {
    ...process.env,
    API_TESTING_CONFIG_FILE: path.join(here, 'api-testing.config.cjs'),
    CONFORMANCE_BASE_URI: `${quire.url}/w/`,
    CONFORMANCE_ROOT_USER: rootUser.name,
    CONFORMANCE_ROOT_PASSWORD: rootUser.password,
    CONFORMANCE_SECRET_KEY: fs.readFileSync(path.join(quire.dataDir, 'secret.key'), 'utf8').trim(),
    CONFORMANCE_RESULTS: resultsFile,
    NODE_PATH: path.join(here, 'node_modules'),
  };
  const started = Date.now();
  // As MediaWiki's reference run: 20 s per test or hook, 900 s for the run.
  const mocha = spawn(process.execPath, [path.join(here, 'node_modules', 'mocha', 'bin', 'mocha.js'), '--timeout', '20000', '--reporter', path.join(here, 'reporter.cjs'), ...selected], {
    cwd: suiteDir,
    env,
    stdio: opt('--verbose') ? 'inherit' : ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  mocha.stdout?.on('data', (d) => (output += d));
  const killer = setTimeout(() => mocha.kill('SIGKILL'), 900_000);
  await new Promise((r) => mocha.once('exit', r));
  clearTimeout(killer);
  fs.writeFileSync(path.join(cache, 'last-mocha-output.txt'), output);
  const seconds = Math.round((Date.now() - started) / 1000);
  if (!fs.existsSync(resultsFile)) throw new Error(`mocha wrote no results (it ran ${seconds} s); its output is in .cache/conformance/last-mocha-output.txt`);
  const results = fs
    .readFileSync(resultsFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l))
    .map((r) => ({ ...r, file: path.relative(suiteDir, r.file), state: r.state === 'notrun' ? 'failed' : r.state }));
  fs.copyFileSync(resultsFile, path.join(cache, 'last-results.jsonl'));

  const perFile = new Map();
  for (const f of selected) perFile.set(f, { passed: 0, failed: 0, pending: 0, total: 0 });
  for (const r of results) {
    const c = perFile.get(r.file) ?? { passed: 0, failed: 0, pending: 0, total: 0 };
    c.total++;
    c[r.state]++;
    perFile.set(r.file, c);
  }
  console.log(`\napi-testing (MediaWiki 1.39 tests/api-testing) against Quire, ${seconds} s`);
  console.log('per file: passed/total (failed, pending)');
  const width = Math.max(...[...perFile.keys()].map((f) => f.length));
  for (const [f, c] of perFile) {
    console.log(`  ${f.padEnd(width)}  ${`${c.passed}/${c.total}`.padEnd(8)} (${c.failed} failed, ${c.pending} pending)`);
  }

  const listed = readRatchet();
  const unexpected = [];
  const fixed = [];
  const seen = new Set();
  for (const r of results) {
    const k = `${r.file} :: ${r.title}`;
    seen.add(k);
    if (r.state === 'failed' && !listed.has(k)) unexpected.push(`${k} :: ${r.error}`);
    if (r.state === 'passed' && listed.has(k)) fixed.push(k);
  }
  const totals = results.reduce((a, r) => ((a[r.state] = (a[r.state] ?? 0) + 1), a), {});
  if (unexpected.length) {
    console.log(`\nfailures not in conformance/ratchet.txt (${unexpected.length}):`);
    for (const u of unexpected) console.log(`  ${u}`);
  }
  if (fixed.length) {
    console.log(`\nlisted in conformance/ratchet.txt but passing now; remove them (${fixed.length}):`);
    for (const u of fixed) console.log(`  ${u}`);
  }
  return { passed: totals.passed ?? 0, failed: totals.failed ?? 0, pending: totals.pending ?? 0, ok: (only || !unexpected.length) && !fixed.length, unexpected, fixed, results };
}

/**
 * --write-ratchet: list today's failures (keeping the reasons already written): the suite's
 * tests and the client steps. A part that did not run (--no-suite, --no-clients) keeps its lines.
 */
function writeRatchet(suiteResults, clients) {
  const listed = readRatchet();
  const lines = [
    '# What fails against Quire, one per line; npm run conformance fails on a failure not listed',
    '# here and on a listed one that passes.',
    '#   tests of MediaWiki 1.39 tests/api-testing:  file :: full test title :: why',
    '#   steps of the client workflows:              client/<file> :: step :: why',
  ];
  const line = (k, why) => `${k} :: ${listed.get(k) || why.replace(/\s+/g, ' ').replace(/ :: /g, ' : ')}`;
  const kept = (keep) => [...listed].filter(([k]) => keep(k)).map(([k, why]) => `${k} :: ${why}`);
  if (suiteResults) {
    for (const r of suiteResults) if (r.state === 'failed') lines.push(line(`${r.file} :: ${r.title}`, r.error));
  } else {
    lines.push(...kept((k) => !k.startsWith('client/')));
  }
  const ran = new Set((clients ?? []).map((c) => `client/${c.name} :: `));
  lines.push(...kept((k) => k.startsWith('client/') && ![...ran].some((prefix) => k.startsWith(prefix))));
  for (const c of clients ?? []) for (const st of c.steps) if (!st.ok) lines.push(line(`client/${c.name} :: ${st.name}`, st.error));
  fs.writeFileSync(path.join(here, 'ratchet.txt'), `${lines.join('\n')}\n`);
  log('wrote conformance/ratchet.txt');
}

/**
 * The real client workflows in clients/. Each prints one line per step, `PASS <step>` or
 * `FAIL <step> — <why>`, and exits 0 when all passed; a client that ends without printing a step
 * line counts as one failed step named `(run)`.
 */
function runClients(wiki) {
  const dir = path.join(here, 'clients');
  const results = [];
  if (!fs.existsSync(dir)) return results;
  const env = {
    ...process.env,
    WIKI_URL: wiki.url,
    WIKI_USER: wiki.user,
    WIKI_PASSWORD: wiki.password,
    WIKI_BOT_USER: wiki.botUser,
    WIKI_BOT_PASSWORD: wiki.botPassword,
    NODE_PATH: path.join(here, 'node_modules'),
    PYTHONDONTWRITEBYTECODE: '1',
  };
  // Debian's interpreters: python3-mwclient and the MediaWiki::* modules are Debian packages, and
  // a python3 earlier on PATH (pyenv, a venv) would not see them.
  const python = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  const perl = fs.existsSync('/usr/bin/perl') ? '/usr/bin/perl' : 'perl';
  const runners = { '.mjs': [process.execPath], '.js': [process.execPath], '.py': [python], '.pl': [perl], '.sh': ['bash'] };
  const only = optValue('--client');
  for (const f of fs.readdirSync(dir).sort()) {
    const ext = path.extname(f);
    if (!runners[ext] || f.startsWith('_')) continue;
    if (only && !f.includes(only)) continue;
    const started = Date.now();
    const [cmd, ...pre] = runners[ext];
    // A scratch working folder: libraries leave files behind (MediaWiki::Bot saves its cookies).
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-client-'));
    const r = spawnSync(cmd, [...pre, path.join(dir, f)], { cwd, env, encoding: 'utf8', timeout: 600_000 });
    fs.rmSync(cwd, { recursive: true, force: true });
    const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim();
    const steps = [];
    for (const line of (r.stdout ?? '').split('\n')) {
      const m = /^(PASS|FAIL) (.+?)(?: — (.*))?$/.exec(line.trim());
      if (m) steps.push({ name: m[2], ok: m[1] === 'PASS', error: m[3] ?? '' });
    }
    const ok = r.status === 0 && steps.length > 0 && steps.every((s) => s.ok);
    if (!ok && steps.every((s) => s.ok)) steps.push({ name: '(run)', ok: false, error: `exit ${r.status}${r.error ? `, ${r.error.message}` : ''}` });
    results.push({ name: f, ok, steps, seconds: Math.round((Date.now() - started) / 1000) });
    const passed = steps.filter((s) => s.ok).length;
    console.log(`\nclient ${f}: ${passed}/${steps.length} steps passed, ${Math.round((Date.now() - started) / 1000)} s${ok ? '' : ` (exit ${r.status}${r.error ? `, ${r.error.message}` : ''})`}`);
    if (out)
      console.log(
        out
          .split('\n')
          .map((l) => `    ${l}`)
          .join('\n'),
      );
  }
  return results;
}

/**
 * Client steps against ratchet.txt (`client/<file> :: <step> :: why`), as the suite's tests:
 * a failed step not listed fails the run, and so does a listed step that passes.
 */
function checkClientRatchet(clients) {
  const listed = readRatchet();
  const unexpected = [];
  const fixed = [];
  for (const c of clients) {
    for (const s of c.steps) {
      const k = `client/${c.name} :: ${s.name}`;
      if (!s.ok && !listed.has(k)) unexpected.push(`${k} :: ${s.error}`);
      if (s.ok && listed.has(k)) fixed.push(k);
    }
  }
  if (unexpected.length) {
    console.log(`\nclient steps failing and not in conformance/ratchet.txt (${unexpected.length}):`);
    for (const u of unexpected) console.log(`  ${u}`);
  }
  if (fixed.length) {
    console.log(`\nclient steps listed in conformance/ratchet.txt but passing now; remove them (${fixed.length}):`);
    for (const u of fixed) console.log(`  ${u}`);
  }
  return { ok: !unexpected.length && !fixed.length, unexpected, fixed };
}

function printClientSummary(clients, where) {
  const lines = clients.map(
    (c) =>
      `  ${c.name.padEnd(22)} ${`${c.steps.filter((s) => s.ok).length}/${c.steps.length}`.padEnd(7)} ${
        c.ok
          ? 'ok'
          : `failed: ${c.steps
              .filter((s) => !s.ok)
              .map((s) => s.name)
              .join(', ')}`
      }`,
  );
  console.log(`\nclients against ${where}: steps passed/total`);
  console.log(lines.join('\n'));
}

/**
 * --against <url>: only the client workflows, against another wiki (e.g. the reference
 * MediaWiki), with its accounts from WIKI_USER, WIKI_PASSWORD, WIKI_BOT_USER, WIKI_BOT_PASSWORD.
 * No ratchet: every step must pass there.
 */
function runClientsAgainst(url) {
  const wiki = { url: url.replace(/\/+$/, ''), user: process.env.WIKI_USER, password: process.env.WIKI_PASSWORD, botUser: process.env.WIKI_BOT_USER, botPassword: process.env.WIKI_BOT_PASSWORD };
  const missing = ['user', 'password', 'botUser', 'botPassword'].filter((k) => !wiki[k]);
  if (missing.length) throw new Error('--against needs WIKI_USER, WIKI_PASSWORD, WIKI_BOT_USER and WIKI_BOT_PASSWORD in the environment');
  const clients = runClients(wiki);
  printClientSummary(clients, wiki.url);
  const failed = clients.filter((c) => !c.ok);
  console.log(`clients: ${clients.length - failed.length}/${clients.length} passed`);
  return failed.length ? 1 : 0;
}

async function main() {
  const against = optValue('--against');
  if (against) {
    installDeps();
    process.exit(runClientsAgainst(against));
  }
  // --only-parser: only the parser tests; --no-parser, or choosing suite files or clients
  // (--only, --client), leaves them out.
  // --only-differential: only the differential check against the reference MediaWiki.
  const onlyParser = opt('--only-parser');
  const onlyDifferential = opt('--only-differential');
  const onlySome = onlyParser || onlyDifferential;
  const wantSuite = !opt('--no-suite') && !onlySome;
  const wantClients = !opt('--no-clients') && !onlySome;
  const chosen = optValue('--only') || optValue('--client');
  const wantParser = onlyParser || !(opt('--no-parser') || chosen || onlyDifferential);
  const wantDifferential = onlyDifferential || !(opt('--no-differential') || chosen || onlyParser);
  const fetched = wantSuite || wantParser ? fetchSuite() : null;
  const suiteDir = wantSuite ? fetched.suiteDir : null;
  installDeps();
  let exitCode = 0;
  if (wantSuite || wantClients) exitCode = await runMain(suiteDir, wantClients);
  if (wantParser) exitCode = (await runParser(fetched.mwDir)) || exitCode;
  if (wantDifferential) exitCode = (await runDifferentialCheck()) || exitCode;
  process.exit(exitCode);
}

/** The API suite and the client workflows, against Quire with its defaults. */
async function runMain(suiteDir, wantClients) {
  const quire = await startQuire();
  let exitCode = 1;
  try {
    const rootUser = { name: 'Root', password: `root-${crypto.randomBytes(9).toString('hex')}` };
    admin(quire, ['createAndPromote', rootUser.name, rootUser.password, '--groups', 'sysop,bureaucrat,interface-admin']);
    let suite = { passed: 0, failed: 0, ok: true };
    if (suiteDir) suite = await runSuite(quire, suiteDir, rootUser);
    let clients = [];
    let clientRatchet = { ok: true };
    if (wantClients) {
      const wiki = { url: quire.url, user: rootUser.name, password: rootUser.password, ...createBotPassword(quire, rootUser.name, 'conformance') };
      if (opt('--keep')) log(`client env: WIKI_URL=${wiki.url} WIKI_USER=${wiki.user} WIKI_PASSWORD=${wiki.password} WIKI_BOT_USER=${wiki.botUser} WIKI_BOT_PASSWORD=${wiki.botPassword}`);
      clients = runClients(wiki);
      printClientSummary(clients, 'Quire');
      clientRatchet = checkClientRatchet(clients);
    }
    if (quire.child.exitCode !== null) throw new Error(`Quire died during the run (exit ${quire.child.exitCode}); log: ${quire.logFile}`);
    if (opt('--write-ratchet')) writeRatchet(suiteDir ? suite.results : null, wantClients ? clients : null);
    const steps = clients.flatMap((c) => c.steps);
    const stepFails = steps.filter((s) => !s.ok);
    console.log('');
    if (clients.length) console.log(`clients: ${clients.filter((c) => c.ok).length}/${clients.length} passed, ${steps.length - stepFails.length}/${steps.length} steps`);
    if (suiteDir) console.log(`api-testing: ${suite.passed} passed, ${suite.failed} failed, ${suite.pending} pending`);
    exitCode = suite.ok && clientRatchet.ok ? 0 : 1;
    const passed = suite.passed + steps.length - stepFails.length;
    const failed = suite.failed + stepFails.length;
    console.log(`conformance: ${passed} passed, ${failed} failed`);
    if (exitCode) console.log('conformance: FAILED (see above: an unlisted failure or a listed test or client step that passes)');
  } finally {
    if (opt('--keep')) log(`left running at ${quire.url} (pid ${quire.child.pid})`);
    else await quire.stop();
  }
  return exitCode;
}

/**
 * MediaWiki's parser tests (parser-tests/), against a second Quire started the same way with the
 * site settings ParserTestRunner gives every test and Quire has a setting for (runner.mjs
 * SITE_SETTINGS) and its interwiki table (INTERWIKI_TABLE, a file written from
 * appendInterwikiSetup). A test
 * whose `!! config` or options name a setting Quire has (parser-tests/runner.mjs CONFIG_SETTINGS,
 * OPTION_SETTINGS) runs against one more Quire started with it, one per distinct set.
 * Options: --parser-file <substring of a file id>, --parser-test <substring of a test name>,
 * --write-parser-ratchet.
 */
async function runParser(mwDir) {
  // The runner's own tests first (reader, option mapping, normalization, ratchet file): they need
  // this folder's dependencies (domino), so they run here rather than in npm test.
  const own = spawnSync(process.execPath, ['--test', path.join(here, 'parser-tests', 'parser-tests.test.mjs')], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  const summary = (own.stdout ?? '').split('\n').filter((l) => /^# (pass|fail)/.test(l));
  log(`parser-test runner's own tests: ${summary.join(', ')}`);
  if (own.status !== 0) {
    console.log(own.stdout);
    return 1;
  }
  const interwikiFile = path.join(cache, 'parser-test-interwiki.json');
  fs.writeFileSync(interwikiFile, `${JSON.stringify(parserTestInterwikis(mwDir), null, 1)}\n`);
  const site = { ...SITE_SETTINGS, INTERWIKI_TABLE: interwikiFile };
  const ratchetFile = path.join(here, 'parser-ratchet.txt');
  // One Quire per distinct set of a test's own settings (its `!! config` and options), each started
  // as this one with those settings on top. The first (the site's own settings) is set up from
  // scratch; each other one starts on a copy of its data folder once it stopped, uploads, articles
  // and account included, so that it costs a start rather than a setup.
  let seed;
  const startWiki = async (env) => {
    const dataDir = seed ? fs.mkdtempSync(path.join(os.tmpdir(), 'quire-conformance-')) : undefined;
    // Not its log: startQuire waits for the ready line in it.
    if (dataDir) fs.cpSync(seed.dataDir, dataDir, { recursive: true, filter: (src) => path.basename(src) !== 'quire.log' });
    const quire = await startQuire({ ...site, ...env }, dataDir);
    const rootUser = seed?.rootUser ?? { name: 'Root', password: `root-${crypto.randomBytes(9).toString('hex')}` };
    try {
      if (!seed) admin(quire, ['createAndPromote', rootUser.name, rootUser.password, '--groups', 'sysop,bureaucrat,interface-admin']);
    } catch (e) {
      await quire.stop();
      throw e;
    }
    const seeded = seed !== undefined;
    return {
      url: quire.url,
      user: rootUser.name,
      password: rootUser.password,
      seeded,
      stop: async () => {
        if (quire.child.exitCode !== null) throw new Error(`Quire died during the parser tests (exit ${quire.child.exitCode}); log: ${quire.logFile}`);
        if (opt('--keep')) return log(`left running at ${quire.url} (pid ${quire.child.pid})`);
        await quire.stop();
        if (!seeded) seed = { dataDir: quire.dataDir, rootUser };
        else fs.rmSync(quire.dataDir, { recursive: true, force: true });
      },
    };
  };
  const report = await runParserTests({ startWiki, mwDir, fileFilter: optValue('--parser-file'), testFilter: optValue('--parser-test'), log });
  printParserReport(report);
  if (opt('--write-parser-ratchet')) {
    writeParserRatchet(report.results, ratchetFile);
    log('wrote conformance/parser-ratchet.txt');
  }
  const check = checkParserRatchet(report.results, ratchetFile);
  if (!check.ok) console.log('parser tests: FAILED (see above: an unlisted failure or a listed test that passes)');
  return check.ok ? 0 : 1;
}

/** The reference MediaWiki 1.39 (reference/setup.sh), started when nothing answers at REFERENCE_URL. */
async function ensureReference() {
  const url = (process.env.REFERENCE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
  const version = async () => {
    try {
      const r = await fetch(`${url}/w/api.php?action=query&meta=siteinfo&format=json&formatversion=2`, { signal: AbortSignal.timeout(10_000) });
      return (await r.json()).query?.general?.generator ?? '';
    } catch {
      return '';
    }
  };
  let generator = await version();
  if (!generator && !process.env.REFERENCE_URL) {
    log('starting the reference MediaWiki 1.39 (conformance/reference/setup.sh: Debian packages on the first run)');
    run('bash', [path.join(here, 'reference', 'setup.sh')], { stdio: ['ignore', 'ignore', 'inherit'] });
    generator = await version();
  }
  if (!/^MediaWiki 1\.39\./.test(generator)) throw new Error(`no MediaWiki 1.39 answers at ${url} (generator: ${JSON.stringify(generator)})`);
  log(`reference: ${generator} at ${url}`);
  return { url, admin: { name: process.env.REFERENCE_USER ?? 'Admin', password: process.env.REFERENCE_PASSWORD ?? 'adminpass123456' } };
}

/**
 * The differential check (differential.mjs): the same data in a fresh Quire, started as `npm
 * start` runs it, and in the reference MediaWiki; the same reads; differences against
 * differential-ratchet.txt. --write-differential-ratchet rewrites that file.
 */
async function runDifferentialCheck() {
  const reference = await ensureReference();
  const quire = await startQuire();
  try {
    const rootUser = { name: 'Root', password: `root-${crypto.randomBytes(9).toString('hex')}` };
    admin(quire, ['createAndPromote', rootUser.name, rootUser.password, '--groups', 'sysop,bureaucrat']);
    const ok = await runDifferential({
      quire: { url: quire.url, admin: rootUser },
      reference,
      writeRatchet: opt('--write-differential-ratchet'),
      verbose: opt('--verbose'),
      dump: optValue('--differential-dump'),
    });
    if (quire.child.exitCode !== null) throw new Error(`Quire died during the differential check (exit ${quire.child.exitCode}); log: ${quire.logFile}`);
    if (!ok) console.log('differential check: FAILED (see above: a difference not listed, or a listed request that answers the same)');
    return ok ? 0 : 1;
  } finally {
    if (opt('--keep')) log(`left running at ${quire.url} (pid ${quire.child.pid})`);
    else await quire.stop();
  }
}

/** A bot password for the client workflows, as an operator makes one with the admin CLI. */
function createBotPassword(quire, user, appId) {
  const grants = 'basic,highvolume,editpage,editprotected,createeditmovepage,uploadfile,uploadeditmovefile,delete,protect,rollback,patrol,blockusers';
  const out = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', 'createBotPassword', user, appId, '--grants', grants], { cwd: root, env: quire.env, encoding: 'utf8' });
  // The CLI prints `Bot password for <user>@<app> (grants …):` and then the password alone on
  // the last line.
  const lines = (out.stdout ?? '').trim().split('\n');
  const header = /^Bot password for (.+) \(grants .*\):$/.exec(lines.at(-2) ?? '');
  const password = lines.at(-1)?.trim() ?? '';
  if (out.status !== 0 || !header || !/^[a-z0-9]{32}$/.test(password)) throw new Error(`createBotPassword failed: ${out.stdout}${out.stderr}`);
  return { botUser: header[1], botPassword: password };
}

main().catch((e) => {
  console.error(`[conformance] ${e.stack || e}`);
  process.exit(1);
});
