import { connectSubresources } from './connect.js';
import type { ResourceKind } from './resources.js';
import { resourceKinds, resourceVerbs } from './resources.js';

/**
 * The legacy (unaggregated) discovery documents. kubectl asks for aggregated discovery first and falls
 * back to these when the answer is plain `application/json`, so these are all it needs.
 */

export const serverVersion = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.0-sim',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2025-01-01T00:00:00Z',
  goVersion: 'go1.23.4',
  compiler: 'gc',
  platform: 'linux/amd64',
};

function groupVersions(): Map<string, Set<string>> {
  const groups = new Map<string, Set<string>>();
  for (const k of resourceKinds) {
    if (k.group === '') continue;
    const versions = groups.get(k.group) ?? new Set<string>();
    versions.add(k.version);
    groups.set(k.group, versions);
  }
  return groups;
}

export function apiVersions(serverAddress: string): object {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function groupEntry(name: string, versions: Set<string>): object {
  const list = [...versions].map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return { name, versions: list, preferredVersion: list[0] };
}

export function apiGroupList(): object {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: [...groupVersions()].map(([name, versions]) => groupEntry(name, versions)) };
}

/** `/apis/{group}`, or undefined when the group is not served. */
export function apiGroup(name: string): object | undefined {
  const versions = groupVersions().get(name);
  return versions ? { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(name, versions) } : undefined;
}

/** The options kinds of the connect subresources in real discovery: PodExecOptions, PodAttachOptions, PodPortForwardOptions. */
const connectKinds: Record<string, string> = { exec: 'ExecOptions', attach: 'AttachOptions', portforward: 'PortForwardOptions' };

function resourceEntries(k: ResourceKind): object[] {
  const main = {
    name: k.plural,
    singularName: k.singular,
    namespaced: k.namespaced,
    kind: k.kind,
    verbs: resourceVerbs,
    ...(k.shortNames ? { shortNames: k.shortNames } : {}),
    ...(k.categories ? { categories: k.categories } : {}),
  };
  const subs: object[] = [];
  if (k.statusSubresource) subs.push({ name: `${k.plural}/status`, singularName: '', namespaced: k.namespaced, kind: k.kind, verbs: ['get', 'patch', 'update'] });
  for (const sub of k.subresources ?? []) {
    subs.push(
      sub === 'scale'
        ? { name: `${k.plural}/scale`, singularName: '', namespaced: k.namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] }
        : connectSubresources.includes(sub)
          ? { name: `${k.plural}/${sub}`, singularName: '', namespaced: k.namespaced, kind: `${k.kind}${connectKinds[sub] ?? ''}`, verbs: ['create', 'get'] }
          : { name: `${k.plural}/${sub}`, singularName: '', namespaced: k.namespaced, kind: k.kind, verbs: ['get'] },
    );
  }
  return [main, ...subs];
}

/** `/api/v1` or `/apis/{group}/{version}`, or undefined when that group version is not served. */
export function apiResourceList(group: string, version: string): object | undefined {
  const served = resourceKinds.filter((k) => k.group === group && k.version === version);
  if (served.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group === '' ? version : `${group}/${version}`,
    resources: served.flatMap(resourceEntries),
  };
}
