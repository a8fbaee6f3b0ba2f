import { afterEach, describe, expect, it } from 'vitest';
import { loadKubeConfig } from '../../src/cluster/kubeconfig.js';

const saved = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };
afterEach(() => {
  for (const [name, value] of [['KUBERNETES_SERVICE_HOST', saved.host], ['KUBERNETES_SERVICE_PORT', saved.port]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("a cluster's kube source", () => {
  // Found by a newcomer's try: the terminal on such a cluster said "Cluster of the default kubeconfig: https://undefined:undefined"
  // and every read failed with "Invalid URL".
  it('in-cluster, outside a cluster: refused at once, saying why and what to configure instead', () => {
    delete process.env.KUBERNETES_SERVICE_HOST;
    delete process.env.KUBERNETES_SERVICE_PORT;
    expect(() => loadKubeConfig({ source: 'in-cluster' })).toThrow(
      "The cluster's kube is { source: in-cluster }, but this process is not running inside a cluster (KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set). Run it in the cluster, or give the cluster a kubeconfig: kube: { source: kubeconfig, path: ~/.kube/config }.",
    );
  });

  it('in-cluster, inside one: the API server the pod is given', () => {
    process.env.KUBERNETES_SERVICE_HOST = '10.96.0.1';
    process.env.KUBERNETES_SERVICE_PORT = '443';
    expect(loadKubeConfig({ source: 'in-cluster' }).getCurrentCluster()?.server).toBe('https://10.96.0.1:443');
  });
});
