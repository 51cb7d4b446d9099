/*
 * Who the client is when the gateway sits behind proxies (MediaWiki's WebRequest::getIP with
 * $wgCdnServers / ProxyLookup): only when the direct peer is a trusted proxy is X-Forwarded-For
 * believed, walked right to left while each hop is itself trusted; X-Forwarded-Proto likewise.
 * Matching is proxy-addr's (the library behind express's `trust proxy`, CIDRs via ipaddr.js).
 */
import net from 'node:net';
import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';

/** Whether `addr` (the hop at index `hop`, 0 = the direct peer) is a trusted proxy. */
export type ProxyTrust = (addr: string, hop: number) => boolean;

const trustNone: ProxyTrust = () => false;

/**
 * The trust function of a TRUSTED_PROXIES list (CIDRs or plain addresses). Throws a TypeError
 * naming the entry when one is not an address or range.
 */
export function compileTrustedProxies(list: readonly string[]): ProxyTrust {
  return list.length === 0 ? trustNone : proxyaddr.compile([...list]);
}

/** An address as MediaWiki shows it: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as plain IPv4. */
function plainAddress(addr: string): string {
  return addr.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}

/**
 * The client's address: the direct peer, or, when it is trusted, the first X-Forwarded-For hop
 * (from the right) that is not a trusted proxy. A hop that is not an IP address ("unknown", junk)
 * ends the walk at the last trusted proxy, as MediaWiki does, rather than becoming the client.
 */
export function clientAddress(req: IncomingMessage, trust: ProxyTrust | undefined): string {
  const peer = req.socket.remoteAddress;
  if (!peer) return '127.0.0.1';
  const chain = proxyaddr.all(req, trust ?? trustNone);
  let ip = plainAddress(peer);
  for (const hop of chain.slice(1)) {
    const candidate = plainAddress(hop.trim());
    if (net.isIP(candidate) === 0) break;
    ip = candidate;
  }
  return ip;
}

/** The protocol the client used: X-Forwarded-Proto's first value only from a trusted peer. */
export function clientProtocol(req: IncomingMessage, trust: ProxyTrust | undefined): 'http' | 'https' {
  const own = 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http';
  const peer = req.socket.remoteAddress;
  if (!peer || !(trust ?? trustNone)(peer, 0)) return own;
  const header = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https' ? 'https' : first === 'http' ? 'http' : own;
}
