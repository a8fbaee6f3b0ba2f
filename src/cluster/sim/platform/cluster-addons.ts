import type { PlatformNames } from '../../../platform-names.js';
import type { ResourceKind } from '../apiserver/resources.js';
import { kinds } from '../apiserver/resources.js';
import type { KubeObject } from '../apiserver/types.js';

/*
 * What a cluster running the platform also runs, which some guide entries are about: the metrics-server
 * (entry 15) in kube-system, the rollout controller (entries 2 and 19) next to the platform, and the
 * namespace of a deployed application (entries 19, 20).
 */

/** The metrics-server as its chart deploys it (kubernetes-sigs/metrics-server charts/metrics-server). */
export const metricsServer = {
  namespace: 'kube-system',
  name: 'metrics-server',
  labels: { 'app.kubernetes.io/name': 'metrics-server', 'app.kubernetes.io/instance': 'metrics-server' },
  /** The chart's default args (values.yaml `defaultArgs`); `--kubelet-insecure-tls` is not among them. */
  args: ['--cert-dir=/tmp', '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname', '--kubelet-use-node-status-port', '--metric-resolution=15s', '--secure-port=10250'],
  insecureTlsArg: '--kubelet-insecure-tls',
  image: 'registry.k8s.io/metrics-server/metrics-server:v0.7.2',
} as const;

/** The rollout controller (argo-rollouts), deployed as the platform's rollout manifest names it. */
export const rolloutController = {
  name: 'argo-rollouts',
  labels: { 'app.kubernetes.io/name': 'argo-rollouts', 'app.kubernetes.io/component': 'rollouts-controller', 'app.kubernetes.io/part-of': 'argo-rollouts' },
  image: (version: string) => `quay.io/argoproj/argo-rollouts:${version}`,
  /** A controller version that knows the cluster versions the simulator serves (Kubernetes 1.32). */
  currentVersion: 'v1.6.6',
} as const;

/** The namespace of the sample application's environment (devtron's `devtron-demo`). */
export const applicationNamespace = 'devtron-demo';

/** The metrics-server Deployment with these args. */
export function metricsServerDeployment(args: readonly string[]): KubeObject {
  const labels = { ...metricsServer.labels };
  return {
    metadata: { name: metricsServer.name, namespace: metricsServer.namespace, labels: { ...labels, 'app.kubernetes.io/version': '0.7.2', 'helm.sh/chart': 'metrics-server-3.12.2', 'app.kubernetes.io/managed-by': 'Helm' } },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      strategy: { type: 'RollingUpdate' },
      template: {
        metadata: { labels },
        spec: {
          serviceAccountName: 'metrics-server',
          priorityClassName: 'system-cluster-critical',
          containers: [
            {
              name: 'metrics-server',
              image: metricsServer.image,
              imagePullPolicy: 'IfNotPresent',
              args: [...args],
              ports: [{ name: 'https', containerPort: 10250, protocol: 'TCP' }],
              readinessProbe: { httpGet: { path: '/readyz', port: 'https', scheme: 'HTTPS' }, initialDelaySeconds: 20, periodSeconds: 10, failureThreshold: 3 },
              livenessProbe: { httpGet: { path: '/livez', port: 'https', scheme: 'HTTPS' }, initialDelaySeconds: 0, periodSeconds: 10, failureThreshold: 3 },
            },
          ],
        },
      },
    },
  };
}

/** The rollout controller Deployment at a version. */
export function rolloutControllerDeployment(names: PlatformNames, version: string): KubeObject {
  const selector = { 'app.kubernetes.io/name': rolloutController.name };
  return {
    metadata: { name: rolloutController.name, namespace: names.platformNamespace, labels: { ...rolloutController.labels } },
    spec: {
      replicas: 1,
      selector: { matchLabels: selector },
      strategy: { type: 'Recreate' },
      template: {
        metadata: { labels: selector },
        spec: {
          serviceAccountName: 'argo-rollouts',
          containers: [{ name: 'argo-rollouts', image: rolloutController.image(version), imagePullPolicy: 'IfNotPresent', ports: [{ containerPort: 8090, name: 'metrics' }] }],
        },
      },
    },
  };
}

/** Adds the add-ons of a healthy cluster through `add` (the seed's admitted create). */
export function seedAddons(add: (kind: ResourceKind, obj: KubeObject) => KubeObject, names: PlatformNames): void {
  add(kinds.namespace, { metadata: { name: applicationNamespace } });
  add(kinds.deployment, metricsServerDeployment(metricsServer.args));
  add(kinds.deployment, rolloutControllerDeployment(names, rolloutController.currentVersion));
}
