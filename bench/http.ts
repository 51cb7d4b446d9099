/*
 * The benchmarks' own HTTP client where each request's time or answer matters: node:http on
 * kept-alive connections. On the 2-core machine that also runs the wiki under test, fetch (undici)
 * took about 1.2 ms of CPU per request and node:http about 0.3 ms (a constant-JSON server, 10
 * connections, 2026-11-28), and every millisecond the client takes is one the wiki does not get.
 */
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true });

export interface HttpAnswer {
  status: number;
  body: string;
  setCookies: string[];
}

export function httpRequest(method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), setCookies: res.headers['set-cookie'] ?? [] }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
