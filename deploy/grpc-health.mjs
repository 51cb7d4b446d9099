// A grpc.health.v1 probe for Docker Compose healthchecks (Kubernetes uses its native `grpc:` probe).
// There is no grpc_health_probe on npm, so this asks Health/Check with @grpc/grpc-js, which every
// service image already has. Exit 0 when the answer is SERVING, 1 otherwise.
//
//   node deploy/grpc-health.mjs [host:port] [service]      (defaults: 127.0.0.1:50051, "" = the whole server)
import { Client, Metadata, credentials } from '@grpc/grpc-js';

const target = process.argv[2] ?? '127.0.0.1:50051';
const service = process.argv[3] ?? '';

// HealthCheckRequest { string service = 1; } and HealthCheckResponse { ServingStatus status = 1; },
// encoded by hand so the probe needs no generated code and no TypeScript loader.
const name = Buffer.from(service, 'utf8');
if (name.length > 127) {
  process.stderr.write('service name too long\n');
  process.exit(2);
}
const request = name.length ? Buffer.concat([Buffer.from([0x0a, name.length]), name]) : Buffer.alloc(0);
const SERVING = 1;
const statusOf = (buf) => (buf.length >= 2 && buf[0] === 0x08 ? buf[1] : 0);

const client = new Client(target, credentials.createInsecure());
client.makeUnaryRequest(
  '/grpc.health.v1.Health/Check',
  (b) => b,
  (b) => b,
  request,
  new Metadata(),
  { deadline: Date.now() + 3000 },
  (err, res) => {
    client.close();
    if (err) {
      process.stderr.write(`${target}: ${err.message}\n`);
      process.exit(1);
    }
    const st = statusOf(res);
    if (st !== SERVING) process.stderr.write(`${target}: status ${st}\n`);
    process.exit(st === SERVING ? 0 : 1);
  },
);
