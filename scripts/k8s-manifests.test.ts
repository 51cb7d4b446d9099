/*
 * deploy/k8s: each overlay renders with `kubectl kustomize` (Debian's kubernetes-client ships
 * kubectl; .ci/run installs it) and every object is valid against the Kubernetes API schemas
 * (kubernetes-models). Then what an operator relies on: probes, resources and a locked-down
 * security context on every workload, PDBs and HPAs, the migration Job, default-deny network
 * policies, an Ingress route for every public path, and no Secret in the output.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, parse } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const k8s = path.join(root, 'deploy', 'k8s');

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  [k: string]: unknown;
}

function render(dir: string): K8sObject[] {
  const out = execFileSync('kubectl', ['kustomize', path.join(k8s, dir)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return parseAllDocuments(out)
    .map((d) => d.toJSON() as K8sObject)
    .filter(Boolean);
}

/** The kubernetes-models class of apiVersion/kind, e.g. apps/v1 Deployment → kubernetes-models/apps/v1. */
async function validate(o: K8sObject): Promise<void> {
  const mod = (await import(`kubernetes-models/${o.apiVersion}`)) as Record<string, new (x: unknown) => { validate(): void }>;
  const Model = mod[o.kind];
  assert.ok(Model, `no schema for ${o.apiVersion} ${o.kind}`);
  new Model(o).validate();
}

type Pod = { containers: Container[]; initContainers?: Container[]; securityContext?: { runAsNonRoot?: boolean } };
type Container = {
  name: string;
  env?: { name: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  resources?: { requests?: object; limits?: object };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean; capabilities?: { drop?: string[] } };
  readinessProbe?: object;
  livenessProbe?: object;
};
const podOf = (o: K8sObject) => (o as unknown as { spec: { template: { spec: Pod } } }).spec.template.spec;
const named = (objs: K8sObject[], kind: string) => new Map(objs.filter((o) => o.kind === kind).map((o) => [o.metadata.name, o]));

const secretKeys = new Set(Object.keys((parse(fs.readFileSync(path.join(k8s, 'base', 'secret.example.yaml'), 'utf8')) as { stringData: object }).stringData));

for (const overlay of ['overlays/dev', 'overlays/prod']) {
  test(`${overlay}: renders, every object is valid, and the deployment holds together`, async () => {
    const objs = render(overlay);
    for (const o of objs) await validate(o);
    assert.ok(
      objs.every((o) => o.kind === 'Namespace' || o.metadata.namespace === 'quire'),
      'everything in the quire namespace',
    );
    assert.equal(objs.filter((o) => o.kind === 'Secret').length, 0, 'no Secret is rendered: secrets are not in git');

    const deployments = named(objs, 'Deployment');
    for (const app of ['auth', 'content', 'search', 'search-indexer', 'gateway']) {
      const d = deployments.get(app);
      assert.ok(d, `Deployment ${app}`);
      const pod = podOf(d);
      assert.equal(pod.securityContext?.runAsNonRoot, true, `${app} runs as non-root`);
      for (const c of pod.containers) {
        assert.ok(c.readinessProbe && c.livenessProbe, `${app}/${c.name} has readiness and liveness probes`);
        assert.ok(c.resources?.requests && c.resources?.limits, `${app}/${c.name} has requests and limits`);
        assert.equal(c.securityContext?.readOnlyRootFilesystem, true, `${app}/${c.name} read-only root filesystem`);
        assert.equal(c.securityContext?.allowPrivilegeEscalation, false);
        assert.deepEqual(c.securityContext?.capabilities?.drop, ['ALL']);
      }
      assert.ok(named(objs, 'PodDisruptionBudget').has(app), `PodDisruptionBudget ${app}`);
    }
    const content = podOf(deployments.get('content')!).containers[0]!;
    assert.equal(content.env?.find((e) => e.name === 'FILE_STORE')?.['value' as never], 'db', 'content replicas share uploads (FILE_STORE=db)');
    const hpas = named(objs, 'HorizontalPodAutoscaler') as Map<string, K8sObject & { spec: { scaleTargetRef: { kind: string; name: string }; minReplicas?: number } }>;
    for (const hpa of ['gateway', 'search']) {
      assert.equal(hpas.get(hpa)?.spec.scaleTargetRef.name, hpa, `HPA ${hpa} scales Deployment ${hpa}`);
      assert.equal((deployments.get(hpa)!.spec as { replicas?: number }).replicas, undefined, `${hpa}: replicas left to the HPA`);
    }
    for (const h of hpas.values()) assert.ok(deployments.has(h.spec.scaleTargetRef.name), `HPA ${h.metadata.name} targets an existing Deployment`);

    // Search: query replicas under the HPA and the Service; one indexer of its own, not scaled,
    // not behind the Service the gateway calls.
    const role = (app: string) => podOf(deployments.get(app)!).containers[0]!.env?.find((e) => e.name === 'SEARCH_ROLE')?.['value' as never];
    assert.equal(role('search'), 'query', 'the search Deployment only answers queries');
    assert.equal(role('search-indexer'), 'indexer', 'search-indexer follows the change feed');
    assert.equal((deployments.get('search-indexer')!.spec as { replicas?: number }).replicas, 1, 'a single indexer replica');
    assert.ok(![...hpas.values()].some((h) => h.spec.scaleTargetRef.name === 'search-indexer'), 'no HPA scales the indexer');
    const workloads = new Map([...deployments, ...named(objs, 'StatefulSet')]);
    const podLabels = (app: string) => (workloads.get(app)!.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels;
    const selects = (sel: Record<string, string>, labels: Record<string, string>) => Object.entries(sel).every(([k, v]) => labels[k] === v);
    const services = named(objs, 'Service') as Map<string, K8sObject & { spec: { selector: Record<string, string> } }>;
    assert.ok(selects(services.get('search')!.spec.selector, podLabels('search')), 'Service search selects the query pods');
    assert.ok(!selects(services.get('search')!.spec.selector, podLabels('search-indexer')), 'Service search does not select the indexer');
    // Each PodDisruptionBudget covers the pods of exactly one Deployment.
    for (const pdb of named(objs, 'PodDisruptionBudget').values()) {
      const sel = (pdb as unknown as { spec: { selector: { matchLabels: Record<string, string> } } }).spec.selector.matchLabels;
      const covered = [...workloads.keys()].filter((d) => selects(sel, podLabels(d)));
      assert.equal(covered.length, 1, `PodDisruptionBudget ${pdb.metadata.name} covers ${covered.join(', ') || 'nothing'}`);
    }

    // Every Secret reference names a key of the documented Secret.
    for (const o of [...deployments.values(), ...named(objs, 'Job').values(), ...named(objs, 'StatefulSet').values()]) {
      const pod = podOf(o);
      for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef;
          if (!ref) continue;
          assert.equal(ref.name, 'quire-secrets', `${o.metadata.name}/${c.name} ${e.name}`);
          assert.ok(secretKeys.has(ref.key), `${o.metadata.name}/${c.name}: key ${ref.key} is listed in secret.example.yaml`);
        }
      }
    }

    const job = named(objs, 'Job').get('quire-migrate');
    assert.ok(job, 'the migration Job');
    const steps = [...(podOf(job).initContainers ?? []), ...podOf(job).containers].map((c) => (c as unknown as { command: string[] }).command.at(-1));
    assert.deepEqual(steps, ['services/auth/dist/migrate.js', 'services/content/dist/migrate.js', 'services/search/dist/migrate.js']);

    const policies = named(objs, 'NetworkPolicy');
    const deny = policies.get('default-deny') as unknown as { spec: { podSelector: object; policyTypes: string[] } };
    assert.deepEqual(deny?.spec, { podSelector: {}, policyTypes: ['Ingress', 'Egress'] }, 'everything is denied unless allowed');
    for (const p of ['gateway', 'auth', 'content', 'search', 'services-egress', 'allow-dns']) assert.ok(policies.has(p), `NetworkPolicy ${p}`);
    // The indexer reaches content (the change feed) and its database.
    const rules = (name: string, dir: 'ingress' | 'egress') =>
      JSON.stringify((policies.get(name) as unknown as { spec: Record<string, unknown> }).spec[dir] ?? []) +
      JSON.stringify((policies.get(name) as unknown as { spec: { podSelector: unknown } }).spec.podSelector);
    assert.match(rules('content', 'ingress'), /"search-indexer"/, 'content admits the search indexer');
    assert.match(rules('services-egress', 'egress'), /"search-indexer"/, 'the search indexer may reach content and the databases');

    const ingress = named(objs, 'Ingress').get('quire') as unknown as { spec: { rules: { http: { paths: { path: string; backend: { service: { name: string } } }[] } }[] } };
    const paths = ingress.spec.rules.flatMap((r) => r.http.paths);
    for (const p of ['/wiki/', '/w/index.php', '/w/api.php', '/w/rest.php', '/w/images/']) {
      assert.ok(
        paths.some((x) => x.path === p && x.backend.service.name === 'gateway'),
        `Ingress routes ${p} to the gateway`,
      );
    }
  });
}

test('the overlays differ where they must: in-cluster databases for dev only, TLS for prod', () => {
  const dev = render('overlays/dev');
  const prod = render('overlays/prod');
  assert.ok(named(dev, 'StatefulSet').has('postgres') && named(dev, 'StatefulSet').has('redis'));
  assert.equal(named(prod, 'StatefulSet').size, 0);
  const tls = (objs: K8sObject[]) => (named(objs, 'Ingress').get('quire') as unknown as { spec: { tls?: unknown[] } }).spec.tls;
  assert.ok(tls(prod)?.length);
  assert.equal(tls(dev), undefined);
  const image = (objs: K8sObject[]) => podOf(named(objs, 'Deployment').get('gateway')!).containers[0]!['image' as never] as string;
  assert.equal(image(dev), 'quire-gateway:latest');
  assert.match(image(prod), /^registry\.example\.com\/quire\/gateway:\d/);
});

test('deploy/check.py: compose and the manifests give each component only variables its code reads', () => {
  // Debian's python3 with python3-yaml (.ci/run installs it); exits 1 and prints ERROR lines otherwise.
  const python = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  const out = execFileSync(python, [path.join(root, 'deploy', 'check.py')], { encoding: 'utf8' });
  assert.match(out, /^ok$/m, out);
});
