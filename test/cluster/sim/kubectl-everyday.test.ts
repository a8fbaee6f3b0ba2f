import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatedCluster } from '../../../src/cluster/sim/index.js';
import type { SimulatedCluster } from '../../../src/cluster/sim/index.js';
import { deployments, fast, pods } from './support.js';

/**
 * kubectl's everyday commands against the simulated cluster, as a newcomer types them against `npm run sim`
 * (issue 14, item 9). Each answer is the one kube-apiserver gives; the Kubernetes source it follows is cited
 * where the simulator implements it (src/cluster/sim/apiserver/*.ts).
 */

const kubectlPath = '/usr/bin/kubectl';
const run = promisify(execFile);
const configMaps = { group: '', version: 'v1', plural: 'configmaps' };

describe.skipIf(!existsSync(kubectlPath))("kubectl's everyday commands against the simulated cluster", () => {
  let sim: SimulatedCluster;
  let dir: string;

  /** kubectl's stdout, stderr and exit code (0 when it succeeded). */
  const kubectl = async (...args: string[]): Promise<{ out: string; err: string; code: number }> => {
    try {
      const { stdout, stderr } = await run(kubectlPath, [...args, '--cache-dir', join(dir, 'cache')], {
        env: { ...process.env, KUBECONFIG: join(dir, 'config'), HOME: dir },
        timeout: 30_000,
      });
      return { out: stdout, err: stderr, code: 0 };
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; code?: number };
      return { out: e.stdout ?? '', err: e.stderr ?? '', code: typeof e.code === 'number' ? e.code : -1 };
    }
  };
  const manifest = async (name: string, text: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, text);
    return path;
  };

  beforeAll(async () => {
    sim = await startSimulatedCluster(fast);
    dir = await mkdtemp(join(tmpdir(), 'sim-kubectl-everyday-'));
    await sim.writeKubeconfig(join(dir, 'config'));
  });
  afterAll(async () => {
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('applies a ConfigMap, then applies a change to it (validation from /openapi/v3, a strategic merge patch on update)', async () => {
    const cm = (value: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  a: "${value}"\n  b: "kept"\n`;
    const created = await kubectl('apply', '-f', await manifest('cm.yaml', cm('1')));
    expect(created.err).toBe('');
    expect(created.out.trim()).toBe('configmap/applied created');
    const updated = await kubectl('apply', '-f', await manifest('cm.yaml', cm('2')));
    expect(updated.err).toBe('');
    expect(updated.out.trim()).toBe('configmap/applied configured');
    expect(sim.get(configMaps, 'devtroncd', 'applied')?.data).toEqual({ a: '2', b: 'kept' });
    // kubectl validated through the server (fieldValidation=Strict) after reading the OpenAPI v3 documents.
    const paths = sim.requests().map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(paths).toContain('GET /openapi/v3 200');
    expect(paths).toContain('GET /openapi/v3/api/v1 200');
    expect(sim.requests()).toContainEqual(expect.objectContaining({ method: 'PATCH', path: '/api/v1/namespaces/devtroncd/configmaps/applied', status: 200, query: expect.stringContaining('fieldValidation=Strict') }));
  });

  it('applies a Deployment and an update that changes an image and drops a container', async () => {
    const deployment = (image: string, sidecar: boolean) =>
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: {name: web, labels: {app: web}}',
        'spec:',
        '  replicas: 1',
        '  selector: {matchLabels: {app: web}}',
        '  template:',
        '    metadata: {labels: {app: web}}',
        '    spec:',
        '      containers:',
        `      - {name: web, image: "${image}", ports: [{containerPort: 80}]}`,
        ...(sidecar ? ['      - {name: side, image: "busybox:1"}'] : []),
        '',
      ].join('\n');
    expect((await kubectl('apply', '-f', await manifest('web.yaml', deployment('nginx:1.25', true)))).out.trim()).toBe('deployment.apps/web created');
    const updated = await kubectl('apply', '-f', await manifest('web.yaml', deployment('nginx:1.27', false)));
    expect(updated.err).toBe('');
    expect(updated.out.trim()).toBe('deployment.apps/web configured');
    const containers = (sim.get(deployments, 'devtroncd', 'web') as { spec: { template: { spec: { containers: Array<{ name: string; image: string }> } } } }).spec.template.spec.containers;
    expect(containers.map((c) => [c.name, c.image])).toEqual([['web', 'nginx:1.27']]);
  });

  it('server-side apply fails as on a server without the apply patch type (415, which kubectl reports as such)', async () => {
    const path = await manifest('ssa.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ssa\ndata:\n  a: "1"\n');
    const r = await kubectl('apply', '--server-side', '-f', path);
    expect(r.code).not.toBe(0);
    // handlers/patch.go refuses an unserved patch type with negotiation.NewUnsupportedMediaTypeError.
    expect(r.err.trim()).toBe(
      'error: Server-side apply not available on the server: (the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json)',
    );
  });

  it('creates a ConfigMap, a Deployment and a Service from kubectl create, whose bodies are protobuf', async () => {
    const cm = await kubectl('create', 'configmap', 'x', '--from-literal=a=b');
    expect(cm.err).toBe('');
    expect(cm.out.trim()).toBe('configmap/x created');
    expect(sim.get(configMaps, 'devtroncd', 'x')?.data).toEqual({ a: 'b' });
    const dep = await kubectl('create', 'deployment', 'zero', '--image=nginx:1.27', '--replicas=0', '--port=80');
    expect(dep.out.trim()).toBe('deployment.apps/zero created');
    const spec = (sim.get(deployments, 'devtroncd', 'zero') as { spec: { replicas: number; template: { spec: { containers: unknown[] } } } }).spec;
    expect(spec.replicas).toBe(0);
    expect(spec.template.spec.containers).toEqual([{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }]);
    const svc = await kubectl('create', 'service', 'clusterip', 'web', '--tcp=80:8080', '--tcp=443:web-tls');
    expect(svc.out.trim()).toBe('service/web created');
    const ports = (sim.get({ group: '', version: 'v1', plural: 'services' }, 'devtroncd', 'web') as { spec: { ports: unknown[] } }).spec.ports;
    expect(ports).toEqual([
      { name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 },
      { name: '443-web-tls', protocol: 'TCP', port: 443, targetPort: 'web-tls' },
    ]);
  });

  it('exec fails with the error of a server that cannot upgrade the connection', async () => {
    // pkg/registry/core/pod/rest/subresources.go hands exec to an UpgradeAwareHandler with UpgradeRequired;
    // k8s.io/apimachinery/pkg/util/proxy/upgradeaware.go answers NewBadRequest("Upgrade request required").
    const r = await kubectl('exec', 'git-sensor-0', '--', 'ls');
    expect(r.code).not.toBe(0);
    expect(r.err.trim()).toBe('Error from server (BadRequest): Upgrade request required');
    const missing = await kubectl('exec', 'nope', '--', 'ls');
    expect(missing.err.trim()).toBe('Error from server (NotFound): pods "nope" not found');
  });

  it('get all lists the workloads, pods and services (category "all"), not the platform\'s custom resources', async () => {
    const r = await kubectl('get', 'all');
    expect(r.err).toBe('');
    for (const prefix of ['pod/git-sensor-0', 'service/devtron-service', 'deployment.apps/devtron', 'statefulset.apps/git-sensor', 'job.batch/', 'replicaset.apps/devtron-']) {
      expect(r.out).toContain(prefix);
    }
    expect(r.out).not.toContain('installer.installer.devtron.ai');
  });

  it('logs --previous: the kubelet\'s 400 without a previous container, the crashed instance\'s log after a restart', async () => {
    // validateContainerLogStatus in pkg/kubelet/kubelet_pods.go.
    const none = await kubectl('logs', 'git-sensor-0', '--previous');
    expect(none.code).not.toBe(0);
    expect(none.out).toBe('');
    expect(none.err.trim()).toBe('Error from server (BadRequest): previous terminated container "git-sensor" in pod "git-sensor-0" not found');

    const own = await startSimulatedCluster(fast);
    const home = await mkdtemp(join(tmpdir(), 'sim-kubectl-previous-'));
    try {
      own.break('database-image-pull');
      await own.settle();
      await own.writeKubeconfig(join(home, 'config'));
      const [main] = own.list(pods, 'devtroncd', 'app=devtron');
      const { stdout } = await run(kubectlPath, ['logs', main.metadata.name, '--previous', '--cache-dir', join(home, 'cache')], {
        env: { ...process.env, KUBECONFIG: join(home, 'config'), HOME: home },
        timeout: 30_000,
      });
      // The crashed instance's log: the main pod's failed connection as its sql client logs it (zap JSON), then its exit.
      expect(stdout).toContain('"msg":"error in connecting db "');
      expect(stdout).toContain('panic: dial tcp 10.96.23.9:5432: connect: connection refused');
    } finally {
      await own.close();
      await rm(home, { recursive: true, force: true });
    }
  });

  it('prints the columns kube-apiserver prints for nodes, services and claims', async () => {
    // pkg/printers/internalversion/printers.go: the column definitions of nodes, services and claims.
    const nodes = (await kubectl('get', 'nodes')).out.split('\n');
    expect(nodes[0]).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION$/);
    expect(nodes[1]).toMatch(/^sim-node-1\s+Ready\s+<none>\s+3d\s+v1\.32\.0$/);
    const services = (await kubectl('get', 'services')).out.split('\n');
    expect(services[0]).toMatch(/^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE$/);
    expect(services.find((l) => l.startsWith('devtron-service '))).toMatch(/^devtron-service\s+ClusterIP\s+10\.96\.\d+\.\d+\s+<none>\s+80\/TCP\s+3d$/);
    const claims = (await kubectl('get', 'pvc')).out.split('\n');
    expect(claims[0]).toMatch(/^NAME\s+STATUS\s+VOLUME\s+CAPACITY\s+ACCESS MODES\s+STORAGECLASS\s+VOLUMEATTRIBUTESCLASS\s+AGE$/);
    expect(claims.find((l) => l.startsWith('git-volume-git-sensor-0 '))).toMatch(/^git-volume-git-sensor-0\s+Bound\s+pvc-\S+\s+10Gi\s+RWO\s+standard\s+<unset>\s+3d$/);
  });

  it('npm run sim prints the address its kubeconfig holds, and kubectl reaches it there', { timeout: 90_000 }, async () => {
    const config = join(dir, 'from-sim-command');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'sim', '--kubeconfig', config], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const printed = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('press Ctrl-C')) resolve(out);
        });
        child.once('exit', (code) => reject(new Error(`npm run sim exited ${String(code)}: ${out}`)));
      });
      const served = /serving at (\S+)/.exec(printed)?.[1];
      const kubeconfig = parse(await readFile(config, 'utf8')) as { clusters: Array<{ cluster: { server: string } }> };
      expect(served).toBe(kubeconfig.clusters[0]?.cluster.server);
      expect(served).toMatch(/^https:\/\//);
      const { stdout } = await run(kubectlPath, ['get', 'nodes', '-o', 'name', '--kubeconfig', config, '--cache-dir', join(dir, 'cache-from-sim')], { env: { ...process.env, HOME: dir }, timeout: 30_000 });
      expect(stdout.trim()).toBe('node/sim-node-1');
    } finally {
      if (child.pid !== undefined && child.exitCode === null) child.kill('SIGTERM');
    }
  });
});
