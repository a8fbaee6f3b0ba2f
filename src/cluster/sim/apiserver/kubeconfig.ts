import { stringify } from 'yaml';

/**
 * The simulated cluster's one name: the terminal's cluster, `--cluster` in the terminal, and the
 * cluster and context of the kubeconfig `npm run sim` writes.
 */
export const simulatedClusterName = 'simulated';

/** A kubeconfig for the simulator's TLS side, trusting its self-signed certificate. */
export function kubeconfigYaml(server: string, caPem: string, token: string, name: string, namespace: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
    users: [{ name, user: { token } }],
    contexts: [{ name, context: { cluster: name, user: name, namespace } }],
    'current-context': name,
    preferences: {},
  });
}
