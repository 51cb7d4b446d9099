/*
 * IPUtils::sanitizeIP (wikimedia/ip-utils) for User: and User talk: titles: one canonical
 * spelling per IP address, so that every form of an anonymous editor's address names one page.
 */

const IPV4_BYTE = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|0?[0-9]?[0-9])';
const IPV4 = new RegExp(`^${IPV4_BYTE}\\.${IPV4_BYTE}\\.${IPV4_BYTE}\\.${IPV4_BYTE}(?:/(?:3[0-2]|[12][0-9]|[0-9]))?$`);
const IPV6_WORD = /^[0-9A-Fa-f]{1,4}$/;
const IPV6_PREFIX = /^(?:12[0-8]|1[01][0-9]|[1-9][0-9]|[0-9])$/;

/** IPUtils' RE_IPV6_ADD (written with PCRE conditionals there) as a plain check. */
function isIPv6Address(addr: string): boolean {
  if (addr === '::') return true;
  const gaps = addr.split('::');
  if (gaps.length > 2) return false;
  const words = (part: string) => (part === '' ? [] : part.split(':'));
  if (gaps.length === 1) {
    const all = words(addr);
    return all.length === 8 && all.every((w) => IPV6_WORD.test(w));
  }
  const [head, tail] = [words(gaps[0]!), words(gaps[1]!)];
  const all = [...head, ...tail];
  return all.length >= 1 && all.length <= 7 && all.every((w) => IPV6_WORD.test(w));
}

function isIPv6(ip: string): boolean {
  const slash = ip.indexOf('/');
  if (slash === -1) return isIPv6Address(ip);
  return isIPv6Address(ip.slice(0, slash)) && IPV6_PREFIX.test(ip.slice(slash + 1));
}

/** Returns the canonical form of an IPv4/IPv6 address or range; other text is returned trimmed. */
export function sanitizeIP(text: string): string {
  const ip = text.trim();
  if (IPV4.test(ip)) return ip.replace(/(?:^|(?<=\.))0+(?=[1-9]|0[./]|0$)/g, '');
  if (!isIPv6(ip)) return ip;
  let out = ip.toUpperCase();
  const abbrev = out.indexOf('::');
  if (abbrev !== -1) {
    const cidr = out.indexOf('/');
    const addressEnd = (cidr !== -1 ? cidr : out.length) - 1;
    const colons = out.split(':').length - 1;
    let fill: string;
    if (abbrev === 0) fill = '0:'.repeat(9 - colons) + (out === '::' ? '0' : '');
    else if (abbrev === addressEnd - 1) fill = ':0'.repeat(9 - colons);
    else fill = `${':0'.repeat(8 - colons)}:`;
    out = out.replace('::', fill);
  }
  return out.replace(/(^|:)0+([0-9A-Fa-f]{1,4})/g, '$1$2');
}
