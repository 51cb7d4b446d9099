import { loadConfig, v, ConfigError, DEFAULT_GRPC_PORTS, type ConfigOf } from '@quire/kit';
import { compileTrustedProxies, type ProxyTrust } from './client-ip.js';
import { currentRequestServer } from './request-server.js';

/** Gateway configuration: where it listens, where the services are, and the wiki's site settings. */
export const gatewayConfigSpec = {
  port: v.port(['PORT'], { default: 8080 }),
  host: v.string(['HOST'], { default: '0.0.0.0' }),
  authAddr: v.string(['AUTH_GRPC_ADDR'], { default: `127.0.0.1:${DEFAULT_GRPC_PORTS.auth}` }),
  contentAddr: v.string(['CONTENT_GRPC_ADDR'], { default: `127.0.0.1:${DEFAULT_GRPC_PORTS.content}` }),
  searchAddr: v.string(['SEARCH_GRPC_ADDR'], { default: `127.0.0.1:${DEFAULT_GRPC_PORTS.search}` }),
  /** Public base URL, e.g. https://wiki.example.org; unset, the address each request was made to (request-server.ts). */
  server: v.url(['WIKI_SERVER'], { protocols: ['http', 'https'] }),
  sitename: v.string(['WIKI_NAME'], { default: 'Quire' }),
  wikiId: v.string(['WIKI_ID'], { default: 'quire' }),
  /**
   * The logo in the header ($wgLogos['1x']): a path on this wiki's own origin, e.g.
   * /w/images/a/ab/Logo.png (pages allow images from their own origin only); "" for none.
   */
  logo: v.string(['WIKI_LOGO'], { default: '' }),
  lang: v.string(['WIKI_LANG'], { default: 'en' }),
  /** Comma-separated origins allowed for CORS with credentials (MediaWiki's $wgCrossSiteAJAXdomains). */
  corsOrigins: v.string(['CORS_ORIGINS'], { default: '' }),
  /** Seconds of Cache-Control max-age on REST page reads. */
  restMaxAge: v.int(['REST_MAX_AGE'], { default: 5, min: 0 }),
  /** Hostname reported by servedby. */
  servedBy: v.string(['SERVED_BY', 'HOSTNAME'], { default: 'quire' }),
  maxArticleSizeKb: v.int(['MAX_ARTICLE_SIZE_KB'], { default: 2048, min: 1 }),
  /** $wgMaxUploadSize in bytes; the content service reads the same variable. */
  uploadMaxBytes: v.int(['UPLOAD_MAX_BYTES'], { default: 50 * 1024 * 1024, min: 1 }),
  /** Seconds of Cache-Control max-age on title completion (MediaWiki's $wgSearchSuggestCacheExpiry). */
  searchSuggestMaxAge: v.int(['SEARCH_SUGGEST_MAX_AGE'], { default: 1200, min: 0 }),
  /** The data folder whose secret.key the services share when SECRET_KEY is unset (Special:RunJobs signatures). */
  dataDir: v.string(['DATA_DIR'], { default: './data' }),
  secretKey: v.string(['SECRET_KEY']),
  /** Also serve MediaWiki's coreDevelopmentRoutes.json (/w/rest.php/coredev/v0/…), as $wgRestAPIAdditionalRouteFiles does. */
  restDevRoutes: v.bool(['REST_DEV_ROUTES'], { default: false }),
  /**
   * Comma-separated CIDRs (or addresses) of the proxies in front of the gateway ($wgCdnServers):
   * only a peer in the list has its X-Forwarded-For / X-Forwarded-Proto believed.
   */
  trustedProxies: v.string(['TRUSTED_PROXIES'], { default: '' }),
  /**
   * Whether a request's X-Request-Id (when plain) becomes its id ($wgAllowExternalReqID): on by
   * default, for the proxy or mesh in front; off, every request gets a fresh id, as MediaWiki's
   * default.
   */
  allowExternalRequestId: v.bool(['ALLOW_EXTERNAL_REQUEST_ID'], { default: true }),
  /** Prometheus metrics port (kit's metricsConfigSpec reads it too); never the public PORT. */
  metricsPort: v.port(['METRICS_PORT']),
  /** $wgJobQueueIncludeInMaxLagFactor: jobs per second of lag; 0 leaves the job queue out of maxlag (MediaWiki's default). */
  jobQueueMaxLagFactor: v.int(['JOB_QUEUE_MAXLAG_FACTOR'], { default: 0, min: 0 }),
};

/** `secretKey` is "" until startGateway resolves it as the services do (SECRET_KEY, else DATA_DIR/secret.key). */
export type GatewayConfig = ConfigOf<typeof gatewayConfigSpec> & {
  /**
   * The wiki's URL ($wgServer): WIKI_SERVER, else the address of the request being served, else
   * (outside a request) `http://localhost:PORT`. Assigning it sets that last fallback.
   */
  server: string;
  /** WIKI_SERVER was given: the URL does not follow the request. */
  serverFixed: boolean;
  corsOriginList: string[];
  secretKey: string;
  /** TRUSTED_PROXIES compiled; absent means no proxy is trusted. */
  isTrustedProxy?: ProxyTrust;
};

const commaList = (raw: string) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const c = loadConfig(gatewayConfigSpec, env);
  let isTrustedProxy: ProxyTrust;
  try {
    isTrustedProxy = compileTrustedProxies(commaList(c.trustedProxies));
  } catch (e) {
    throw new ConfigError([`TRUSTED_PROXIES=${JSON.stringify(c.trustedProxies)}: ${(e as Error).message} (expected comma-separated CIDRs, e.g. 10.0.0.0/8,::1/128)`]);
  }
  // The metrics must never be reachable on the public port (they would be served to anyone).
  if (c.metricsPort !== undefined && c.metricsPort !== 0 && c.metricsPort === c.port) {
    throw new ConfigError([`METRICS_PORT=${c.metricsPort} is the public PORT: metrics are served on a port of their own`]);
  }
  // The header's <img>: the page's CSP (img-src 'self') would refuse another origin's image.
  if (c.logo !== '' && !/^\/(?![/\\])[^\s"<>]*$/.test(c.logo)) {
    throw new ConfigError([`WIKI_LOGO=${JSON.stringify(c.logo)}: expected a path on the wiki's own origin, e.g. /w/images/a/ab/Logo.png`]);
  }
  const fixed = c.server?.replace(/\/$/, '');
  let fallback = fixed ?? `http://localhost:${c.port}`;
  const config = {
    ...c,
    isTrustedProxy,
    serverFixed: fixed !== undefined,
    secretKey: c.secretKey ?? '',
    corsOriginList: commaList(c.corsOrigins),
  } as GatewayConfig;
  Object.defineProperty(config, 'server', {
    enumerable: true,
    get: () => fixed ?? currentRequestServer() ?? fallback,
    set: (url: string) => {
      fallback = url.replace(/\/$/, '');
    },
  });
  return config;
}

/** Path layout, as MediaWiki's $wgScriptPath / $wgArticlePath. */
export const SCRIPT_PATH = '/w';
export const ARTICLE_PATH = '/wiki/$1';
