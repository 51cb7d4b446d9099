#!/usr/bin/env python3
"""Static checks of deploy/ (no Docker or Kubernetes needed): every YAML file parses, the
kustomization lists what exists, and every environment variable that compose or the manifests
give a component is one that component's code reads (names taken from the TypeScript sources).

    python3 deploy/check.py          # needs PyYAML (python3-yaml)

Exit 1 on an error; warnings (variables for features not written yet) do not fail.
"""
import pathlib
import re
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEPLOY = ROOT / 'deploy'
SERVICES = {'auth': 50051, 'content': 50052, 'search': 50053}
# Wired ahead of the code that reads them (issue 7: Meilisearch as the external search engine).
FUTURE = {'MEILISEARCH_URL', 'MEILISEARCH_API_KEY'}

errors: list[str] = []
warnings: list[str] = []


def env_names_read(dirs: list[pathlib.Path], prefix: str | None) -> set[str]:
    """Variables read by the sources in dirs: kit's v.*(['A', 'B']) specs and process.env.X."""
    names: set[str] = set()
    for d in dirs:
        for f in d.rglob('*.ts'):
            if f.name.endswith('.test.ts') or f.name == 'testing.ts':
                continue
            src = f.read_text()
            for lst in re.findall(r'\bv\.\w+\(\[([^\]]*)\]', src):
                for n in re.findall(r"['`\"]([^'`\"]+)['`\"]", lst):
                    if '${P}' in n:
                        if prefix is None:
                            continue
                        n = n.replace('${P}', prefix)
                    names.add(n)
            names.update(re.findall(r'process\.env\.([A-Z_][A-Z0-9_]*)', src))
    return names


kit = ROOT / 'services' / 'kit' / 'src'
reads = {s: env_names_read([kit, ROOT / 'services' / s / 'src'], s.upper()) for s in SERVICES}
# The gateway uses kit's config loader and logger, not its service runtime.
reads['gateway'] = env_names_read([ROOT / 'gateway' / 'src'], None) | {'LOG_LEVEL'}

# 1. Every YAML file parses.
docs: dict[pathlib.Path, list] = {}
for f in sorted(list(DEPLOY.rglob('*.yaml')) + list(DEPLOY.rglob('*.yml'))):
    try:
        docs[f] = [d for d in yaml.safe_load_all(f.read_text()) if d is not None]
    except yaml.YAMLError as e:
        errors.append(f'{f.relative_to(ROOT)}: does not parse: {e}')
print(f'parsed {len(docs)} YAML files')


def check_env(where: str, component: str, names: set[str]) -> None:
    for n in sorted(names - reads[component]):
        (warnings if n in FUTURE else errors).append(
            f'{where}: {n} is given to {component} but {"not read yet (future feature)" if n in FUTURE else "its code does not read it"}'
        )


# 2. docker-compose.yml
compose = docs.get(DEPLOY / 'compose' / 'docker-compose.yml', [{}])[0]
csvc = compose.get('services', {})
for name in [*SERVICES, 'search-indexer', 'gateway-a', 'gateway-b']:
    comp = 'gateway' if name.startswith('gateway') else 'search' if name == 'search-indexer' else name
    if name not in csvc:
        errors.append(f'compose: no service {name}')
        continue
    env = csvc[name].get('environment', {})
    if isinstance(env, list):
        env = dict(e.split('=', 1) for e in env)
    check_env(f'compose {name}', comp, set(env))
    if comp in SERVICES:
        P = comp.upper()
        # The images set <SVC>_GRPC_HOST=0.0.0.0 and the port; compose must not move them.
        if env.get(f'{P}_GRPC_PORT', SERVICES[comp]) != SERVICES[comp] and str(env.get(f'{P}_GRPC_PORT')) != str(SERVICES[comp]):
            errors.append(f'compose {name}: {P}_GRPC_PORT should be {SERVICES[comp]}')
        if not str(env.get(f'{P}_DATABASE_URL', '')).endswith(f'/{comp}'):
            errors.append(f'compose {name}: {P}_DATABASE_URL should name the {comp} database')
        if 'REDIS_URL' not in env or 'SECRET_KEY' not in env:
            errors.append(f'compose {name}: REDIS_URL and SECRET_KEY must be set')
        deps = csvc[name].get('depends_on', {})
        for d in ('postgres', 'redis'):
            if deps.get(d, {}).get('condition') != 'service_healthy':
                errors.append(f'compose {name}: should depend on {d} being healthy')
        if 'healthcheck' not in csvc[name]:
            errors.append(f'compose {name}: no healthcheck')
    else:
        for s, port in SERVICES.items():
            if env.get(f'{s.upper()}_GRPC_ADDR') != f'dns:///{s}:{port}':
                errors.append(f'compose {name}: {s.upper()}_GRPC_ADDR should be dns:///{s}:{port}')
            if csvc[name].get('depends_on', {}).get(s, {}).get('condition') != 'service_healthy':
                errors.append(f'compose {name}: should depend on {s} being healthy')
initdb = (DEPLOY / 'compose' / 'initdb').glob('*.sql')
created = set(re.findall(r'CREATE DATABASE (\w+)', ''.join(p.read_text() for p in initdb)))
if created != set(SERVICES):
    errors.append(f'compose initdb creates {sorted(created)}, expected {sorted(SERVICES)}')

# 3. Kubernetes manifests
K8S = DEPLOY / 'k8s' / 'base'
kust = docs[K8S / 'kustomization.yaml'][0]
listed = set(kust.get('resources', []))
for r in listed:
    if not (K8S / r).exists():
        errors.append(f'kustomization lists missing {r}')
for f in K8S.glob('*.yaml'):
    if f.name not in listed and f.name not in ('kustomization.yaml', 'secret.example.yaml'):
        errors.append(f'k8s/{f.name} is not listed in kustomization.yaml')

objs = [(f, d) for f, ds in docs.items() if f.parent == K8S and f.name != 'kustomization.yaml' for d in ds]
by_kind: dict[str, dict[str, dict]] = {}
for f, d in objs:
    by_kind.setdefault(d['kind'], {})[d['metadata']['name']] = d
cm = by_kind.get('ConfigMap', {}).get('quire-site', {}).get('data', {})
secret = by_kind.get('Secret', {}).get('quire-secrets', {}).get('stringData', {})
cm_used: set[str] = set()
# (Deployment, the component whose code it runs): the search indexer is the search image in its
# indexer role (SEARCH_ROLE=indexer).
for name, comp in [*((s, s) for s in SERVICES), ('search-indexer', 'search'), ('gateway', 'gateway')]:
    dep = by_kind.get('Deployment', {}).get(name)
    if not dep:
        errors.append(f'k8s: no Deployment {name}')
        continue
    spec = dep['spec']['template']['spec']
    if spec.get('terminationGracePeriodSeconds', 30) < 30:
        errors.append(f'k8s {name}: terminationGracePeriodSeconds < 30')
    if not spec.get('securityContext', {}).get('runAsNonRoot'):
        errors.append(f'k8s {name}: runAsNonRoot not set')
    c = spec['containers'][0]
    names = set()
    for e in c.get('env', []):
        names.add(e['name'])
        ref = e.get('valueFrom', {})
        if 'configMapKeyRef' in ref:
            k = ref['configMapKeyRef']['key']
            cm_used.add(k)
            if k not in cm:
                errors.append(f'k8s {name}: ConfigMap has no key {k}')
        if 'secretKeyRef' in ref and ref['secretKeyRef']['key'] not in secret:
            errors.append(f'k8s {name}: Secret template has no key {ref["secretKeyRef"]["key"]}')
    check_env(f'k8s {name}', comp, names)
    ports = {p['containerPort'] for p in c.get('ports', [])}
    for probe in ('startupProbe', 'readinessProbe', 'livenessProbe'):
        p = c.get(probe)
        if not p:
            errors.append(f'k8s {name}: no {probe}')
        elif 'grpc' in p and p['grpc']['port'] not in ports:
            errors.append(f'k8s {name}: {probe} on a port the container does not expose')
    if not c.get('lifecycle', {}).get('preStop'):
        errors.append(f'k8s {name}: no preStop')
    if not c.get('securityContext', {}).get('readOnlyRootFilesystem'):
        warnings.append(f'k8s {name}: root filesystem is writable')
    if comp in SERVICES:
        P = comp.upper()
        env = {e['name']: e for e in c.get('env', [])}
        if env.get(f'{P}_GRPC_PORT', {}).get('value') != str(SERVICES[comp]):
            errors.append(f'k8s {name}: {P}_GRPC_PORT should be {SERVICES[comp]}')
        if f'{P}_DATABASE_URL' not in env or 'REDIS_URL' not in env or 'SECRET_KEY' not in env:
            errors.append(f'k8s {name}: needs {P}_DATABASE_URL, REDIS_URL and SECRET_KEY')
        svc = by_kind.get('Service', {}).get(comp)
        if not svc or svc['spec']['ports'][0]['port'] != SERVICES[comp] or svc['spec']['ports'][0].get('appProtocol') != 'grpc':
            errors.append(f'k8s {name}: Service missing, wrong port, or without appProtocol grpc')
        addr = cm.get(f'{P}_GRPC_ADDR', '')
        if not re.fullmatch(rf'(dns:///)?{comp}(\.quire(\.svc(\.cluster\.local)?)?)?:{SERVICES[comp]}', addr):
            errors.append(f'k8s ConfigMap: {P}_GRPC_ADDR={addr!r} does not point at Service {comp}:{SERVICES[comp]}')
    if name not in by_kind.get('PodDisruptionBudget', {}):
        errors.append(f'k8s {name}: no PodDisruptionBudget')
for k in sorted(set(cm) - cm_used):
    errors.append(f'k8s ConfigMap key {k} is used by no Deployment')
for hpa in ('gateway', 'search'):
    if hpa not in by_kind.get('HorizontalPodAutoscaler', {}):
        errors.append(f'k8s: no HPA for {hpa}')

# 4. Dockerfiles: npm ci needs every workspace manifest, so each Dockerfile must copy them all.
import json
workspaces = json.loads((ROOT / 'package.json').read_text())['workspaces']
for df in [ROOT / 'gateway' / 'Dockerfile', *[ROOT / 'services' / s / 'Dockerfile' for s in SERVICES]]:
    if not df.exists():
        errors.append(f'{df.relative_to(ROOT)} is missing')
        continue
    text = df.read_text()
    for ws in workspaces:
        if not re.search(rf'^COPY {re.escape(ws)}/package\.json ', text, re.M) or not re.search(rf'^COPY --from=build /src/{re.escape(ws)}/package\.json ', text, re.M):
            errors.append(f'{df.relative_to(ROOT)} does not copy {ws}/package.json (npm ci would fail)')
    for needed in ('ARG BASE_IMAGE=node:20', 'FROM ${BASE_IMAGE}', 'RUN npm run build', 'HEALTHCHECK', 'STOPSIGNAL SIGTERM', 'USER 1000', 'npm ci --omit=dev --workspace', 'CMD ["node", "--conditions=quire-dist"'):
        if needed not in text:
            errors.append(f'{df.relative_to(ROOT)}: missing {needed!r}')

for w in warnings:
    print(f'warning: {w}')
for e in errors:
    print(f'ERROR: {e}')
print('ok' if not errors else f'{len(errors)} error(s)')
sys.exit(1 if errors else 0)
