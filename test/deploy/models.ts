import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { K8sObject } from './manifests.js';

/** A kubernetes-models class: built from an object, validate() throws on anything the schema refuses. */
type Model = new (data: never) => { validate(): void };

/** Every kind deploy/ may hold, by apiVersion and kind. A kind missing here fails its test. */
const models: Record<string, Model> = {
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'rbac.authorization.k8s.io/v1/Role': Role,
  'rbac.authorization.k8s.io/v1/RoleBinding': RoleBinding,
  'rbac.authorization.k8s.io/v1/ClusterRole': ClusterRole,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': ClusterRoleBinding,
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
};

/** Validates one object against the Kubernetes OpenAPI schema, offline; throws naming the object. */
export function validateObject(o: K8sObject): void {
  const Model = models[`${o.apiVersion}/${o.kind}`];
  if (!Model) throw new Error(`no model for ${o.apiVersion} ${o.kind} (${o.metadata?.name}): add it to test/deploy/models.ts`);
  try {
    new Model(o as never).validate();
  } catch (err) {
    throw new Error(`${o.kind} ${o.metadata.name}: ${(err as Error).message}`);
  }
}
