/* String encodings MediaWiki applies to titles and URLs, reproduced byte for byte. */

/** PHP rawurlencode: RFC 3986 — everything but A-Z a-z 0-9 - _ . ~ is percent-encoded. */
export function rawurlencode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** MediaWiki's wfUrlencode: rawurlencode, then `;@$!*(),/~:` are left readable (title URLs). */
export function wfUrlencode(s: string): string {
  return rawurlencode(s).replace(/%(3B|40|24|21|2A|28|29|2C|2F|7E|3A)/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Splits a multi-value parameter as ParamValidator does: `a|b` or, when it starts with U+001F, `\x1fa\x1fb`. */
export function splitMultiValue(raw: string): string[] {
  return raw.startsWith('\x1f') ? raw.slice(1).split('\x1f') : raw.split('|');
}

/**
 * MediaWiki's input cleanup of every request value (WebRequest → UtfNormal\Validator::cleanUp):
 * C0 controls other than HT, LF and CR and U+FFFE/U+FFFF become U+FFFD, then NFC.
 */
export function cleanUpText(s: string): string {
  return s.replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]/g, '\ufffd').normalize('NFC');
}

/**
 * cleanUpText for a parameter value; a multi-value given in the U+001F form keeps its separators
 * (ApiParamValidatorCallbacks::getValue).
 */
export function cleanUpParamValue(raw: string): string {
  return raw.startsWith('\x1f') ? raw.split('\x1f').map(cleanUpText).join('\x1f') : cleanUpText(raw);
}

/** True when MediaWiki's input cleanup (NFC, no C0 controls but HT/LF/CR) leaves the text unchanged. */
export function isCleanText(s: string): boolean {
  return s === s.normalize('NFC') && !/[\x00-\x08\x0b\x0c\x0e-\x1f]/.test(s);
}

/** htmlspecialchars( $s, ENT_NOQUOTES ). */
export function escapeHtmlNoQuotes(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** ISO 8601 without fractional seconds, as wfTimestamp( TS_ISO_8601 ) prints it. */
export function isoTimestamp(ts: string): string {
  const ms = Date.parse(ts);
  return Number.isNaN(ms) ? ts : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** TS_MW (YYYYMMDDHHMMSS), the form MediaWiki puts in continuation values. */
export function mwTimestamp(ts: string): string {
  return isoTimestamp(ts).replace(/[-:TZ]/g, '');
}
