// The compose stack's front proxy: round-robin over PROXY_UPSTREAMS (host:port,…), moving on to
// the next upstream when one refuses or drops the connection before answering, so a killed
// gateway costs no request. Adds X-Forwarded-For/-Proto (the gateways trust this container's
// address only, TRUSTED_PROXIES). Node's http only: it runs on the gateway image.
// Request bodies are buffered (bounded) so a request can be sent again to another gateway.
import http from 'node:http';

const port = Number(process.env.PROXY_PORT ?? 8080);
const upstreams = (process.env.PROXY_UPSTREAMS ?? '').split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
  const i = s.lastIndexOf(':');
  return { host: s.slice(0, i), port: Number(s.slice(i + 1)) };
});
const MAX_BODY = 64 * 1024 * 1024;
if (!upstreams.length) {
  console.error('PROXY_UPSTREAMS is empty');
  process.exit(1);
}
let next = 0;
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
// Hop-by-hop headers (RFC 9110 7.6.1) are not forwarded.
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function forward(req, body, headers, attempt, res) {
  const up = upstreams[(next++ + attempt) % upstreams.length];
  const out = http.request({ host: up.host, port: up.port, method: req.method, path: req.url, headers, agent, timeout: 120_000 }, (r) => {
    const h = {};
    for (const [k, v] of Object.entries(r.headers)) if (!HOP.has(k)) h[k] = v;
    res.writeHead(r.statusCode ?? 502, h);
    r.pipe(res);
    r.on('error', () => res.destroy());
  });
  out.on('timeout', () => out.destroy(new Error('upstream timeout')));
  out.on('error', (e) => {
    // Nothing was answered yet: another gateway may take it (connection refused, reset, DNS gone).
    if (!res.headersSent && attempt + 1 < upstreams.length * 2) {
      setTimeout(() => forward(req, body, headers, attempt + 1, res), attempt >= upstreams.length - 1 ? 250 : 0);
      return;
    }
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`no gateway answered: ${e.message}\n`);
    } else res.destroy();
  });
  out.end(body);
}

http
  .createServer((req, res) => {
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
      forward(req, Buffer.concat(chunks), headers, 0, res);
    });
  })
  .listen(port, '0.0.0.0', () => console.log(`proxy on :${port} -> ${upstreams.map((u) => `${u.host}:${u.port}`).join(', ')}`));

for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => process.exit(0));
