/*
 * IP addresses of anonymous actors against a CIDR range (uciprange), with MediaWiki's IPUtils::toHex
 * as the order: IPv4 as 8 upper-case hex digits, IPv6 as "v6-" and 32. node:net's BlockList does
 * the range test, so every spelling of an address matches.
 */
import net from 'node:net';

/** IPUtils::toHex of a valid address ("" for anything else). */
export function ipHex(ip: string): string {
  const v = net.isIP(ip);
  if (v === 4)
    return ip
      .split('.')
      .map((o) => Number(o).toString(16).padStart(2, '0'))
      .join('')
      .toUpperCase();
  if (v !== 6) return '';
  const [head = '', tail] = ip.split('::');
  const parts = (s: string) => (s ? s.split(':') : []);
  const h = parts(head);
  const t = tail === undefined ? [] : parts(tail);
  const groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return `v6-${groups
    .map((g) => g.padStart(4, '0'))
    .join('')
    .toUpperCase()}`;
}

/** The addresses among `names` inside `range` (a valid CIDR; the gateway checked it). */
export function ipsInRange(names: readonly string[], range: string): string[] {
  const [base = '', bits = ''] = range.split('/');
  const type = net.isIP(base) === 6 ? 'ipv6' : 'ipv4';
  const list = new net.BlockList();
  try {
    list.addSubnet(base, Number(bits), type);
  } catch {
    return [];
  }
  return names.filter((n) => net.isIP(n) === net.isIP(base) && list.check(n, type));
}
