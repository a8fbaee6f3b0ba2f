import { compareQuantities } from '../../../quantity.js';
import { admitCrd } from './custom-resources.js';
import { statusErrors } from './errors.js';
import { pendingStatus, podFromTemplate } from './pods.js';
import type { PodTemplate } from './pods.js';
import type { ResourceKind } from './resources.js';
import { kinds } from './resources.js';
import type { JsonObject, KubeObject } from './types.js';
import { deepEqual, isJsonObject } from './types.js';

/**
 * The API server's defaulting and validation for the kinds whose rules a remedy can run into. Only the rules
 * that make a difference to repairs are modelled (claim resize, stateful set immutability, job selectors);
 * everything else is accepted as sent.
 */

const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function validateName(kind: ResourceKind, name: string | undefined): void {
  if (!name) throw statusErrors.invalid(kind, undefined, 'metadata.name', 'FieldValueRequired', 'Required value: name or generateName is required');
  if (name.length > 253 || !dns1123Subdomain.test(name)) {
    throw statusErrors.invalid(
      kind,
      name,
      'metadata.name',
      'FieldValueInvalid',
      `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    );
  }
}

/** Fills in what the API server defaults on create. `uid` is the uid the object is about to get. */
export function admitCreate(kind: ResourceKind, obj: KubeObject, uid: string): void {
  if (kind.statusSubresource) delete obj['status'];
  if (kind === kinds.pod) {
    const template: PodTemplate = { spec: (obj['spec'] as PodTemplate['spec'] | undefined) ?? { containers: [] } };
    const pod = podFromTemplate(template, { name: obj.metadata.name ?? '', namespace: obj.metadata.namespace ?? '' });
    obj['spec'] = pod['spec'];
    obj['status'] = pendingStatus(obj);
  } else if (kind === kinds.namespace) {
    obj.metadata.labels = { ...(obj.metadata.labels ?? {}), 'kubernetes.io/metadata.name': obj.metadata.name ?? '' };
    obj['spec'] = { finalizers: ['kubernetes'] };
    obj['status'] = { phase: 'Active' };
  } else if (kind === kinds.secret) {
    obj['type'] ??= 'Opaque';
    const stringData = obj['stringData'];
    if (isJsonObject(stringData)) {
      const data = { ...((obj['data'] as JsonObject | undefined) ?? {}) };
      for (const [key, value] of Object.entries(stringData)) data[key] = Buffer.from(String(value)).toString('base64');
      obj['data'] = data;
      delete obj['stringData'];
    }
  } else if (kind === kinds.job) {
    admitJob(obj, uid);
  } else if (kind === kinds.deployment || kind === kinds.statefulSet || kind === kinds.replicaSet) {
    const spec = (obj['spec'] as JsonObject | undefined) ?? {};
    if (!isJsonObject(spec['selector'])) throw statusErrors.invalid(kind, obj.metadata.name, 'spec.selector', 'FieldValueRequired', 'Required value');
    spec['replicas'] ??= 1;
  } else if (kind === kinds.pvc) {
    const spec = (obj['spec'] as JsonObject | undefined) ?? {};
    const storage = (spec['resources'] as { requests?: { storage?: string } } | undefined)?.requests?.storage ?? '1Gi';
    spec['storageClassName'] ??= 'standard';
    spec['volumeMode'] ??= 'Filesystem';
    obj['status'] = { phase: 'Bound', accessModes: spec['accessModes'] ?? ['ReadWriteOnce'], capacity: { storage } };
  } else if (kind === kinds.crd) {
    admitCrd(obj);
  } else if (kind === kinds.service) {
    const spec = (obj['spec'] as JsonObject | undefined) ?? {};
    spec['type'] ??= 'ClusterIP';
    spec['clusterIP'] ??= `10.96.${Math.floor(Math.random() * 255)}.${2 + Math.floor(Math.random() * 250)}`;
    obj['spec'] = spec;
  }
}

function admitJob(obj: KubeObject, uid: string): void {
  const spec = (obj['spec'] as JsonObject | undefined) ?? {};
  obj['spec'] = spec;
  spec['completions'] ??= 1;
  spec['parallelism'] ??= 1;
  spec['backoffLimit'] ??= 6;
  spec['completionMode'] ??= 'NonIndexed';
  const name = obj.metadata.name ?? '';
  const selectorLabels = { 'batch.kubernetes.io/controller-uid': uid };
  spec['selector'] ??= { matchLabels: selectorLabels };
  const template = (spec['template'] as PodTemplate | undefined) ?? { spec: { containers: [] } };
  template.metadata = {
    ...(template.metadata ?? {}),
    labels: { ...(template.metadata?.labels ?? {}), ...selectorLabels, 'batch.kubernetes.io/job-name': name, 'controller-uid': uid, 'job-name': name },
  };
  template.spec.restartPolicy ??= 'Never';
  spec['template'] = template;
}

/** What ValidateStatefulSetUpdate (pkg/apis/apps/validation/validation.go) restores before comparing the specs. */
const statefulSetMutable = ['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

/** Rejects updates the API server rejects, with its messages; may adjust `next` the way the server would. */
export function validateUpdate(kind: ResourceKind, previous: KubeObject, next: KubeObject, caches: AdmissionCaches): void {
  const name = next.metadata.name ?? '';
  if (kind === kinds.statefulSet) {
    const strip = (o: KubeObject) => {
      const spec = { ...((o['spec'] as JsonObject | undefined) ?? {}) };
      for (const key of statefulSetMutable) delete spec[key];
      return spec;
    };
    if (!deepEqual(strip(previous), strip(next))) {
      throw statusErrors.unprocessable(
        kind,
        name,
        "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      );
    }
  }
  if (kind === kinds.pvc) validateClaimResize(previous, next, caches);
  if (kind === kinds.job) {
    // A job's pod template and selector cannot change once created; kubectl apply of a changed job fails the same way.
    const spec = (o: KubeObject) => (o['spec'] as { template?: unknown; selector?: unknown } | undefined) ?? {};
    if (!deepEqual(spec(previous).template, spec(next).template)) throw statusErrors.unprocessable(kind, name, 'spec.template: Invalid value: field is immutable');
    if (!deepEqual(spec(previous).selector, spec(next).selector)) throw statusErrors.unprocessable(kind, name, 'spec.selector: Invalid value: field is immutable');
  }
}

function requestedStorage(obj: KubeObject): string | undefined {
  return (obj['spec'] as { resources?: { requests?: { storage?: string } } } | undefined)?.resources?.requests?.storage;
}

/** What the admission plugins read besides the request: informer caches, which lag behind the store. */
export interface AdmissionCaches {
  storageClass(name: string): KubeObject | undefined;
}

/**
 * A claim's update: first the strategy's validation (422), then, for a growth only, the
 * PersistentVolumeClaimResize admission plugin (403), as kube-apiserver runs them on update.
 */
function validateClaimResize(previous: KubeObject, next: KubeObject, caches: AdmissionCaches): void {
  const name = next.metadata.name ?? '';
  const before = requestedStorage(previous) ?? '0';
  const after = requestedStorage(next);
  const withoutRequests = (o: KubeObject) => {
    const spec = structuredClone((o['spec'] as JsonObject | undefined) ?? {});
    delete spec['resources'];
    return spec;
  };
  if (!deepEqual(withoutRequests(previous), withoutRequests(next))) {
    throw statusErrors.unprocessable(kinds.pvc, name, 'spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims');
  }
  if (after === undefined || before === after) return;
  const order = compareQuantities(after, before);
  if (order === -1) {
    // With RecoverVolumeExpansionFailure (on by default since 1.32) a request may go back down, but never
    // to status.capacity or below (pkg/apis/core/validation/validation.go, ValidatePersistentVolumeClaimUpdate:
    // `if newSize.Cmp(statusSize) <= 0 { … "field can not be less than status.capacity" }`).
    const capacity = ((previous['status'] as { capacity?: { storage?: string } } | undefined)?.capacity?.storage) ?? '0';
    if ((compareQuantities(after, capacity) ?? 1) <= 0) {
      throw statusErrors.unprocessable(kinds.pvc, name, 'spec.resources.requests.storage: Forbidden: field can not be less than status.capacity');
    }
    return;
  }
  if (order !== 1) return;
  admitClaimGrowth(previous, next, caches);
}

/**
 * The PersistentVolumeClaimResize admission plugin (plugin/pkg/admission/storage/persistentvolume/resize/admission.go):
 * a claim grows only while bound, and only when its StorageClass, as the plugin's informer cache has it,
 * allows volume expansion. Its refusals are 403 Forbidden, which a client must not take for missing RBAC.
 */
function admitClaimGrowth(previous: KubeObject, next: KubeObject, caches: AdmissionCaches): void {
  const name = next.metadata.name ?? '';
  const forbidden = (why: string) => statusErrors.forbidden(kinds.pvc, kinds.pvc.plural, name, why);
  if ((previous['status'] as { phase?: string } | undefined)?.phase !== 'Bound') throw forbidden('Only bound persistent volume claims can be expanded');
  const className = (next['spec'] as { storageClassName?: string } | undefined)?.storageClassName ?? '';
  const oldClassName = (previous['spec'] as { storageClassName?: string } | undefined)?.storageClassName ?? '';
  const storageClass = className && className === oldClassName ? caches.storageClass(className) : undefined;
  if (storageClass?.['allowVolumeExpansion'] !== true) {
    throw forbidden('only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');
  }
}
