/*
 * The wiki's own URL ($wgServer). Set (WIKI_SERVER), it is fixed. Unset, it is the address the
 * client used, as MediaWiki's WebRequest::detectServer takes it from the request: the Host header
 * and the scheme (X-Forwarded-Proto and X-Forwarded-Host believed only from a trusted proxy). So
 * a client that reached the wiki as http://127.0.0.1:8080 gets links it can follow with its
 * cookies, not ones to http://localhost:8080.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage } from 'node:http';
import { clientProtocol, type ProxyTrust } from './client-ip.js';

const storage = new AsyncLocalStorage<string>();

/** A host and optional port as IPUtils::splitHostAndPort accepts them (a name, IPv4, or [IPv6]). */
const HOST_AND_PORT = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*\.?)(?::(\d{1,5}))?$/;

function first(header: string | string[] | undefined): string | undefined {
  return (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
}

/**
 * The server a request names (scheme://host[:port], the port left out when it is the scheme's
 * default), or undefined when its Host is missing or not a host name.
 */
export function detectServer(req: IncomingMessage, trust: ProxyTrust | undefined): string | undefined {
  const proto = clientProtocol(req, trust);
  const standard = proto === 'https' ? 443 : 80;
  const peer = req.socket.remoteAddress;
  const fromProxy = peer !== undefined && trust?.(peer, 0) === true;
  const given = (fromProxy ? first(req.headers['x-forwarded-host']) : undefined) ?? first(req.headers.host);
  const m = given ? HOST_AND_PORT.exec(given) : null;
  if (!m) return undefined;
  const host = m[1]!.toLowerCase().replace(/\.$/, '');
  // $wgAssumeProxiesUseDefaultProtocolPorts: behind a proxy that said the scheme, its default port.
  const port = m[2] !== undefined ? Number(m[2]) : fromProxy && req.headers['x-forwarded-proto'] ? standard : (req.socket.localPort ?? standard);
  if (port < 1 || port > 65535) return undefined;
  return `${proto}://${host}${port === standard ? '' : `:${port}`}`;
}

/** Runs `fn` (the request's handling) with `server` as the wiki's URL. */
export function runWithServer<T>(server: string | undefined, fn: () => T): T {
  return server === undefined ? fn() : storage.run(server, fn);
}

/**
 * Wraps a request handler so that, when the wiki's URL follows the request (no WIKI_SERVER), it
 * runs with the URL this request was made to. Nested use keeps the outer one's.
 */
export function withRequestServer<A extends unknown[]>(
  config: { serverFixed: boolean; isTrustedProxy?: ProxyTrust },
  handler: (req: IncomingMessage, ...rest: A) => void,
): (req: IncomingMessage, ...rest: A) => void {
  if (config.serverFixed) return handler;
  return (req, ...rest) => (storage.getStore() !== undefined ? handler(req, ...rest) : runWithServer(detectServer(req, config.isTrustedProxy), () => handler(req, ...rest)));
}

/** The URL of the request being served, when the wiki's URL follows the request. */
export function currentRequestServer(): string | undefined {
  return storage.getStore();
}
