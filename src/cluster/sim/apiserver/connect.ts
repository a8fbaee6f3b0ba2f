import { statusErrors } from './errors.js';
import { kinds } from './resources.js';
import type { ResourceRequest } from './request-info.js';
import type { ObjectStore } from './store.js';
import type { ApiResult } from './rest.js';

/** The pod subresources that stream through an upgraded connection to the kubelet. */
export const connectSubresources: readonly string[] = ['exec', 'attach', 'portforward'];

/**
 * `pods/exec`, `pods/attach` and `pods/portforward`. kube-apiserver finds the pod (404 when it is missing),
 * then hands the request to an UpgradeAwareHandler with UpgradeRequired set
 * (pkg/registry/core/pod/rest/subresources.go), which answers a request it cannot upgrade with
 * `errors.NewBadRequest("Upgrade request required")` (k8s.io/apimachinery/pkg/util/proxy/upgradeaware.go).
 * The simulator has no kubelet and no container to stream from, so every such request is one it cannot
 * upgrade: kubectl tries WebSockets, falls back to SPDY, and prints
 * `Error from server (BadRequest): Upgrade request required`, as it does through a proxy that drops upgrades.
 */
export function connect(store: ObjectStore, req: ResourceRequest): ApiResult {
  if (req.kind !== kinds.pod || !req.name) throw statusErrors.pathNotFound();
  if (!store.get(kinds.pod, req.namespace, req.name)) throw statusErrors.notFound(kinds.pod, req.name);
  throw statusErrors.badRequest('Upgrade request required');
}
