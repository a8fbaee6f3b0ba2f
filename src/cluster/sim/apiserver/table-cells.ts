import type { JsonObject, KubeObject } from './types.js';

/**
 * Cells of the server-side tables for nodes, services and claims, computed as kube-apiserver's printers
 * compute them (pkg/printers/internalversion/printers.go: printNode, printService, printPersistentVolumeClaim).
 */

const field = (o: KubeObject, name: string): JsonObject => (o[name] as JsonObject | undefined) ?? {};

/** helper.GetAccessModesAsString: RWO, ROX, RWX, RWOP, comma-separated, in that order. */
export function accessModes(modes: unknown): string {
  const given = Array.isArray(modes) ? modes.map(String) : [];
  const short: Array<[string, string]> = [
    ['ReadWriteOnce', 'RWO'],
    ['ReadOnlyMany', 'ROX'],
    ['ReadWriteMany', 'RWX'],
    ['ReadWriteOncePod', 'RWOP'],
  ];
  return short
    .filter(([mode]) => given.includes(mode))
    .map(([, s]) => s)
    .join(',');
}

/** printNode: the Ready condition ("Ready", "NotReady", "Unknown"), then SchedulingDisabled when cordoned. */
export function nodeStatus(o: KubeObject): string {
  const conditions = (field(o, 'status')['conditions'] as Array<{ type?: string; status?: string }> | undefined) ?? [];
  const ready = conditions.find((c) => c.type === 'Ready');
  const states = [ready === undefined ? 'Unknown' : ready.status === 'True' ? 'Ready' : 'NotReady'];
  if (field(o, 'spec')['unschedulable'] === true) states.push('SchedulingDisabled');
  return states.join(',');
}

/** findNodeRoles: `node-role.kubernetes.io/<role>` labels and the legacy `kubernetes.io/role`, or <none>. */
export function nodeRoles(o: KubeObject): string {
  const roles = new Set<string>();
  for (const [key, value] of Object.entries(o.metadata.labels ?? {})) {
    if (key.startsWith('node-role.kubernetes.io/')) roles.add(key.slice('node-role.kubernetes.io/'.length));
    else if (key === 'kubernetes.io/role' && value !== '') roles.add(value);
  }
  return roles.size > 0 ? [...roles].sort().join(',') : '<none>';
}

/** getServiceExternalIP: external IPs for ClusterIP and NodePort, the balancer's ingress or <pending> for LoadBalancer. */
export function serviceExternalIP(o: KubeObject): string {
  const spec = field(o, 'spec');
  const external = ((spec['externalIPs'] as string[] | undefined) ?? []).join(',');
  switch (spec['type'] ?? 'ClusterIP') {
    case 'LoadBalancer': {
      const ingress = ((field(o, 'status')['loadBalancer'] as { ingress?: Array<{ ip?: string; hostname?: string }> } | undefined)?.ingress ?? [])
        .map((i) => i.ip || i.hostname || '')
        .filter((s) => s !== '');
      const all = [...ingress, ...(external ? [external] : [])].join(',');
      return all || '<pending>';
    }
    case 'ExternalName':
      return String(spec['externalName'] ?? '<none>');
    default:
      return external || '<none>';
  }
}

/** makePortString: `80/TCP`, or `80:30080/TCP` with a node port; <none> without ports. */
export function servicePorts(o: KubeObject): string {
  const ports = (field(o, 'spec')['ports'] as Array<{ port?: number; nodePort?: number; protocol?: string }> | undefined) ?? [];
  if (ports.length === 0) return '<none>';
  return ports.map((p) => `${p.port ?? 0}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(',');
}
