import { podPhase } from './pods.js';
import type { ResourceKind } from './resources.js';
import { accessModes, nodeRoles, nodeStatus, serviceExternalIP, servicePorts } from './table-cells.js';
import type { JsonObject, KubeObject } from './types.js';

/**
 * Server-side printing (`Accept: application/json;as=Table`), which kubectl asks for whenever it prints
 * columns. Without it kubectl would still work but show only NAME and AGE.
 */

interface Column {
  name: string;
  type: string;
  format?: string;
  /** 1: shown only with `-o wide`. */
  priority?: number;
  cell: (o: KubeObject) => string | number;
}

function age(o: KubeObject): string {
  const created = Date.parse(o.metadata.creationTimestamp ?? '');
  if (Number.isNaN(created)) return '<unknown>';
  const s = Math.max(0, Math.floor((Date.now() - created) / 1000));
  if (s < 120) return `${s}s`;
  if (s < 7200) return `${Math.floor(s / 60)}m`;
  if (s < 172800) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

const status = (o: KubeObject): JsonObject => (o['status'] as JsonObject | undefined) ?? {};
const spec = (o: KubeObject): JsonObject => (o['spec'] as JsonObject | undefined) ?? {};
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);

interface ContainerStatus {
  ready?: boolean;
  restartCount?: number;
  state?: { waiting?: { reason?: string }; terminated?: { reason?: string } };
}

function podStatusText(o: KubeObject): string {
  // kubectl's printPod (pkg/printers/internalversion/printers.go): a pod being deleted reads Terminating.
  if (o.metadata.deletionTimestamp) return 'Terminating';
  const statuses = (status(o)['containerStatuses'] as ContainerStatus[] | undefined) ?? [];
  const waiting = statuses.find((c) => c.state?.waiting?.reason)?.state?.waiting?.reason;
  if (waiting && waiting !== 'ContainerCreating') return waiting;
  if (podPhase(o) === 'Succeeded') return 'Completed';
  if (podPhase(o) === 'Pending' && waiting) return waiting;
  return podPhase(o);
}

const nameColumn: Column = { name: 'Name', type: 'string', format: 'name', cell: (o) => o.metadata.name ?? '' };
const ageColumn: Column = { name: 'Age', type: 'string', cell: age };

const columnsByKind: Record<string, Column[]> = {
  Pod: [
    nameColumn,
    {
      name: 'Ready',
      type: 'string',
      cell: (o) => {
        const statuses = (status(o)['containerStatuses'] as ContainerStatus[] | undefined) ?? [];
        return `${statuses.filter((c) => c.ready).length}/${statuses.length}`;
      },
    },
    { name: 'Status', type: 'string', cell: podStatusText },
    {
      name: 'Restarts',
      type: 'string',
      cell: (o) => String(((status(o)['containerStatuses'] as ContainerStatus[] | undefined) ?? []).reduce((n, c) => n + (c.restartCount ?? 0), 0)),
    },
    ageColumn,
  ],
  Deployment: [
    nameColumn,
    { name: 'Ready', type: 'string', cell: (o) => `${num(status(o)['readyReplicas'])}/${num(spec(o)['replicas'])}` },
    { name: 'Up-to-date', type: 'integer', cell: (o) => num(status(o)['updatedReplicas']) },
    { name: 'Available', type: 'integer', cell: (o) => num(status(o)['availableReplicas']) },
    ageColumn,
  ],
  StatefulSet: [nameColumn, { name: 'Ready', type: 'string', cell: (o) => `${num(status(o)['readyReplicas'])}/${num(spec(o)['replicas'])}` }, ageColumn],
  ReplicaSet: [
    nameColumn,
    { name: 'Desired', type: 'integer', cell: (o) => num(spec(o)['replicas']) },
    { name: 'Current', type: 'integer', cell: (o) => num(status(o)['replicas']) },
    { name: 'Ready', type: 'integer', cell: (o) => num(status(o)['readyReplicas']) },
    ageColumn,
  ],
  Job: [
    nameColumn,
    { name: 'Status', type: 'string', cell: (o) => (status(o)['completionTime'] ? 'Complete' : 'Running') },
    { name: 'Completions', type: 'string', cell: (o) => `${num(status(o)['succeeded'])}/${num(spec(o)['completions']) || 1}` },
    ageColumn,
  ],
  // The columns of printPersistentVolumeClaim: capacity and access modes are shown once the claim names its volume.
  PersistentVolumeClaim: [
    nameColumn,
    { name: 'Status', type: 'string', cell: (o) => (o.metadata.deletionTimestamp ? 'Terminating' : String(status(o)['phase'] ?? '')) },
    { name: 'Volume', type: 'string', cell: (o) => String(spec(o)['volumeName'] ?? '') },
    { name: 'Capacity', type: 'string', cell: (o) => (spec(o)['volumeName'] ? String((status(o)['capacity'] as JsonObject | undefined)?.['storage'] ?? '') : '') },
    { name: 'Access Modes', type: 'string', cell: (o) => (spec(o)['volumeName'] ? accessModes(status(o)['accessModes']) : '') },
    { name: 'StorageClass', type: 'string', cell: (o) => String(spec(o)['storageClassName'] ?? '') },
    { name: 'VolumeAttributesClass', type: 'string', cell: (o) => String(spec(o)['volumeAttributesClassName'] ?? '<unset>') },
    ageColumn,
    { name: 'VolumeMode', type: 'string', priority: 1, cell: (o) => String(spec(o)['volumeMode'] ?? '<unset>') },
  ],
  Node: [
    nameColumn,
    { name: 'Status', type: 'string', cell: nodeStatus },
    { name: 'Roles', type: 'string', cell: nodeRoles },
    ageColumn,
    { name: 'Version', type: 'string', cell: (o) => String((status(o)['nodeInfo'] as JsonObject | undefined)?.['kubeletVersion'] ?? '') },
  ],
  Service: [
    nameColumn,
    { name: 'Type', type: 'string', cell: (o) => String(spec(o)['type'] ?? 'ClusterIP') },
    { name: 'Cluster-IP', type: 'string', cell: (o) => String(spec(o)['clusterIP'] || '<none>') },
    { name: 'External-IP', type: 'string', cell: serviceExternalIP },
    { name: 'Port(s)', type: 'string', cell: servicePorts },
    ageColumn,
    {
      name: 'Selector',
      type: 'string',
      priority: 1,
      cell: (o) => Object.entries((spec(o)['selector'] as Record<string, string> | undefined) ?? {}).map(([k, v]) => `${k}=${v}`).join(',') || '<none>',
    },
  ],
  Secret: [nameColumn, { name: 'Type', type: 'string', cell: (o) => String(o['type'] ?? '') }, { name: 'Data', type: 'integer', cell: (o) => Object.keys((o['data'] as JsonObject | undefined) ?? {}).length }, ageColumn],
  Namespace: [nameColumn, { name: 'Status', type: 'string', cell: (o) => String(status(o)['phase'] ?? '') }, ageColumn],
  StorageClass: [
    nameColumn,
    { name: 'Provisioner', type: 'string', cell: (o) => String(o['provisioner'] ?? '') },
    { name: 'AllowVolumeExpansion', type: 'string', cell: (o) => String(o['allowVolumeExpansion'] ?? false) },
    ageColumn,
  ],
};

export function toTable(kind: ResourceKind, objects: readonly KubeObject[], resourceVersion: string, includeObject: string | null): object {
  const columns = columnsByKind[kind.kind] ?? [nameColumn, ageColumn];
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion },
    columnDefinitions: columns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: '', priority: c.priority ?? 0 })),
    rows: objects.map((o) => ({
      cells: columns.map((c) => c.cell(o)),
      object:
        includeObject === 'Object'
          ? o
          : includeObject === 'None'
            ? undefined
            : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata },
    })),
  };
}

/** Whether the Accept header asks for a Table. */
export function wantsTable(accept: string | undefined): boolean {
  return accept !== undefined && /as=Table/.test(accept);
}

