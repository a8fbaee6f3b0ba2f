/**
 * Child process: the simulated cluster's worker, as `platform-medic worker --cluster sim` runs it,
 * except that it polls every 20 ms while verifying (the default is 1 s), so that each click trial's
 * run finishes quickly and the next trial starts on an idle worker.
 */
import { findCluster, loadConfig } from '../../src/config.js';
import { loadKubeConfig } from '../../src/cluster/kubeconfig.js';
import { startClusterWorker } from '../../src/jobs/worker.js';
import { createLogger } from '../../src/logger.js';
import { serveParent, startSampler } from './child.mjs';

const sampler = startSampler();
const config = loadConfig();
const cluster = findCluster(config, config.defaultCluster);
if (!cluster) throw new Error(`no cluster ${config.defaultCluster}`);
const worker = startClusterWorker({ config, cluster, kubeConfig: loadKubeConfig(cluster.kube), logger: createLogger(config.logLevel).child({ cluster: cluster.name }), pollMs: 20 });
await worker.worker.waitUntilReady();
serveParent(
  {
    stats: (arg) => sampler.stats(arg as { gc?: boolean } | undefined),
    mark: () => sampler.mark(),
    async stop() {
      await worker.close();
      setImmediate(() => process.exit(0));
    },
  },
  {},
);
