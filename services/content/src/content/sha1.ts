import crypto from 'node:crypto';

/** SHA-1 of the UTF-8 text in base 36, zero-padded to 31 digits: MediaWiki's rev_sha1 format. */
export function sha1Base36(text: string): string {
  const hex = crypto.createHash('sha1').update(text, 'utf8').digest('hex');
  return BigInt(`0x${hex}`).toString(36).padStart(31, '0');
}
