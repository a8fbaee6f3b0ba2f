import { z } from 'zod';
import { namespaceName } from '../../remedies/steps/step.js';
import type { ServiceState } from '../../cluster/gateway.js';
import { defineDetector, objectName, type Evidence, type Snapshot } from './detector.js';

/**
 * The platform's services: those whose selector picks the main pods (every key of it is in the main
 * label), as the remedies' `select: 'platform'` finds them; names change between installs, this does not.
 */
function platformServices(snap: Snapshot, services: readonly ServiceState[]): Set<string> {
  const main = Object.fromEntries(snap.names.mainPodLabel.split(',').map((t) => t.split('=', 2).map((x) => x.trim())));
  return new Set(services.filter((s) => Object.keys(s.selector).length > 0 && Object.entries(s.selector).every(([k, v]) => main[k] === v)).map((s) => s.name));
}

const bodySizeKey = 'nginx.ingress.kubernetes.io/proxy-body-size';
const backendConfigKey = 'cloud.google.com/backend-config';

/**
 * Entry 12: an nginx ingress routing to the platform's services without the body-size annotation, so the controller's
 * default limit (1m, ingress-nginx's `proxy-body-size`) refuses larger uploads with 413.
 */
const ingressBodySizeDetector = z.strictObject({ kind: z.literal('ingressBodySize'), namespace: namespaceName });
export type IngressBodySizeDetector = z.infer<typeof ingressBodySizeDetector>;

export const ingressBodySize = defineDetector({
  kind: 'ingressBodySize',
  detector: ingressBodySizeDetector,
  reads: (d) => [
    { list: 'ingresses', in: d.namespace },
    { list: 'services', in: d.namespace },
  ],
  detect(d, snap) {
    const platform = platformServices(snap, snap.services(d.namespace));
    const nginx = snap.ingresses(d.namespace).filter((i) => (i.className === undefined || i.className === 'nginx') && i.backendServices.some((b) => platform.has(b)));
    const evidence: Evidence[] = nginx
      .filter((i) => i.annotations[bodySizeKey] === undefined)
      .map((i) => ({ object: objectName('ingress', i.namespace, i.name), detail: `class ${i.className ?? '(default)'}, no ${bodySizeKey}: the controller's default limit of 1m applies` }));
    return { state: evidence.length > 0 ? 'present' : 'absent', evidence };
  },
});

/** The BackendConfig a service names for all its ports (`{"default": "<name>"}`), if any. */
function namedBackendConfig(annotation: string | undefined): string | undefined {
  if (annotation === undefined) return undefined;
  try {
    const value = (JSON.parse(annotation) as { default?: unknown }).default;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Entry 21: an ingress of class gce in front of the platform whose platform services name no
 * BackendConfig with a timeoutSec above 30 (the load balancer's default backend timeout), so long-lived
 * terminal connections are cut every 30 seconds.
 */
const gceBackendTimeoutDetector = z.strictObject({ kind: z.literal('gceBackendTimeout'), namespace: namespaceName });
export type GceBackendTimeoutDetector = z.infer<typeof gceBackendTimeoutDetector>;

export const gceBackendTimeout = defineDetector({
  kind: 'gceBackendTimeout',
  detector: gceBackendTimeoutDetector,
  reads: (d) => [
    { list: 'ingresses', in: d.namespace },
    { list: 'services', in: d.namespace },
    { list: 'backendconfigs', in: d.namespace },
  ],
  detect(d, snap) {
    const gce = snap.ingresses(d.namespace).filter((i) => i.className === 'gce');
    if (gce.length === 0) return { state: 'absent', evidence: [] };
    const services = snap.services(d.namespace);
    const platform = platformServices(snap, services);
    const configs = snap.backendConfigs(d.namespace) ?? [];
    const evidence: Evidence[] = [];
    for (const ingress of gce) {
      for (const name of ingress.backendServices.filter((b) => platform.has(b))) {
        const service = services.find((s) => s.name === name && s.namespace === ingress.namespace);
        const configName = namedBackendConfig(service?.annotations[backendConfigKey]);
        const config = configs.find((c) => c.name === configName && c.namespace === ingress.namespace);
        if (config?.timeoutSec !== undefined && config.timeoutSec > 30) continue;
        const why =
          configName === undefined
            ? `names no BackendConfig (${backendConfigKey})`
            : config === undefined
              ? `names BackendConfig ${configName}, which does not exist`
              : `BackendConfig ${configName} has timeoutSec ${config.timeoutSec ?? '(unset: 30)'}`;
        evidence.push({ object: objectName('service', ingress.namespace, name), detail: `behind gce ingress ${ingress.name}: ${why}; the load balancer cuts connections after 30 s` });
      }
    }
    return { state: evidence.length > 0 ? 'present' : 'absent', evidence };
  },
});
