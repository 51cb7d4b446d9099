/*
 * Where a client may send the user back to (MWOAuthServer::checkCallback of the OAuth extension,
 * REL1_39), for a consumer whose registered callback URL is a prefix. The URLs are parsed and
 * compared part by part, never as strings: "http://client.example" is a string prefix of
 * "http://client.example.evil.example/" and of "http://client.example@evil.example/", whose hosts
 * are not client.example.
 *  - the scheme is the registered one (http may become https);
 *  - the host is the registered one;
 *  - the port is the registered one, or any when port 1 is registered (local development);
 *  - the path extends the registered one, or is exactly it when the registered URL has a query;
 *  - the query extends the registered one.
 * Both are parsed as a browser parses them (WHATWG URL: the host in lower case, a default port
 * dropped, dot segments resolved), so what is compared is where the browser will go.
 */

/** ConsumerSubmitControl's limit on a callback URL's length. */
const MAX_CALLBACK_LENGTH = 2000;

/** A callback URL as it is registered and compared; null when it cannot be one (wfParseUrl fails). */
export function parseCallback(url: string): URL | null {
  if (!url || url.length > MAX_CALLBACK_LENGTH) return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** Whether the URL as written has a path ("http://h" and "http://h?q" have none, though their parsed path is "/"). */
function writtenPath(url: string, parsed: URL): string | null {
  return parsed.pathname !== '/' || /^[^:/?#]+:\/\/[^/?#]*\//.test(url) ? parsed.pathname : null;
}

/** Whether `given` is a callback under the registered prefix `registered`. */
export function callbackMatches(registered: string, given: string): boolean {
  const want = parseCallback(registered);
  const got = parseCallback(given);
  if (!want || !got) return false;
  const scheme = (u: URL) => u.protocol.slice(0, -1);
  const schemeOk = scheme(want) === scheme(got) || (scheme(want) === 'http' && scheme(got) === 'https');
  const portOk = want.port === '1' || want.port === got.port;
  const query = want.search.slice(1);
  const path = writtenPath(registered, want);
  const pathOk = path === null || (query ? got.pathname === path : got.pathname.startsWith(path));
  const queryOk = !query || got.search.slice(1).startsWith(query);
  return schemeOk && want.hostname === got.hostname && portOk && pathOk && queryOk;
}
