// Regenerates gen/ from the .proto files with the protoc that ships in the @bufbuild/buf npm package
// (no system protoc). `node gen.mjs --out DIR` writes elsewhere, which the drift test uses.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require_ = (await import('node:module')).createRequire(import.meta.url);
const outIdx = process.argv.indexOf('--out');
const out = outIdx > 0 ? path.resolve(process.argv[outIdx + 1]) : path.join(here, 'gen');
const bufBin = path.join(path.dirname(require_.resolve('@bufbuild/buf/package.json')), 'bin', 'buf');
const plugin = path.join(path.dirname(require_.resolve('ts-proto/package.json')), 'protoc-gen-ts_proto');

const template = fs
  .readFileSync(path.join(here, 'buf.gen.yaml'), 'utf8')
  .replace('./node_modules/.bin/protoc-gen-ts_proto', plugin)
  .replace(/out: gen/, `out: ${JSON.stringify(out)}`);
fs.rmSync(out, { recursive: true, force: true });
const r = spawnSync(bufBin, ['generate', '--template', template], { cwd: here, stdio: 'inherit' });
process.exit(r.status ?? 1);
