/**
 * Dependency rules checked in CI (`npm run lint:deps`, called by `.ci/run` before the tests).
 * ARCHITECTURE.md ("Layers and dependency rules") explains them; SQL outside `store/` is checked by
 * `scripts/lint-sql.mjs` (dependency-cruiser sees imports, not the text of queries).
 *
 * Services are layered `rpc/` → `domain/` → `store/`, one direction only. The content service's
 * supporting libraries (title codec, diff engine, renderer internals, wikitext helpers, files
 * helpers) import no layer, so any layer may import them.
 */
const SVC = '^services/([^/]+)/src/';
// A layer folder of a service, or of a sub-package of it (auth's OAuth has its own rpc/domain/store).
const layer = (name) => [`${SVC}${name}/`, `${SVC}[^/]+/${name}/`];
// Content-service folders that are libraries: no SQL, no knowledge of the service's layers.
const CONTENT_LIBS = '^services/content/src/(title|diff|content|render|files|links|edit)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle in any workspace: a cycle makes load order and layering undecidable.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'store-imports-no-upper-layer',
      severity: 'error',
      comment: 'store/ holds SQL only: it may not reach up into domain/ or rpc/.',
      from: { path: layer('store') },
      to: { path: [...layer('domain'), ...layer('rpc')] },
    },
    {
      name: 'domain-imports-no-rpc',
      severity: 'error',
      comment: 'domain/ knows nothing of the wire: it may not import rpc/.',
      from: { path: layer('domain') },
      to: { path: layer('rpc') },
    },
    {
      name: 'content-libs-import-no-layer',
      severity: 'error',
      comment: "The content service's library folders (title, diff, content, render internals, files, links, edit helpers) are shared by every layer, so they import none.",
      from: { path: CONTENT_LIBS },
      to: { path: '^services/content/src/(rpc|domain|store)/' },
    },
    {
      name: 'services-never-import-gateway',
      severity: 'error',
      comment: "Services are reached by the gateway over gRPC only; they never import it. Scope: a service's own tests (*.test.ts) may drive it through the gateway's typed client, as a caller would.",
      from: { path: '^services/', pathNot: '\\.test\\.ts$' },
      to: { path: '^gateway/' },
    },
    {
      name: 'gateway-imports-no-service',
      severity: 'error',
      comment: 'The gateway reaches services over gRPC (gateway/src/clients/), never by import; only the shared runtime (services/kit) and proto/ are libraries.',
      from: { path: '^gateway/' },
      to: { path: '^services/(?!kit/)' },
    },
    {
      name: 'gateway-imports-no-generated-stubs',
      severity: 'error',
      comment:
        'Only the typed clients (gateway/src/clients/) import the generated protobuf code (@quire/proto → proto/); every other gateway file, its tests included (none needs a stub), imports the messages and enums it uses from gateway/src/clients/types.ts and calls services through clients/ (issue 17).',
      from: { path: '^gateway/src/(?!clients/)' },
      to: { path: '^proto/' },
    },
    {
      name: 'services-import-no-other-service',
      severity: 'error',
      comment: 'A service reaches another over gRPC, never by import (kit is the shared runtime).',
      from: { path: '^services/(auth|content|search)/' },
      to: { path: '^services/(?!kit/|$1/)' },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '^proto/gen/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
