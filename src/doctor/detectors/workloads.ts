import { z } from 'zod';
import { defineDetector, objectName, type Evidence } from './detector.js';

/** Whether a deployment is the one meant: by name, or carrying a `key=value` label. */
const deploymentRef = z.strictObject({ names: z.array(z.string().min(1)).min(1), label: z.string().regex(/^[\w./-]+=[\w.-]+$/).optional() });

/**
 * Entry 15: a deployment (the metrics-server, wherever it is installed) never ready while its
 * containers lack an argument (`--kubelet-insecure-tls`), with the kubelet's readiness failures.
 */
const missingArgumentDetector = z.strictObject({ kind: z.literal('missingArgument'), deployment: deploymentRef, argument: z.string().startsWith('--') });
export type MissingArgumentDetector = z.infer<typeof missingArgumentDetector>;

type Ref = z.infer<typeof deploymentRef>;
const matches = (ref: Ref, d: { name: string; labels: Readonly<Record<string, string>> }) => {
  if (ref.names.includes(d.name)) return true;
  if (!ref.label) return false;
  const [k, v] = ref.label.split('=', 2) as [string, string];
  return d.labels[k] === v;
};

export const missingArgument = defineDetector({
  kind: 'missingArgument',
  detector: missingArgumentDetector,
  reads: () => [
    { list: 'deployments', in: 'cluster' },
    { list: 'warnings', in: 'cluster' },
  ],
  detect(d, snap) {
    const evidence: Evidence[] = [];
    for (const dep of snap.deployments('cluster').filter((x) => matches(d.deployment, x))) {
      if (dep.readyReplicas >= dep.replicas) continue;
      if (dep.containers.some((c) => c.args.includes(d.argument))) continue;
      const object = objectName('deployment', dep.namespace, dep.name);
      evidence.push({ object, detail: `${dep.readyReplicas}/${dep.replicas} ready; args without ${d.argument}: ${dep.containers.flatMap((c) => c.args).join(' ') || '(none)'}` });
      const probe = snap.warnings('cluster').find((e) => e.namespace === dep.namespace && e.object.kind === 'Pod' && e.object.name.startsWith(`${dep.name}-`) && e.reason === 'Unhealthy');
      if (probe) evidence.push({ object: objectName('pod', probe.namespace, probe.object.name), detail: `${probe.message} (${probe.count}×, last ${probe.lastSeen})` });
    }
    return { state: evidence.length > 0 ? 'present' : 'absent', evidence };
  },
});

/** `v0.13.0` → [0, 13, 0]; undefined when the tag is no version. */
function versionOf(image: string): number[] | undefined {
  const tag = /:v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(image.slice(image.lastIndexOf('/')));
  return tag ? [Number(tag[1]), Number(tag[2]), Number(tag[3] ?? 0)] : undefined;
}
function below(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  }
  return false;
}

/**
 * Entry 19: a controller (the rollout controller) whose image version is below `below` on a cluster of
 * version `clusterAtLeast` or later (the server's /version).
 */
const controllerVersionDetector = z.strictObject({
  kind: z.literal('controllerVersion'),
  deployment: deploymentRef,
  below: z.string().regex(/^\d+\.\d+\.\d+$/),
  clusterAtLeast: z.string().regex(/^1\.\d+$/),
});
export type ControllerVersionDetector = z.infer<typeof controllerVersionDetector>;

export const controllerVersion = defineDetector({
  kind: 'controllerVersion',
  detector: controllerVersionDetector,
  reads: () => [{ list: 'deployments', in: 'cluster' }, { serverVersion: true }],
  detect(d, snap) {
    const server = snap.serverVersion();
    const [major, minor] = d.clusterAtLeast.split('.').map(Number) as [number, number];
    if (server.major < major || (server.major === major && server.minor < minor)) return { state: 'absent', evidence: [] };
    const limit = d.below.split('.').map(Number);
    const evidence: Evidence[] = [];
    for (const dep of snap.deployments('cluster').filter((x) => matches(d.deployment, x))) {
      const old = dep.containers.find((c) => {
        const v = versionOf(c.image);
        return v !== undefined && below(v, limit);
      });
      if (old) evidence.push({ object: objectName('deployment', dep.namespace, dep.name), detail: `runs ${old.image} (below ${d.below}) on a cluster of version ${server.gitVersion}` });
    }
    return { state: evidence.length > 0 ? 'present' : 'absent', evidence };
  },
});
