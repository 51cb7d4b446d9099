/*
 * The admin CLI, like MediaWiki's maintenance scripts:
 *   npm run admin -- createAndPromote <name> <password> [--groups sysop,bureaucrat,bot]
 *   npm run admin -- createBotPassword <user> <botname> --grants basic,editpage,…
 *   npm run admin -- changePassword <name> <password>
 *   npm run admin -- enableTOTP <name> | disableTOTP <name>
 *   npm run admin -- createOAuthConsumer --user U --name N --version V --description D \
 *       --callbackUrl URL --grants basic,editpage --oauthVersion 1|2 [--ownerOnly] [--approve] [--json]
 *   npm run admin -- dumpBackup --full|--current [--namespaces 0,1] [--output FILE.xml(.gz)]
 *   npm run admin -- importDump FILE|- [--namespaces 0,1] [--skip-to N] [--dry-run] [--username-prefix P] [--no-local-users] [--max-article-size-kb N]
 *   npm run admin -- rebuildSearchIndex [--engine sql|meilisearch]
 * It talks to the auth service over gRPC: the one of a running stack on the same DATA_DIR
 * (DATA_DIR/run/services.json), or one it starts itself on the data folder for the command.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, makeClient, resolveSecretKey, runMain, serviceConfigSpec, signServiceCallsWith, startService, type RunningService } from '@quire/kit';
import { AuthServiceClient } from '@quire/proto/wiki/auth/v1/auth';
import { authService } from '@quire/auth/server';
import { AuthClient } from '@quire/gateway/clients/index';
import { OAuthClient } from '@quire/gateway/clients/oauth';
import { contentService } from '@quire/content/server';
import { searchService } from '@quire/search/server';
import { SearchServiceClient, type RebuildIndexProgress } from '@quire/proto/wiki/search/v1/search';
import { serviceRegistryPath, type ServiceRegistryFile } from './stack.js';
import { dumpBackup, DumpUsageError, importDumpCommand } from './dumps.js';

const USAGE = `Usage: npm run admin -- <command> … [--create]
  (on the wiki in DATA_DIR, ./data when unset; --create makes a new wiki there if it has none)
  createAndPromote <name> <password> [--groups sysop,bureaucrat,bot]
  createBotPassword <user> <botname> --grants basic,editpage,…
  changePassword <name> <password>
  enableTOTP <name>
  disableTOTP <name>
  createOAuthConsumer --user U --name N --version V --description D --callbackUrl URL [--callbackIsPrefix]
      --grants basic,editpage,… --oauthVersion 1|2 [--ownerOnly] [--approve] [--rsaKey public.pem] [--json]
  dumpBackup --full|--current [--namespaces 0,1] [--output FILE.xml(.gz)]
  importDump FILE|- [--namespaces 0,1] [--skip-to N] [--dry-run] [--username-prefix P] [--no-local-users] [--max-article-size-kb N]
  rebuildSearchIndex [--engine sql|meilisearch]`;

/** Options that take no value (createOAuthConsumer.php's switches). */
const SWITCHES = new Set([
  'help',
  'create',
  'ownerOnly',
  'approve',
  'json',
  'jsonOnSuccess',
  'callbackIsPrefix',
  'oauth2IsConfidential',
  'oauth2IsPublic',
  'full',
  'current',
  'dry-run',
  'no-local-users',
]);

class UsageError extends Error {}

function parse(argv: string[]): { command: string; args: string[]; options: Record<string, string> } {
  const args: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) {
      const [k, inline] = a.slice(2).split('=', 2);
      if (SWITCHES.has(k!) && inline === undefined) {
        options[k!] = 'true';
        continue;
      }
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`--${k} needs a value`);
      // A repeated option adds to a list (createOAuthConsumer.php's --grants may be given several times).
      options[k!] = options[k!] === undefined ? value : `${options[k!]},${value}`;
    } else args.push(a);
  }
  const [command = '', ...rest] = args;
  return { command, args: rest, options };
}

function list(v: string | undefined): string[] {
  return (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function runningAddress(env: NodeJS.ProcessEnv, service: string): string | undefined {
  let reg: ServiceRegistryFile;
  try {
    reg = JSON.parse(fs.readFileSync(serviceRegistryPath(env), 'utf8')) as ServiceRegistryFile;
  } catch {
    return undefined;
  }
  try {
    process.kill(reg.pid, 0); // still alive?
  } catch {
    return undefined;
  }
  return reg.services[service];
}

/**
 * The data folder a command works on, which must hold a wiki (an embedded database that `npm
 * start` made) unless the wiki's data is on a database server or `--create` asks for a new one:
 * without DATA_DIR the CLI would otherwise make an empty ./data beside a wiki that runs elsewhere.
 */
function wikiDataFolder(env: NodeJS.ProcessEnv, options: Record<string, string>): string {
  const dir = path.resolve(loadConfig(serviceConfigSpec('auth'), env).dataDir);
  const onServers = (['auth', 'content', 'search'] as const).some((svc) => loadConfig(serviceConfigSpec(svc), env).databaseUrl);
  if (onServers || options.create === 'true' || fs.existsSync(path.join(dir, 'pgdata'))) return dir;
  throw new UsageError(
    `There is no wiki in ${dir} (${env.DATA_DIR ? 'DATA_DIR' : 'DATA_DIR is unset, so ./data'}). Set DATA_DIR to the data folder of the wiki (the one npm start uses), or add --create to make a new wiki there.`,
  );
}

/** The wiki's secret, which every call to its services is signed with (SECRET_KEY, else the data folder's key). */
function wikiSecret(env: NodeJS.ProcessEnv): string {
  const cfg = loadConfig(serviceConfigSpec('auth'), env);
  return resolveSecretKey(path.resolve(cfg.dataDir), cfg.secretKey);
}

/** The content service of a running stack, or one started on the data folder for the command. */
async function withContent<T>(env: NodeJS.ProcessEnv, fn: (address: string) => Promise<T>): Promise<T> {
  let own: RunningService | undefined;
  let address = runningAddress(env, 'content');
  if (!address) {
    own = await startService(contentService, { ...env, CONTENT_GRPC_HOST: '127.0.0.1', CONTENT_GRPC_PORT: '0', LOG_LEVEL: env.LOG_LEVEL ?? 'warn' });
    address = own.address;
  }
  try {
    return await fn(address);
  } finally {
    await own?.stop();
  }
}

async function withAuth<T>(env: NodeJS.ProcessEnv, fn: (auth: AuthClient, oauth: OAuthClient) => Promise<T>): Promise<T> {
  let own: RunningService | undefined;
  let address = runningAddress(env, 'auth');
  if (!address) {
    own = await startService(authService, { ...env, AUTH_GRPC_HOST: '127.0.0.1', AUTH_GRPC_PORT: '0', LOG_LEVEL: env.LOG_LEVEL ?? 'warn' });
    address = own.address;
  }
  const auth = new AuthClient(makeClient(AuthServiceClient, address));
  const oauth = OAuthClient.connect(address);
  try {
    return await fn(auth, oauth);
  } finally {
    auth.close();
    oauth.close();
    await own?.stop();
  }
}

/**
 * The search service at SEARCH_GRPC_ADDR (a deployed stack, as the gateway names it), of a running
 * embedded stack, or one (query role: no second indexer) started for the command.
 */
async function withSearch<T>(env: NodeJS.ProcessEnv, fn: (search: SearchServiceClient) => Promise<T>): Promise<T> {
  const running = env.SEARCH_GRPC_ADDR || runningAddress(env, 'search');
  const run = async (address: string) => {
    const client = makeClient(SearchServiceClient, address);
    try {
      return await fn(client);
    } finally {
      client.close();
    }
  };
  if (running) return run(running);
  return withContent(env, async (contentAddress) => {
    const own = await startService(searchService, {
      ...env,
      SEARCH_GRPC_HOST: '127.0.0.1',
      SEARCH_GRPC_PORT: '0',
      SEARCH_ROLE: 'query',
      CONTENT_GRPC_ADDR: contentAddress,
      LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
    });
    try {
      return await run(own.address);
    } finally {
      await own.stop();
    }
  });
}

/** `[#####-----] 1200/5000 pages  340 pages/s` */
function progressLine(p: RebuildIndexProgress): string {
  const width = 30;
  const filled = p.pagesTotal > 0 ? Math.min(width, Math.round((p.pagesDone / p.pagesTotal) * width)) : 0;
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${p.pagesDone}/${p.pagesTotal} pages  ${Math.round(p.pagesPerSecond)} pages/s`;
}

/**
 * Streams the search service's RebuildIndex. The bar is redrawn in place on a terminal (stderr),
 * a line per second otherwise; the result goes to `out`.
 */
async function rebuildSearchIndex(env: NodeJS.ProcessEnv, options: Record<string, string>, out: (line: string) => void): Promise<void> {
  const engine = options.engine ?? '';
  if (engine !== '' && engine !== 'sql' && engine !== 'meilisearch') throw new UsageError(`--engine must be sql or meilisearch\n${USAGE}`);
  const tty = process.stderr.isTTY === true;
  let lastDrawn = 0;
  const last = await withSearch(
    env,
    (search) =>
      new Promise<RebuildIndexProgress>((resolve, reject) => {
        let final: RebuildIndexProgress | undefined;
        const call = search.rebuildIndex({ engine });
        call.on('data', (p: RebuildIndexProgress) => {
          if (p.done) final = p;
          else if (tty) process.stderr.write(`\r${progressLine(p)}`);
          else if (Date.now() - lastDrawn >= 1000) {
            lastDrawn = Date.now();
            process.stderr.write(`${progressLine(p)}\n`);
          }
        });
        call.on('error', reject);
        call.on('end', () => (final ? resolve(final) : reject(new Error('the rebuild ended without swapping the new index in'))));
      }),
  );
  if (tty) process.stderr.write('\n');
  out(progressLine(last));
  out(`Rebuilt the ${last.engine} search index: ${last.pagesDone} pages, swapped in; the indexer goes on from change ${last.indexedThrough}.`);
}

function need(args: string[], n: number): void {
  if (args.length < n) throw new UsageError(USAGE);
}

export async function runAdmin(argv: string[], env: NodeJS.ProcessEnv, out: (line: string) => void): Promise<void> {
  const { command, args, options } = parse(argv);
  if (options.help === 'true' || command === 'help' || (command === '' && args.length === 0)) {
    out(USAGE);
    return;
  }
  const arity: Record<string, number> = {
    createAndPromote: 2,
    createBotPassword: 2,
    changePassword: 2,
    enableTOTP: 1,
    disableTOTP: 1,
    createOAuthConsumer: 0,
    dumpBackup: 0,
    importDump: 1,
    rebuildSearchIndex: 0,
  };
  // Checked before anything starts: a typo must not open the data folder.
  if (arity[command] === undefined) throw new UsageError(USAGE);
  need(args, arity[command]);
  const dataFolder = wikiDataFolder(env, options);
  if (!env.DATA_DIR) process.stderr.write(`admin: the wiki in ${dataFolder} (DATA_DIR)\n`);
  // The services of a running wiki answer only callers that hold its secret.
  signServiceCallsWith(wikiSecret(env));
  // Needs content and search, not auth.
  if (command === 'rebuildSearchIndex') return rebuildSearchIndex(env, options, out);
  await withAuth(env, async (auth, oauth) => {
    switch (command) {
      case 'createAndPromote': {
        const [name, password] = args as [string, string];
        const groups = list(options.groups);
        const existing = (await auth.getUsers({ names: [name] })).users[0]?.user;
        let userName = existing?.name;
        if (!existing) {
          const r = await auth.createAccount({ username: name, password, ip: '127.0.0.1', skipThrottle: true });
          if (!r.ok) throw new Error(`cannot create ${name}: ${r.message?.text ?? r.messageCode}`);
          userName = r.user!.name;
          out(`Created account ${userName} (id ${r.user!.id}).`);
        } else {
          out(`Account ${existing.name} exists.`);
        }
        if (groups.length) {
          const r = await auth.changeUserGroups({
            username: userName!,
            userId: 0,
            add: groups.map((group) => ({ group, expiry: 'infinite' })),
            remove: [],
            performerId: 0,
            reason: 'createAndPromote',
            tags: [],
          });
          out(`Groups of ${r.user}: added ${r.added.map((a) => a.group).join(', ')}.`);
        }
        return;
      }
      case 'createBotPassword': {
        const grants = list(options.grants);
        const r = await auth.createBotPassword({ user: args[0]!, appId: args[1]!, grants: grants.length ? grants : ['basic'] });
        out(`Bot password for ${r.botPassword!.user}@${r.botPassword!.appId} (grants ${r.botPassword!.grants.join(', ')}):`);
        out(r.password);
        return;
      }
      case 'changePassword':
        await auth.changePassword({ username: args[0]!, password: args[1]! });
        out(`Password of ${args[0]} changed.`);
        return;
      case 'enableTOTP': {
        const r = await auth.enableTotp({ user: args[0]! });
        out(`Two-factor authentication enabled for ${args[0]}.`);
        out(`secret: ${r.secret}`);
        out(`uri: ${r.uri}`);
        return;
      }
      case 'disableTOTP':
        await auth.disableTotp({ user: args[0]! });
        out(`Two-factor authentication disabled for ${args[0]}.`);
        return;
      case 'createOAuthConsumer':
        await createOAuthConsumer(auth, oauth, options, out);
        return;
      case 'dumpBackup':
        // The XML goes to stdout without --output, so the report goes to stderr.
        await withContent(env, (address) => dumpBackup(address, env, options, options.output ? out : (l) => process.stderr.write(`${l}\n`)));
        return;
      case 'importDump':
        await withContent(env, (address) => importDumpCommand(address, auth, args, options, out));
        return;
      default:
        throw new UsageError(USAGE);
    }
  });
}

/** MediaWiki's OAuth extension's createOAuthConsumer.php; with --json the last line is the JSON result. */
async function createOAuthConsumer(auth: AuthClient, oauth: OAuthClient, options: Record<string, string>, out: (line: string) => void): Promise<void> {
  for (const required of ['user', 'name', 'version', 'description', 'grants']) {
    if (!options[required]) throw new UsageError(`--${required} is required\n${USAGE}`);
  }
  const ownerOnly = options.ownerOnly === 'true';
  if (!ownerOnly && !options.callbackUrl) throw new UsageError(`--callbackUrl is required unless --ownerOnly\n${USAGE}`);
  const oauthVersion = Number(options.oauthVersion ?? '1');
  if (oauthVersion !== 1 && oauthVersion !== 2) throw new UsageError('--oauthVersion must be 1 or 2');
  const user = (await auth.getUsers({ names: [options.user!] })).users[0]?.user;
  if (!user) throw new Error(`no such user: ${options.user}`);
  const r = await oauth.proposeConsumer({
    userId: user.id,
    name: options.name!,
    version: options.version!,
    description: options.description!,
    callbackUrl: options.callbackUrl ?? '',
    callbackIsPrefix: options.callbackIsPrefix === 'true',
    oauthVersion,
    grants: list(options.grants),
    ownerOnly,
    approve: options.approve === 'true',
    oauth2Public: options.oauth2IsPublic === 'true',
    // A PEM public key file: the consumer signs with RSA-SHA1.
    rsaKey: options.rsaKey ? fs.readFileSync(options.rsaKey, 'utf8') : '',
  });
  const c = r.consumer!;
  const result: Record<string, unknown> = { created: true, id: c.id, name: c.name, key: c.key, secret: r.secret, approved: c.stage === 1 ? 1 : 0 };
  if (r.accessToken) result.accessToken = r.accessToken;
  if (r.accessSecret) result.accessSecret = r.accessSecret;
  if (options.json === 'true' || options.jsonOnSuccess === 'true') {
    out(JSON.stringify(result));
    return;
  }
  out(`Created OAuth ${oauthVersion === 1 ? '1.0a' : '2.0'} consumer "${c.name}" ${c.version} of ${c.ownerName}${c.stage === 1 ? ' (approved)' : ' (proposed)'}.`);
  out(`key: ${c.key}`);
  out(`secret: ${r.secret}`);
  if (r.accessToken) out(`access token: ${r.accessToken}`);
  if (r.accessSecret) out(`access secret: ${r.accessSecret}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runMain(async () => {
    try {
      await runAdmin(process.argv.slice(2), process.env, (line) => process.stdout.write(`${line}\n`));
    } catch (e) {
      if (e instanceof UsageError || e instanceof DumpUsageError) {
        process.stderr.write(`${e.message}\n`);
        process.exit(2);
      }
      const msg = e instanceof Error ? e.message : String(e);
      process.stderr.write(`admin: ${msg}\n`);
      process.exit(1);
    }
  });
}
