import { KubeConfig } from '@kubernetes/client-node';
import type { KubeSource } from '../config.js';

/** Loads the KubeConfig a cluster's worker uses. The simulated cluster is handed in by its starter. */
export function loadKubeConfig(source: KubeSource, simulated?: KubeConfig): KubeConfig {
  const kc = new KubeConfig();
  switch (source.source) {
    case 'in-cluster':
      kc.loadFromCluster();
      break;
    case 'kubeconfig':
      kc.loadFromFile(source.path);
      if (source.context) kc.setCurrentContext(source.context);
      break;
    case 'default':
      kc.loadFromDefault();
      if (source.context) kc.setCurrentContext(source.context);
      break;
    case 'simulated':
      if (!simulated) throw new Error('the simulated cluster is only available in the terminal demo and tests');
      return simulated;
  }
  if (!kc.getCurrentCluster()) throw new Error(`no cluster found in the kubeconfig (${source.source})`);
  return kc;
}
