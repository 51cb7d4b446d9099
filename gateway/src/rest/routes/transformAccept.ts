/*
 * Content negotiation of Parsoid's transforms (ParsoidHandler::acceptable with MediaWiki's
 * HttpAcceptParser and Parsoid::resolveContentVersion): which HTML spec version the response is
 * written in, or none when nothing the client accepts can be produced (406).
 */

/** The HTML versions Parsoid 0.16 produces, the default first (Parsoid::AVAILABLE_VERSIONS). */
export const AVAILABLE_HTML_VERSIONS = ['2.6.0', '999.0.0'] as const;
export const DEFAULT_HTML_VERSION = AVAILABLE_HTML_VERSIONS[0];

/** ParsoidHandler::NEW_SPEC: a profile naming a spec and its version. */
const SPEC_PROFILE = /^https:\/\/www\.mediawiki\.org\/wiki\/Specs\/(HTML|pagebundle)\/(\d+\.\d+\.\d+)$/;

interface AcceptedType {
  type: string;
  subtype: string;
  q: number;
  params: Record<string, string>;
}

/** HttpAcceptParser::parseAccept: media ranges with their parameters, by q-value then order. */
export function parseAccept(header: string): AcceptedType[] {
  const out: (AcceptedType & { index: number })[] = [];
  header.split(',').forEach((part, index) => {
    const m = /^([^\s/;]+)\/([^;\s]+)\s*(?:;(.*))?$/.exec(part.trim());
    if (!m) return;
    let q = 1;
    const params: Record<string, string> = {};
    for (const kv of (m[3] ?? '').split(';')) {
      const eq = kv.trim().indexOf('=');
      if (eq < 0) continue;
      const key = kv.trim().slice(0, eq).trim().toLowerCase();
      let value = kv
        .trim()
        .slice(eq + 1)
        .trim();
      if (key === 'q') {
        // PHP's (float) cast: the leading number, else 0.
        q = Number(/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(value)?.[0] ?? 0);
        continue;
      }
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
      params[key] = value;
    }
    out.push({ type: m[1]!, subtype: m[2]!, q, params, index });
  });
  return out.sort((a, b) => b.q - a.q || a.index - b.index);
}

/** Parsed x.y.z (all three parts are present: SPEC_PROFILE requires them). */
const versionParts = (v: string) => v.split('.').map(Number) as [number, number, number];

function compareVersions(a: string, b: string): number {
  const [x, y] = [versionParts(a), versionParts(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/** Semver caret range: `candidate` satisfies `^base`. */
function satisfiesCaret(candidate: string, base: string): boolean {
  if (compareVersions(candidate, base) < 0) return false;
  const [major, minor, patch] = versionParts(base);
  const upper = major > 0 ? `${major + 1}.0.0` : minor > 0 ? `0.${minor + 1}.0` : `0.0.${patch + 1}`;
  return compareVersions(candidate, upper) < 0;
}

/**
 * Parsoid::resolveContentVersion: the first version Parsoid produces that satisfies `^version`;
 * versions before 1.6.0 (before section wrapping) are never served.
 */
export function resolveContentVersion(version: string): string | undefined {
  if (compareVersions(version, '1.6.0') < 0) return undefined;
  return AVAILABLE_HTML_VERSIONS.find((available) => satisfiesCaret(available, version));
}

/**
 * ParsoidHandler::acceptable for an output format: the HTML version to write (the default when
 * the Accept header names none), or undefined when the answer must be 406. Wikitext is always
 * acceptable; other formats only through a matching type or a wildcard, as MediaWiki decides.
 */
export function acceptableVersion(format: string, acceptHeader: string | undefined): string | undefined {
  if (format === 'wikitext' || !acceptHeader) return DEFAULT_HTML_VERSION;
  const types = parseAccept(acceptHeader);
  if (types.length === 0) return DEFAULT_HTML_VERSION;
  for (const t of types) {
    const type = `${t.type}/${t.subtype}`;
    if ((format === 'html' && type === 'text/html') || (format === 'pagebundle' && type === 'application/json')) {
      const profile = t.params.profile;
      if (!profile) return DEFAULT_HTML_VERSION;
      const m = SPEC_PROFILE.exec(profile);
      const version = m && m[1]!.toLowerCase() === format ? resolveContentVersion(m[2]!) : undefined;
      if (version) return version;
    } else if (type === '*/*' || (format === 'html' && type === 'text/*')) {
      return DEFAULT_HTML_VERSION;
    }
  }
  return undefined;
}
