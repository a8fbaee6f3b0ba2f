import { stringify } from 'yaml';

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
