import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatedCluster } from '../../../src/cluster/sim/index.js';
import type { SimulatedCluster } from '../../../src/cluster/sim/index.js';
import { fast, isReady, pods } from './support.js';

const kubectlPath = '/usr/bin/kubectl';
const run = promisify(execFile);

describe.skipIf(!existsSync(kubectlPath))('kubectl against the simulated cluster', () => {
  let sim: SimulatedCluster;
  let dir: string;

  /** kubectl with the kubeconfig and cache in `home` (default: the shared cluster's). */
  const kubectlIn = (home: () => string) => async (...args: string[]) => {
    const { stdout } = await run(kubectlPath, [...args, '--cache-dir', join(home(), 'cache')], {
      env: { ...process.env, KUBECONFIG: join(home(), 'config'), HOME: home() },
      timeout: 20_000,
    });
    return stdout;
  };
  const kubectl = kubectlIn(() => dir);

  beforeAll(async () => {
    sim = await startSimulatedCluster(fast);
    dir = await mkdtemp(join(tmpdir(), 'sim-kubectl-'));
    await sim.writeKubeconfig(join(dir, 'config'));
  });
  afterAll(async () => {
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lists the main pod by label as JSON', async () => {
    const out = JSON.parse(await kubectl('get', 'pods', '-n', 'devtroncd', '-l', 'app=devtron', '-o', 'json')) as {
      kind: string;
      items: Array<{ metadata: { name: string; uid: string } }>;
    };
    expect(out.kind).toBe('List');
    const [main] = sim.list(pods, 'devtroncd', 'app=devtron');
    expect(out.items.map((p) => [p.metadata.name, p.metadata.uid])).toEqual([[main.metadata.name, main.metadata.uid]]);
  });

  it('prints the server-side table for human output', async () => {
    const out = await kubectl('get', 'pods', '-n', 'devtroncd');
    expect(out.split('\n')[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
    expect(out).toMatch(/git-sensor-0\s+1\/1\s+Running\s+0\s+3d/);
  });

  it('deletes git-sensor-0, waiting for the deletion, and the pod comes back with a new uid', async () => {
    // A cluster of its own: the other tests read the seeded git-sensor-0, whatever order they run in. Its pods take
    // 2 s to stop, as real ones take their grace period: kubectl's wait for a deletion reads the pod, then lists and
    // watches it by name, and waits for a DELETED event (IsDeleted, staging/src/k8s.io/kubectl/pkg/cmd/wait/delete.go).
    // With the 50 ms stop of `fast`, the pod could be gone and its replacement (same name, new uid) listed between
    // those two reads under load: kubectl then waits for a deletion already past, as it would on a real cluster.
    const own = await startSimulatedCluster({ ...fast, podStopMs: 2_000 });
    const home = await mkdtemp(join(tmpdir(), 'sim-kubectl-delete-'));
    try {
      await own.writeKubeconfig(join(home, 'config'));
      const before = own.get(pods, 'devtroncd', 'git-sensor-0').metadata.uid;
      const out = await kubectlIn(() => home)('delete', 'pod', 'git-sensor-0', '-n', 'devtroncd');
      expect(out.trim()).toBe('pod "git-sensor-0" deleted');
      await own.settle();
      const after = own.get(pods, 'devtroncd', 'git-sensor-0');
      expect(after.metadata.uid).not.toBe(before);
      expect(isReady(after)).toBe(true);
      expect(own.requests()).toContainEqual(expect.objectContaining({ method: 'DELETE', path: '/api/v1/namespaces/devtroncd/pods/git-sensor-0', status: 200 }));
    } finally {
      await own.close();
      await rm(home, { recursive: true, force: true });
    }
  });

  it('reports a missing pod the way kubectl reports it from a real cluster', async () => {
    const failure = await kubectl('get', 'pod', 'nope', '-n', 'devtroncd').catch((e: { stderr: string }) => e.stderr);
    expect(failure).toContain('Error from server (NotFound): pods "nope" not found');
  });
});
