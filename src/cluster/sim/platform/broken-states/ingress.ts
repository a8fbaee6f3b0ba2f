import type { FaultEntry } from '../fault-model.js';
import { kinds } from '../../apiserver/resources.js';
import { platformIngressName, platformServiceName } from '../seed.js';
import type { KubeObject } from '../../apiserver/types.js';
import { customKinds } from '../custom-kinds.js';

export const bodySizeAnnotation = 'nginx.ingress.kubernetes.io/proxy-body-size';
export const backendConfigAnnotation = 'cloud.google.com/backend-config';

function withoutAnnotation(obj: KubeObject, key: string): KubeObject {
  const annotations = { ...(obj.metadata.annotations ?? {}) };
  delete annotations[key];
  return { ...obj, metadata: { ...obj.metadata, annotations } };
}

/** Entry 12: the platform ingress has no body-size annotation, so large uploads fail (the controller's 1m default). */
export const uploadTooLarge: FaultEntry = {
  entryId: 'upload-too-large',
  guideEntry: 12,
  breakState({ store, names }) {
    const ingress = store.get(kinds.ingress, names.platformNamespace, platformIngressName);
    if (ingress) store.update(kinds.ingress, withoutAnnotation(ingress, bodySizeAnnotation));
  },
  present: ({ store, names }) => store.get(kinds.ingress, names.platformNamespace, platformIngressName)?.metadata.annotations?.[bodySizeAnnotation] === undefined,
};

/**
 * Entry 21: the platform is exposed through an ingress of class gce, whose load balancer cuts
 * connections after the default 30 s; no backend configuration gives it more. Fixed when the platform
 * service names a BackendConfig (by the annotation's JSON `default`) whose timeoutSec is above 30.
 */
export const terminalDisconnects: FaultEntry = {
  entryId: 'terminal-disconnects',
  guideEntry: 21,
  breakState({ store, names }) {
    const ns = names.platformNamespace;
    const ingress = store.get(kinds.ingress, ns, platformIngressName);
    if (ingress) {
      const spec = { ...((ingress['spec'] as Record<string, unknown> | undefined) ?? {}), ingressClassName: 'gce' };
      store.update(kinds.ingress, { ...ingress, metadata: { ...ingress.metadata, annotations: { ...(ingress.metadata.annotations ?? {}), 'kubernetes.io/ingress.class': 'gce' } }, spec });
    }
    const service = store.get(kinds.service, ns, platformServiceName);
    if (service) store.update(kinds.service, withoutAnnotation(service, backendConfigAnnotation));
    for (const bc of store.list(customKinds.backendConfig, ns)) store.delete(customKinds.backendConfig, ns, bc.metadata.name ?? '');
  },
  present({ store, names }) {
    const ns = names.platformNamespace;
    const value = store.get(kinds.service, ns, platformServiceName)?.metadata.annotations?.[backendConfigAnnotation];
    if (value === undefined) return true;
    try {
      const name = (JSON.parse(value) as { default?: unknown }).default;
      const bc = typeof name === 'string' ? store.get(customKinds.backendConfig, ns, name) : undefined;
      const timeout = (bc?.['spec'] as { timeoutSec?: unknown } | undefined)?.timeoutSec;
      return !(typeof timeout === 'number' && timeout > 30);
    } catch {
      return true;
    }
  },
};
