import type { KubeObject } from '../../apiserver/types.js';
import { hostIP, nodeName, podSpecOf } from '../../apiserver/pods.js';
import { kinds } from '../../apiserver/resources.js';
import { metricsServer } from '../cluster-addons.js';
import { klogLine } from '../component-logs.js';
import type { FaultEntry, PodFault, SimView } from '../fault-model.js';

const argsOf = (containers: Array<{ args?: string[] }>) => containers.flatMap((c) => c.args ?? []);
const trustsKubelets = (args: readonly string[]) => args.includes(metricsServer.insecureTlsArg);

/**
 * The metrics-server cannot scrape a kubelet whose serving certificate has no IP SAN for the address it
 * dials: it logs the scrape failure (pkg/scraper/scraper.go "Failed to scrape node") and, with no metrics
 * stored, its readiness check fails (pkg/server/server.go "Failed probe" probe="metric-storage-ready"
 * err="no metrics to serve"); the kubelet's probe of /readyz gets 500.
 */
export const kubeletCertificateRejected: PodFault = {
  entry: 'metrics-server-tls',
  text: 'kubelet certificate rejected',
  trouble: () => ({ kind: 'unready', probeFailure: 'HTTP probe failed with statuscode: 500' }),
  log(pod, now) {
    const started = Date.parse((pod['status'] as { startTime?: string } | undefined)?.startTime ?? '') || now.getTime();
    const lines = [klogLine('I', new Date(started + 500), 'serving.go:374', 'Generated self-signed cert', { certKey: '/tmp/apiserver.key', certFile: '/tmp/apiserver.crt' })];
    const err = `Get "https://${hostIP}:10250/metrics/resource": tls: failed to verify certificate: x509: cannot validate certificate for ${hostIP} because it doesn't contain any IP SANs`;
    const from = Math.max(started + 15_000, now.getTime() - 10 * 60_000);
    for (let t = from; t <= now.getTime(); t += 15_000) {
      lines.push(klogLine('E', new Date(t), 'scraper.go:149', 'Failed to scrape node', { err, node: nodeName }));
      lines.push(klogLine('I', new Date(t + 2000), 'server.go:192', 'Failed probe', { probe: 'metric-storage-ready', err: 'no metrics to serve' }));
    }
    return lines;
  },
};

function deployment({ store }: SimView): KubeObject | undefined {
  return store.get(kinds.deployment, metricsServer.namespace, metricsServer.name);
}

/**
 * Entry 15: the kubelets' serving certificates are self-signed without IP SANs (as on many managed
 * clusters), so a metrics-server without `--kubelet-insecure-tls` never becomes ready. Fixed when its
 * Deployment passes the argument (its new pods trust the kubelets).
 */
export const metricsServerTls: FaultEntry = {
  entryId: 'metrics-server-tls',
  guideEntry: 15,
  breakState(view) {
    if (!deployment(view)) throw new Error(`cannot break metrics-server-tls: no deployment ${metricsServer.namespace}/${metricsServer.name}`);
  },
  inheritance: () => [
    {
      newPods: [{ label: Object.entries(metricsServer.labels).map(([k, v]) => `${k}=${v}`).join(',') }],
      fault: kubeletCertificateRejected,
      whenPod: (pod) => !trustsKubelets(argsOf(podSpecOf(pod).containers as Array<{ args?: string[] }>)),
    },
  ],
  present(view) {
    const template = (deployment(view)?.['spec'] as { template?: { spec?: { containers?: Array<{ args?: string[] }> } } } | undefined)?.template;
    return template !== undefined && !trustsKubelets(argsOf(template.spec?.containers ?? []));
  },
};
