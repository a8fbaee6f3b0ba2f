import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { existsSync } from 'node:fs';
import { runningInCluster, type KubeSource } from '../config.js';
import { fileReason, InputError, UserFacingError } from '../errors.js';
import { toClusterError } from './errors.js';

/** A kubeconfig that cannot be used; the message says which and why. */
export class KubeConfigError extends UserFacingError {
  constructor(message: string) {
    super('kubeconfig', message);
    this.name = 'KubeConfigError';
  }
}

function useContext(kc: KubeConfig, context: string | undefined, where: string): void {
  if (!context) return;
  if (!kc.getContexts().some((c) => c.name === context)) {
    throw new KubeConfigError(`There is no context "${context}" in ${where} (contexts: ${kc.getContexts().map((c) => c.name).join(', ') || 'none'}).`);
  }
  kc.setCurrentContext(context);
}

/** Nothing to reach, and what to do: `advice` fits where the cluster was named (the flags, or the configuration). */
const noKubeconfig = (advice: string): string => `No kubeconfig found (KUBECONFIG, ~/.kube/config) and not running inside a cluster; ${advice}.`;
const flagAdvice = "configure the cluster's `kube` (see the README), or give --kubeconfig PATH";
/** A configured cluster is named by --cluster (or is the worker's), which no --kubeconfig may join: its `kube` is the way. */
const configuredAdvice = 'set KUBECONFIG, or give the cluster its kubeconfig in the configuration: kube: { source: kubeconfig, path: ~/.kube/config } (see the README, "Cluster keys")';

/** Why a kubeconfig that was read names no cluster to reach; `choose` says how a context is chosen where it was named. */
function whatItLacks(kc: KubeConfig, choose: string): string {
  const contexts = kc.getContexts().map((c) => c.name);
  if (contexts.length === 0) return 'it has no contexts (is it a kubeconfig?)';
  if (!kc.getCurrentContext()) return `it sets no current-context; choose one of its contexts (${contexts.join(', ')}) with ${choose}`;
  return `its context "${kc.getCurrentContext()}" names no cluster with a server`;
}

/** Loads the KubeConfig a cluster's worker uses. The simulated cluster is handed in by its starter. */
export function loadKubeConfig(source: KubeSource, simulated?: KubeConfig, advice = flagAdvice, contextAdvice = '--context NAME'): KubeConfig {
  const kc = new KubeConfig();
  switch (source.source) {
    case 'in-cluster':
      // Outside a pod, client-node builds https://undefined:undefined and every read fails with "Invalid URL".
      if (!runningInCluster()) {
        throw new KubeConfigError("The cluster's kube is { source: in-cluster }, but this process is not running inside a cluster (KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set). Run it in the cluster, or give the cluster a kubeconfig: kube: { source: kubeconfig, path: ~/.kube/config }.");
      }
      kc.loadFromCluster();
      break;
    case 'kubeconfig':
      // A file that is missing or cannot be read is bad input (exit 2), not a cluster that cannot be reached.
      if (!existsSync(source.path)) throw new InputError(`The kubeconfig ${source.path} does not exist.`);
      try {
        kc.loadFromFile(source.path);
      } catch (err) {
        throw new InputError(`The kubeconfig ${source.path} cannot be read: ${fileReason(err) ?? (err as Error).message.split('\n')[0]}`);
      }
      useContext(kc, source.context, source.path);
      // A file that is there but names no cluster (a values file given by mistake, a kubeconfig without a current-context)
      // is the file's problem, said of the file: "no kubeconfig found" would send the person looking for one.
      if (!kc.getCurrentCluster()?.server) throw new InputError(`The kubeconfig ${source.path} names no cluster: ${whatItLacks(kc, contextAdvice)}.`);
      break;
    case 'default':
      kc.loadFromDefault();
      // With nothing found, client-node falls back to http://localhost:8080 under a context of its own
      // (loaded-context): never what a user meant, and no context was ever there to choose.
      if (kc.getCurrentCluster()?.server === 'http://localhost:8080') throw new KubeConfigError(noKubeconfig(advice));
      useContext(kc, source.context, 'the default kubeconfig');
      break;
    case 'simulated':
      if (!simulated) throw new KubeConfigError('The simulated cluster is only available in the terminal demo and tests.');
      return simulated;
  }
  // A kubeconfig whose current context names no cluster: nothing to reach. (With nothing found at all, the
  // default source has already said so above: client-node falls back to http://localhost:8080 then.)
  if (!kc.getCurrentCluster()?.server) throw new KubeConfigError(noKubeconfig(advice));
  return kc;
}

/**
 * A configured cluster's API access: what is wrong with its `kube` (a kubeconfig that is missing, unreadable or
 * without the context named) names the cluster and the key, as other configuration problems do.
 */
export function clusterKubeConfig(cluster: { readonly name: string; readonly kube: KubeSource }, simulated?: KubeConfig): KubeConfig {
  try {
    return loadKubeConfig(cluster.kube, simulated, configuredAdvice, 'kube.context');
  } catch (err) {
    if (!(err instanceof InputError || err instanceof KubeConfigError)) throw err;
    const key = cluster.kube.source === 'kubeconfig' ? 'kube.path' : 'kube';
    const said = `Cluster "${cluster.name}" (its ${key} in the configuration): ${err.safeMessage.charAt(0).toLowerCase()}${err.safeMessage.slice(1)}`;
    throw err instanceof InputError ? new InputError(said) : new KubeConfigError(said);
  }
}

/**
 * The kubeconfig a person named on the command line (`--kubeconfig PATH`, `--context NAME`): a context
 * the file lacks, or no kubeconfig at all, is their input to correct (exit 2), not a configuration's.
 */
export function loadKubeConfigFromFlags(source: KubeSource): KubeConfig {
  try {
    return loadKubeConfig(source);
  } catch (err) {
    if (err instanceof KubeConfigError) throw new InputError(err.safeMessage);
    throw err;
  }
}

/** Fails with a clear message unless the API answers (one read of the platform namespace's pods). */
export async function assertClusterReachable(kc: KubeConfig, namespace: string): Promise<void> {
  const server = kc.getCurrentCluster()?.server ?? '?';
  try {
    await Promise.race([
      kc.makeApiClient(CoreV1Api).listNamespacedPod({ namespace, limit: 1 }),
      new Promise((_, reject) => setTimeout(() => reject(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })), 10_000).unref()),
    ]);
  } catch (err) {
    throw new KubeConfigError(toClusterError(err, `list pods in ${namespace}`, server).message);
  }
}
