import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadConfig } from '../../src/config.js';
import { healthPaths } from '../../src/observability/health.js';
import { currentRbacYaml } from '../../src/remedies/gen-rbac.js';
import { configFileOf, deployDir, isWorkload, kubectlAvailable, overlays, parseObjects, podSpec, render, workloadOf, type Container, type K8sObject, type OverlayPath } from './manifests.js';
import { validateObject } from './models.js';

const paths = Object.keys(overlays) as OverlayPath[];
const image = 'ghcr.io/example/platform-medic:0.1.0';
const rbacKinds = new Set(['ServiceAccount', 'Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding']);
const key = (o: K8sObject) => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;
/** The bot runs in Socket Mode when its app-level token is required (optional: the HTTP receiver unless set). */
const socketMode = (c: Container) => c.env?.find((e) => e.name === 'SLACK_APP_TOKEN')?.valueFrom?.secretKeyRef?.optional === false;

describe.skipIf(!kubectlAvailable)('deploy/: every kustomization renders and is valid Kubernetes', () => {
  it.each(paths)('%s renders with kubectl kustomize, offline', (path) => {
    const objects = render(path);
    for (const part of overlays[path]) expect(workloadOf(objects, part), `${path} holds the ${part}`).toBeDefined();
  });

  it.each(paths)('%s: every object passes its kind\'s schema (kubernetes-models)', (path) => {
    for (const o of render(path)) validateObject(o);
  });

  it.each(paths)('%s: every container is hardened, bounded, and probed where it serves HTTP', (path) => {
    for (const w of render(path).filter(isWorkload)) {
      const pod = podSpec(w);
      expect(pod.securityContext, w.metadata.name).toMatchObject({ runAsNonRoot: true, runAsUser: 10001, runAsGroup: 10001, seccompProfile: { type: 'RuntimeDefault' } });
      for (const c of pod.containers) {
        expect(c.securityContext, `${w.metadata.name}/${c.name}`).toEqual({
          runAsNonRoot: true,
          runAsUser: 10001,
          runAsGroup: 10001,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
          seccompProfile: { type: 'RuntimeDefault' },
        });
        expect(Object.keys(c.resources?.requests ?? {}).sort(), `${c.name} requests`).toEqual(['cpu', 'memory']);
        expect(Object.keys(c.resources?.limits ?? {}).sort(), `${c.name} limits`).toEqual(['cpu', 'memory']);
      }
    }
  });

  it.each(paths)("%s: the bot's heap ceiling is set, not left to the memory Node happens to see, and fits under its memory limit", (path) => {
    const w = workloadOf(render(path), 'bot');
    if (!w) return;
    const c = podSpec(w).containers[0]!;
    const options = c.env?.find((e) => e.name === 'NODE_OPTIONS')?.value ?? '';
    const heapMiB = Number(/--max-old-space-size=(\d+)/.exec(options)?.[1]);
    expect(heapMiB, `NODE_OPTIONS of the bot: "${options}"`).toBeGreaterThan(0);
    const limit = /^(\d+)(Mi|Gi)$/.exec(c.resources!.limits!.memory!)!;
    const limitMiB = Number(limit[1]) * (limit[2] === 'Gi' ? 1024 : 1);
    // Besides the old generation, the process holds the young generation (up to 3 semi-spaces of
    // 16 MiB) and what lives outside V8's heap: about 65 MiB measured under load (RSS minus the
    // heap's total, bench/RESULTS.md), counted as 100 for the buffers of shared files (10 MB each).
    expect(heapMiB + 48 + 100, `heap ${heapMiB} MiB under the ${c.resources!.limits!.memory} limit`).toBeLessThanOrEqual(limitMiB);
  });

  it.each(paths)('%s: the bot and worker probe /healthz and /readyz on a named port they listen on, and the pod outlives the shutdown bound', (path) => {
    for (const part of ['bot', 'worker'] as const) {
      const w = workloadOf(render(path), part);
      if (!w) continue;
      const pod = podSpec(w);
      const c = pod.containers[0]!;
      const portNames = (c.ports ?? []).map((p) => p.name);
      expect(c.livenessProbe?.httpGet?.path).toBe(healthPaths.live);
      expect(c.readinessProbe?.httpGet?.path).toBe(healthPaths.ready);
      for (const probe of [c.livenessProbe, c.readinessProbe]) {
        expect(typeof probe?.httpGet?.port).toBe('string');
        expect(portNames).toContain(probe?.httpGet?.port);
      }
      // The port the probes use is the one the app is told to serve on: the bot's HTTP port, or in
      // Socket Mode (an app-level token it cannot start without) the health port, as the worker's.
      const env = Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value]));
      const probed = c.ports!.find((p) => p.name === c.readinessProbe!.httpGet!.port)!.containerPort;
      expect(String(probed)).toBe(part === 'bot' && !socketMode(c) ? env.PORT : env.HEALTH_PORT);
      // The process's own bound (PLATFORM_MEDIC_SHUTDOWN_SECONDS, default 25) ends before the kubelet's SIGKILL.
      const bound = Number(env.PLATFORM_MEDIC_SHUTDOWN_SECONDS);
      expect(bound).toBe(loadConfig({ env: {}, file: '/dev/null' }).shutdownSeconds);
      expect(pod.terminationGracePeriodSeconds).toBe(30);
      expect(pod.terminationGracePeriodSeconds! - bound).toBeGreaterThanOrEqual(3);
      expect(c.image).toBe(image);
    }
  });

  it.each(paths)('%s: Secrets are templates, never real values', (path) => {
    for (const s of render(path).filter((o) => o.kind === 'Secret')) {
      expect((s as unknown as { data?: unknown }).data, `${s.metadata.name} uses stringData`).toBeUndefined();
      for (const [k, v] of Object.entries((s as unknown as { stringData: Record<string, string> }).stringData)) {
        expect(v === '' || v.includes('REPLACE-ME'), `${s.metadata.name}.${k} is a placeholder`).toBe(true);
      }
    }
  });

  it.each(['base/worker', 'overlays/example/prod-eu', 'overlays/example/prod-us'] as const)("%s: the worker's RBAC is exactly what the catalogue generates", (path) => {
    const generated = parseObjects(currentRbacYaml());
    const rendered = render(path).filter((o) => rbacKinds.has(o.kind));
    expect(rendered.map(key).sort()).toEqual(generated.map(key).sort());
    for (const g of generated) expect(rendered.find((r) => key(r) === key(g))).toEqual(g);
    const worker = workloadOf(render(path), 'worker')!;
    expect(worker.metadata.namespace).toBe('devtroncd');
    expect(podSpec(worker).serviceAccountName).toBe('platform-medic-worker');
  });

  it("deploy/base/worker/rbac.yaml is deploy/rbac.yaml (npm run gen:rbac writes both)", () => {
    expect(readFileSync(join(deployDir, 'base/worker/rbac.yaml'), 'utf8')).toBe(currentRbacYaml());
  });

  it.each(['overlays/example/prod-eu', 'overlays/example/prod-us'] as const)('%s: the worker serves the cluster its configuration names, and the bot knows it', (path) => {
    const cluster = path.split('/').pop()!;
    const objects = render(path);
    expect(podSpec(workloadOf(objects, 'worker')!).containers[0]!.args).toEqual(['worker', '--cluster', cluster]);
    const dir = mkdtempSync(join(tmpdir(), 'medic-cm-'));
    writeFileSync(join(dir, 'worker.yaml'), configFileOf(objects)!);
    writeFileSync(join(dir, 'bot.yaml'), configFileOf(render('overlays/example/control'))!);
    const worker = loadConfig({ env: {}, file: join(dir, 'worker.yaml') });
    expect(worker.clusters.map((c) => c.name)).toEqual([cluster]);
    expect(worker.clusters[0]!.kube).toEqual({ source: 'in-cluster' });
    expect(loadConfig({ env: {}, file: join(dir, 'bot.yaml') }).clusters.map((c) => c.name)).toContain(cluster);
    // The worker reaches the control cluster's Redis, whose address its NetworkPolicy allows.
    const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'platform-medic-redis') as unknown as { stringData: { REDIS_URL: string } };
    const host = new URL(secret.stringData.REDIS_URL).hostname;
    expect(JSON.stringify(objects.find((o) => o.kind === 'NetworkPolicy'))).toContain(`"cidr":"${host}/32"`);
  });

  it('Redis persists append-only on a volume, refuses eviction, and an external Redis removes it', () => {
    const redis = workloadOf(render('overlays/example/control'), 'redis')!;
    expect(redis.kind).toBe('StatefulSet');
    const args = podSpec(redis).containers[0]!.args!.join(' ');
    expect(args).toContain('--appendonly yes');
    expect(args).toContain('--maxmemory-policy noeviction');
    expect((redis as unknown as { spec: { volumeClaimTemplates: unknown[] } }).spec.volumeClaimTemplates).toHaveLength(1);
    const external = render('overlays/external-redis');
    expect(external.filter((o) => o.metadata.labels?.['app.kubernetes.io/component'] === 'redis')).toEqual([]);
    const bot = podSpec(workloadOf(external, 'bot')!).containers[0]!;
    expect(bot.env!.find((e) => e.name === 'REDIS_URL')!.valueFrom!.secretKeyRef).toEqual({ name: 'platform-medic-redis', key: 'REDIS_URL' });
  });

  it('NetworkPolicies: the bot reaches only DNS, Redis and HTTPS; the worker only DNS, the API server, Redis, the dashboard and PostgreSQL', () => {
    type Policy = { spec: { policyTypes: string[]; ingress: { ports: { port: string | number }[] }[]; egress: { ports: { port: number }[] }[] } };
    const policy = (objects: K8sObject[], name: string) => objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === name) as unknown as Policy;
    const ports = (p: Policy) => [...new Set(p.spec.egress.flatMap((r) => r.ports.map((x) => x.port)))].sort((a, b) => a - b);
    const bot = policy(render('overlays/example/control'), 'platform-medic-bot');
    expect(bot.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(ports(bot)).toEqual([53, 443, 6379]);
    expect(bot.spec.ingress.flatMap((r) => r.ports.map((x) => x.port))).toEqual(['http']);
    const worker = policy(render('overlays/example/prod-eu'), 'platform-medic-worker');
    expect(ports(worker)).toEqual([53, 443, 3000, 5432, 6379, 6443]);
    expect(worker.spec.ingress.flatMap((r) => r.ports.map((x) => x.port))).toEqual(['health']);
    // HTTPS to the internet is for Slack only: never to a private range (the cluster's pods and services).
    const https = JSON.stringify(bot.spec.egress.find((r) => r.ports.some((x) => x.port === 443)));
    for (const range of ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16']) expect(https).toContain(range);
  });

  it('Socket Mode: no public way in (no Service, no Ingress, only the health port), the app-level token required, no signing secret', () => {
    const objects = render('overlays/socket-mode');
    const bot = workloadOf(objects, 'bot')!;
    const c = podSpec(bot).containers[0]!;
    expect(socketMode(c)).toBe(true);
    expect(c.env!.find((e) => e.name === 'SLACK_APP_TOKEN')!.valueFrom!.secretKeyRef).toEqual({ name: 'platform-medic-slack', key: 'SLACK_APP_TOKEN', optional: false });
    expect(c.env!.map((e) => e.name)).not.toContain('SLACK_SIGNING_SECRET');
    expect(c.env!.map((e) => e.name)).not.toContain('PORT');
    expect(c.ports).toEqual([{ name: 'health', containerPort: 9090, protocol: 'TCP' }]);
    expect((bot as unknown as { spec: { template: { metadata: { annotations: Record<string, string> } } } }).spec.template.metadata.annotations['prometheus.io/port']).toBe('9090');
    // Two replicas: while one reconnects (Slack recycles connections), the other holds one open.
    expect((bot as unknown as { spec: { replicas: number } }).spec.replicas).toBe(2);
    const botObjects = objects.filter((o) => o.metadata.labels?.['app.kubernetes.io/component'] === 'bot');
    expect(botObjects.filter((o) => o.kind === 'Service' || o.kind === 'Ingress')).toEqual([]);
    const policy = botObjects.find((o) => o.kind === 'NetworkPolicy') as unknown as { spec: { ingress: { from?: unknown; ports: { port: string }[] }[]; egress: { ports: { port: number }[] }[] } };
    expect(policy.spec.ingress).toEqual([{ ports: [{ port: 'health', protocol: 'TCP' }] }]);
    expect([...new Set(policy.spec.egress.flatMap((r) => r.ports.map((p) => p.port)))].sort((a, b) => a - b)).toEqual([53, 443, 6379]);
    const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'platform-medic-slack') as unknown as { stringData: Record<string, string> };
    expect(Object.keys(secret.stringData).sort()).toEqual(['SLACK_APP_TOKEN', 'SLACK_BOT_TOKEN']);
    expect(secret.stringData.SLACK_APP_TOKEN).toMatch(/^xapp-REPLACE-ME/);
  });

  it('HTTP: the example publishes only /slack/events, over TLS, to the bot\'s Service, at the address of the Slack app manifest', () => {
    type IngressSpec = { spec: { tls: { hosts: string[]; secretName: string }[]; rules: { host: string; http: { paths: { path: string; pathType: string; backend: { service: { name: string; port: { name: string } } } }[] } }[] } };
    const objects = render('overlays/example/control');
    const ingresses = objects.filter((o) => o.kind === 'Ingress') as unknown as IngressSpec[];
    expect(ingresses).toHaveLength(1);
    const { spec } = ingresses[0]!;
    const paths = spec.rules.flatMap((r) => r.http.paths.map((p) => ({ host: r.host, ...p })));
    expect(paths).toEqual([{ host: 'platform-medic.example.com', path: '/slack/events', pathType: 'Exact', backend: { service: { name: 'platform-medic-bot', port: { name: 'http' } } } }]);
    expect(spec.tls.flatMap((t) => t.hosts)).toEqual(['platform-medic.example.com']);
    const service = objects.find((o) => o.kind === 'Service' && o.metadata.name === 'platform-medic-bot') as unknown as { spec: { ports: { name: string }[] } };
    expect(service.spec.ports.map((p) => p.name)).toContain('http');
    const manifest = readFileSync(join(deployDir, 'slack-app-manifest.yaml'), 'utf8');
    expect(manifest).toContain('https://platform-medic.example.com/slack/events');
  });

  it('the example is one bot and one Redis in the control cluster, and one worker in each of two clusters', () => {
    const all = (['overlays/example/control', 'overlays/example/prod-eu', 'overlays/example/prod-us'] as const).map(render).flat();
    const count = (component: string) => all.filter((o) => isWorkload(o) && o.metadata.labels?.['app.kubernetes.io/component'] === component).length;
    expect([count('bot'), count('redis'), count('worker')]).toEqual([1, 1, 2]);
    expect(render('overlays/example/control').every((o) => o.kind === 'Namespace' || o.metadata.namespace === 'platform-medic')).toBe(true);
  });
});

describe('deploy/ files', () => {
  it('every kustomization names only files that exist (checked without kubectl too)', () => {
    for (const path of paths) {
      const k = parseYaml(readFileSync(join(deployDir, path, 'kustomization.yaml'), 'utf8')) as { resources?: string[] };
      for (const r of k.resources ?? []) expect(() => readFileSync(join(deployDir, path, r.endsWith('.yaml') ? r : `${r}/kustomization.yaml`)), `${path}: ${r}`).not.toThrow();
    }
  });
});
