import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { toClusterError } from '../../src/cluster/errors.js';

/** A 403 Status as kube-apiserver sends it: reason Forbidden and the same details, whoever refused. */
function forbidden(message: string): ApiException<string> {
  const body = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details: { name: 'x', kind: 'persistentvolumeclaims' }, code: 403 };
  return new ApiException(403, 'Forbidden', JSON.stringify(body), {});
}

/**
 * The authoriser words its 403 `… is forbidden: User "<user>" cannot <verb> resource …` (or `cannot <verb>
 * path …`: k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go, forbiddenMessage); an
 * admission plugin or webhook words its own reason. Only the first is the worker's RBAC.
 */
describe('a 403 from the Kubernetes API', () => {
  it.each([
    'persistentvolumeclaims "x" is forbidden: User "system:serviceaccount:devtroncd:platform-medic-worker" cannot patch resource "persistentvolumeclaims" in API group "" in the namespace "devtroncd"',
    'storageclasses.storage.k8s.io "standard" is forbidden: User "system:serviceaccount:devtroncd:platform-medic-worker" cannot patch resource "storageclasses" in API group "storage.k8s.io" at the cluster scope',
    'forbidden: User "system:anonymous" cannot get path "/metrics"',
  ])('is missing RBAC when the authoriser says so: %s', (message) => {
    const error = toClusterError(forbidden(message), 'patch something', 'https://k8s');
    expect(error.code).toBe('forbidden');
    expect(error.message).toContain("The worker's RBAC (deploy/rbac.yaml) does not allow it.");
  });

  it.each([
    'persistentvolumeclaims "x" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
    'persistentvolumeclaims "x" is forbidden: Only bound persistent volume claims can be expanded',
    'admission webhook "validate.kyverno.svc" denied the request: resource PersistentVolumeClaim/devtroncd/x was blocked',
    'pods "x" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false',
  ])('is the cluster’s own refusal otherwise, never sent to the RBAC: %s', (message) => {
    const error = toClusterError(forbidden(message), 'patch something', 'https://k8s');
    expect(error.code).toBe('refused');
    expect(error.detail).toBe(message);
    expect(error.message).toBe(`The Kubernetes API refused patch something: ${message}. This is the cluster's own rule (an admission check), not a permission the worker lacks.`);
  });
});
