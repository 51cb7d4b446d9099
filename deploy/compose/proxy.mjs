// The compose stack's front proxy: round-robin over PROXY_UPSTREAMS (host:port,…), adds
// X-Forwarded-For/-Proto (the gateways trust this container's address only, TRUSTED_PROXIES).
// Node's http only: it runs on the gateway image.
//
// When may a request go to the next gateway? Only when the first one certainly did not act on it:
// - any method, when the connection to the gateway could not be made (refused, no route, the
//   name gone from DNS, no answer to the connect within CONNECT_TIMEOUT_MS): nothing was sent;
// - safe methods (GET, HEAD, OPTIONS) also when the connection broke after the request was sent
//   and before any answer: reading twice changes nothing.
// A POST (an edit, an upload, a login) that reached a gateway which then died is NOT sent again:
// the gateway may have committed it, and a second send would apply it twice (an appendtext edit
// appended twice). The client gets 502 and decides, as it would with any lost answer. Requests
// that may not be resent use a fresh connection each (no keep-alive), so "connected" means this
// request's connection and a stale pooled socket cannot be mistaken for a gateway that died.
// Request bodies are buffered (bounded) so a request can be sent again to another gateway.
import http from 'node:http';

const port = Number(process.env.PROXY_PORT ?? 8080);
const upstreams = (process.env.PROXY_UPSTREAMS ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)
  .map((s) => {
    const i = s.lastIndexOf(':');
    return { host: s.slice(0, i), port: Number(s.slice(i + 1)) };
  });
const MAX_BODY = 64 * 1024 * 1024;
const CONNECT_TIMEOUT_MS = Number(process.env.PROXY_CONNECT_TIMEOUT_MS ?? 2000);
if (!upstreams.length) {
  console.error('PROXY_UPSTREAMS is empty');
  process.exit(1);
}
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
let next = 0;
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 256 });
const oneShot = new http.Agent({ keepAlive: false, maxSockets: 256 });
// Hop-by-hop headers (RFC 9110 7.6.1) are not forwarded.
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
let resent = 0;
let notResent = 0;

/** Sends the request to upstream (first + attempt); `first` is chosen once per request (round-robin). */
function forward(req, body, headers, first, attempt, res) {
  const safe = SAFE.has(req.method ?? '');
  const up = upstreams[(first + attempt) % upstreams.length];
  let connected = false;
  const out = http.request({ host: up.host, port: up.port, method: req.method, path: req.url, headers, agent: safe ? keepAlive : oneShot }, (r) => {
    const h = {};
    for (const [k, v] of Object.entries(r.headers)) if (!HOP.has(k)) h[k] = v;
    res.writeHead(r.statusCode ?? 502, h);
    r.pipe(res);
    r.on('error', () => res.destroy());
  });
  out.on('socket', (s) => {
    // A reused keep-alive socket (safe methods only) is already connected.
    if (!s.connecting) {
      connected = true;
      return;
    }
    const timer = setTimeout(() => out.destroy(Object.assign(new Error(`no connection to ${up.host}:${up.port} within ${CONNECT_TIMEOUT_MS} ms`), { code: 'ECONNECTTIMEOUT' })), CONNECT_TIMEOUT_MS);
    s.once('connect', () => {
      connected = true;
      clearTimeout(timer);
    });
    s.once('close', () => clearTimeout(timer));
  });
  // An answer that takes this long is not coming (the gateways' own limits are lower).
  out.setTimeout(120_000, () => out.destroy(new Error('upstream timeout')));
  out.on('error', (e) => {
    const mayResend = !res.headersSent && (!connected || safe) && attempt + 1 < upstreams.length * 2;
    if (mayResend) {
      resent++;
      setTimeout(() => forward(req, body, headers, first, attempt + 1, res), attempt >= upstreams.length - 1 ? 250 : 0);
      return;
    }
    if (!res.headersSent) {
      if (connected && !safe) notResent++;
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(
        connected && !safe
          ? `the gateway went away after receiving this ${req.method}; it may or may not have been applied, so it was not sent again (${e.message})\n`
          : `no gateway answered: ${e.message}\n`,
      );
    } else res.destroy();
  });
  out.end(body);
}

http
  .createServer((req, res) => {
    // The proxy's own counters (not forwarded): how often a request went to another gateway, and
    // how often a write was answered 502 instead of being sent twice.
    if (req.url === '/proxy-stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ resent, notResent }));
      return;
    }
    const chunks = [];
    let size = 0;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BODY) {
        res.writeHead(413, { 'content-type': 'text/plain' }).end('request body too large\n');
        req.destroy();
      } else chunks.push(c);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      if (res.headersSent) return;
      const headers = {};
      for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k)) headers[k] = v;
      const peer = req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '';
      headers['x-forwarded-for'] = req.headers['x-forwarded-for'] ? `${req.headers['x-forwarded-for']}, ${peer}` : peer;
      headers['x-forwarded-proto'] = 'http';
      forward(req, Buffer.concat(chunks), headers, next++ % upstreams.length, 0, res);
    });
  })
  .listen(port, '0.0.0.0', () => console.log(`proxy on :${port} -> ${upstreams.map((u) => `${u.host}:${u.port}`).join(', ')}`));

for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => process.exit(0));
