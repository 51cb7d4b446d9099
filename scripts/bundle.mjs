#!/usr/bin/env node
// The build's second step (scripts/build.mjs runs it after tsc): `npm start`'s two big module
// graphs, the wiki process's main thread (scripts/dist/serve.js: kit and the three services) and
// the gateway's thread (scripts/dist/gateway-thread.js), each as an ES module beside its entry
// (serve.bundle.mjs, gateway-thread.bundle.mjs) plus chunks for what it imports dynamically
// (<entry>.chunk-<hash>.mjs). Node resolves, reads and links some 600 modules
// per thread otherwise: loading the gateway's took 0.85 s of CPU unbundled and 0.45 s as one
// file on a 2-core machine (first start to first answer). The supervisor and kit's
// threadWorker run a bundle when it exists, else the modules.
//
// Every module keeps its own import.meta.url: files beside the sources (migrations, message and
// language tables, the repository root, thread entries) resolve as from dist/. Left out and
// loaded from node_modules as usual: PGlite (its WASM and data files beside its modules), piscina
// (its worker file beside its modules), argon2's native binding, and what is imported only with a
// server configured (ioredis with REDIS_URL, OpenTelemetry with OTEL_EXPORTER_OTLP_ENDPOINT): node's
// own CommonJS interop gives their named exports (the bundle's did not give ioredis's `Redis`). __dirname and __filename name
// the bundle's folder for the CommonJS modules that mention them on paths not taken (gRPC's
// channelz, pino's transports). No source maps: stack traces name the bundle's lines.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLES = ['scripts/dist/serve.js', 'scripts/dist/gateway-thread.js'];
const EXTERNAL = ['@electric-sql/pglite', 'piscina', 'pg-native', '@node-rs/*', '*.node', 'ioredis', '@opentelemetry/*'];
const OWN = /\/(?:proto|gateway|scripts|services\/[^/]+)\/dist\/.+\.js$/;

/** Each of our modules' import.meta.url becomes its own file's URL, relative to the bundle's. */
function ownModuleUrls(outDir) {
  return {
    name: 'own-module-urls',
    setup(b) {
      b.onLoad({ filter: OWN }, async (args) => {
        if (!args.path.startsWith(root) || args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const text = await fs.promises.readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const rel = path.relative(outDir, args.path).split(path.sep).join('/');
        return { contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

export async function bundleAll() {
  const outdir = path.join(root, 'scripts/dist');
  for (const entry of BUNDLES) {
    const input = path.join(root, entry);
    const name = path.basename(entry, '.js');
    await esbuild.build({
      entryPoints: { [`${name}.bundle`]: input },
      outdir,
      // The modules an entry imports dynamically become chunks of their own, loaded when it does:
      // serve.js starts the gateway's and the database's threads before it loads the services.
      // Chunks sit beside the entry, so that the rewritten module URLs hold for them too.
      splitting: true,
      chunkNames: `${name}.chunk-[hash]`,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      conditions: ['quire-dist'],
      external: EXTERNAL,
      plugins: [ownModuleUrls(outdir)],
      banner: {
        js: [
          "import { createRequire as __quireCreateRequire } from 'node:module';",
          "import { fileURLToPath as __quireFileURLToPath } from 'node:url';",
          'const require = __quireCreateRequire(import.meta.url);',
          'const __filename = __quireFileURLToPath(import.meta.url);',
          "const __dirname = __filename.slice(0, __filename.lastIndexOf('/'));",
        ].join('\n'),
      },
      logLevel: 'error',
      legalComments: 'none',
    });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await bundleAll();
}
