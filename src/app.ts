import { randomBytes } from 'node:crypto';
import { userInfo } from 'node:os';
import { runBot } from './bot.js';
import { checkBrokenFlags } from './cluster/sim/broken-spec.js';
import { startDemoPlatform } from './cluster/sim/demo.js';
import { simulatedClusterName, type SimulatedCluster } from './cluster/sim/index.js';
import { assertClusterReachable, clusterKubeConfig, loadKubeConfigFromFlags } from './cluster/kubeconfig.js';
import { findCluster, hasSlackCredentials, loadConfig, noSuchClusterText, type ClusterConfig, type Config, type ConfigSources } from './config.js';
import { InputError, UserFacingError } from './errors.js';
import { startPrivateRedis, redisServerInstalled } from './jobs/private-redis.js';
import { assertRedisReachable, RedisUnavailableError, safeRedisUrl } from './jobs/redis.js';
import { startClusterWorker } from './jobs/worker.js';
import { RedisOutageLog } from './jobs/redis-outage.js';
import { createLogger, plainLogLines } from './logger.js';
import { observe, startHealthServer } from './observability/index.js';
import { kubeCheck } from './observability/kube-check.js';
import { installProcessGuards } from './observability/process-guards.js';
import { onShutdown, settlesWithin } from './observability/shutdown.js';
import { openTerminalRedis } from './terminal/leftovers.js';
import { runTerminal } from './terminal/session.js';

/**
 * The composition root: configuration → logger → Slack app or terminal → queues → start.
 * It holds no logic of its own beyond choosing what to start. The bot's own is bot.ts.
 */

/** One cluster's worker, as its own process (`platform-medic worker --cluster NAME`). */
export async function runWorker(configured: Config, clusterName: string): Promise<void> {
  const logger = createLogger(configured.logLevel).child({ cluster: clusterName });
  installProcessGuards(logger);
  const cluster = findCluster(configured, clusterName);
  if (!cluster) throw new UserFacingError('unknown-cluster', noSuchClusterText(clusterName, configured.clusters.map((c) => c.name)));
  const redis = await assertRedisReachable(configured.redisUrl);
  if (redis.note) logger.warn(redis.note);
  const config: Config = Object.freeze({ ...configured, redisUrl: redis.url });
  const kubeConfig = clusterKubeConfig(cluster);
  await assertClusterReachable(kubeConfig, cluster.platformNamespace);
  const observed = observe({ redisUrl: config.redisUrl, queuePrefix: config.queuePrefix, clusters: [cluster.name], checks: [kubeCheck(kubeConfig)] });
  const worker = startClusterWorker({ config, cluster, kubeConfig, logger, metrics: observed.metrics });
  await worker.worker.waitUntilReady();
  const health = await startHealthServer(config.healthPort, observed.health.routes());
  logger.info({ server: kubeConfig.getCurrentCluster()?.server, redis: safeRedisUrl(config.redisUrl), healthPort: health.port }, 'worker started');
  onShutdown(logger, config.shutdownSeconds, async () => {
    observed.health.beginShutdown();
    // close() stops fetching jobs and waits for the running step. Past the bound the step is left to
    // its lock: it expires (workerLockSeconds) and another worker resumes from the step ledger.
    // With no job running only Redis can have kept close() (it waits for Redis to answer): saying a step
    // was released would send the operator looking for one that never ran.
    const finished = await settlesWithin(worker.close(), Math.max(0.5, config.shutdownSeconds - 2) * 1000);
    if (!finished && worker.running > 0) logger.warn({ running: worker.running, lockSeconds: config.workerLockSeconds }, 'the running step did not finish in time; releasing it to another worker');
    else if (!finished) logger.warn({ redis: safeRedisUrl(config.redisUrl) }, 'Redis did not answer in time; stopped without it (no job was running)');
    await health.close();
    await observed.close();
  });
}

/** Options of the terminal demo. */
export interface TerminalDemoOptions {
  /** A cluster of the configuration to use instead of the simulated cluster. */
  readonly cluster?: string;
  /** A kubeconfig to use instead of the simulated cluster. */
  readonly kubeconfig?: string;
  readonly context?: string;
  /** Puts the simulated cluster into an entry's broken state first, e.g. `build-logs:broker`. */
  readonly broken?: string;
}

/** Where a cluster's API access was read from, as the terminal's `cluster` command says it. */
function kubeSourceWords(kube: ClusterConfig['kube']): string {
  switch (kube.source) {
    case 'kubeconfig':
      return `the kubeconfig ${kube.path}`;
    case 'in-cluster':
      return "this pod's ServiceAccount";
    case 'simulated':
      return 'the simulated cluster';
    default:
      return 'the default kubeconfig (KUBECONFIG, or ~/.kube/config)';
  }
}

/**
 * The configured cluster `--cluster` names; undefined for the simulated one (by its name, or by default).
 * Checked before anything starts: a mistyped name must not leave the person on another cluster.
 */
function chosenCluster(config: Config, options: TerminalDemoOptions): ClusterConfig | undefined {
  checkBrokenFlags(options);
  // Both name the cluster: one of them would be ignored, and a flag is never ignored.
  if (options.cluster !== undefined && (options.kubeconfig !== undefined || options.context !== undefined)) throw new InputError('--cluster and --kubeconfig/--context name a cluster twice; use one of them');
  if (options.cluster === undefined || options.cluster === simulatedClusterName) return undefined;
  const configured = findCluster(config, options.cluster);
  if (configured) return configured;
  const names = [simulatedClusterName, ...config.clusters.map((c) => c.name)];
  throw new InputError(`--cluster: ${noSuchClusterText(options.cluster, names)} Or use --kubeconfig PATH.`);
}

/** The terminal adapter: same commands, prompts for approval, real jobs through Redis. */
export async function runTerminalDemo(sources: ConfigSources, options: TerminalDemoOptions): Promise<void> {
  const base = loadConfig(sources);
  const out = process.stdout;
  const configured = chosenCluster(base, options);
  let redisUrl = base.redisUrl;
  let stopRedis = () => undefined as void;
  try {
    const reached = await assertRedisReachable(redisUrl);
    redisUrl = reached.url;
    if (reached.note) out.write(`${reached.note}\n`);
  } catch (err) {
    if (!(err instanceof RedisUnavailableError) || err.reachable || !redisServerInstalled()) throw err;
    out.write(`Redis is not reachable at ${safeRedisUrl(redisUrl)}; starting a private redis-server for this session.\n`);
    const own = await startPrivateRedis();
    redisUrl = own.url;
    stopRedis = own.stop;
  }

  const real = configured !== undefined || options.kubeconfig !== undefined || options.context !== undefined;
  const clusterName = configured?.name ?? (real ? 'local' : simulatedClusterName);
  // The simulated platform first: its dashboard and database addresses go into the cluster's configuration.
  const demo = real ? undefined : await startDemoPlatform({ broken: options.broken ? [options.broken] : [] });
  const sim: SimulatedCluster | undefined = demo?.sim;
  const config = loadConfig({
    ...sources,
    overrides: {
      ...sources.overrides,
      redisUrl,
      // A queue of its own: two terminal sessions (or a terminal and a deployed bot) never share work.
      queuePrefix: `${base.queuePrefix}-terminal-${process.pid}-${randomBytes(3).toString('hex')}`,
      logLevel: sources.overrides?.logLevel ?? 'warn',
      clusters: [
        configured
          ? { ...configured }
          : real
            ? { name: clusterName, kube: options.kubeconfig ? { source: 'kubeconfig', path: options.kubeconfig, ...(options.context ? { context: options.context } : {}) } : { source: 'default', context: options.context } }
            : { name: clusterName, kube: { source: 'simulated' }, ...sim?.addresses },
      ],
      defaultCluster: clusterName,
      ...(real || base.waitOverrideSeconds !== undefined ? {} : { waitOverrideSeconds: 10 }),
    },
  });
  const logger = createLogger(config.logLevel, plainLogLines(process.stderr));
  if (sim) {
    out.write(`Simulated cluster at ${sim.url} (a standard install of the platform${options.broken ? `, broken as in ${options.broken}` : ''}). The guide's waits are shortened to ${config.waitOverrideSeconds} s.\n`);
    for (const note of demo?.notes ?? []) out.write(`${note}\n`);
  }
  const cluster = config.clusters[0]!;
  // --kubeconfig / --context were typed: what is wrong with them is the person's input (exit 2).
  const kubeConfig = real && !configured ? loadKubeConfigFromFlags(cluster.kube) : clusterKubeConfig(cluster, sim?.kubeConfig());
  const held = await openTerminalRedis(config.redisUrl, base.queuePrefix, config.queuePrefix, config.sessionRenewSeconds * 1000);
  for (const paragraph of held.earlier) out.write(`${paragraph}\n`);
  // One outage log for the session's worker and its coordinator: an outage is one line, not one per part.
  const outage = new RedisOutageLog({ logger, redis: safeRedisUrl(config.redisUrl) });
  const worker = startClusterWorker({ config, cluster, kubeConfig, logger, pollMs: 250, outage });
  try {
    await runTerminal({
      config,
      logger,
      input: process.stdin,
      output: out,
      user: `terminal:${userInfo().username}`,
      outage,
      describeCluster: () =>
        sim
          ? `Simulated cluster at ${sim.url}. Symptoms present: ${sim.symptoms().join(', ') || 'none'}.`
          : `Cluster ${cluster.name}, from ${kubeSourceWords(cluster.kube)}${kubeConfig.currentContext ? ` (context ${kubeConfig.currentContext})` : ''}: ${kubeConfig.getCurrentCluster()?.server}.`,
    });
  } finally {
    // Quitting never hangs on a running step: after a short wait the worker leaves it.
    if (!(await settlesWithin(worker.close(), 3_000)) && worker.running > 0) out.write('A step was still running; quitting leaves it where it is.\n');
    // The session's queues were its own: nothing of it is left in Redis, unless Redis is away.
    let released = false;
    await settlesWithin(
      held.close().then((r) => (released = r)),
      3_000,
    );
    if (!released) out.write("Redis is unreachable, so this session's queues stay in it until they expire (within a day); the next terminal session on this Redis removes them.\n");
    await sim?.close();
    stopRedis();
  }
  // Whatever a left step still holds open, the session is over.
  process.exit(0);
}

/** `npm start`: the Slack bot when Slack credentials are set, else the terminal demo. */
export async function runStart(sources: ConfigSources): Promise<void> {
  const config = loadConfig(sources);
  if (hasSlackCredentials(config)) return runBot(config);
  process.stdout.write('No Slack credentials (SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET or SLACK_APP_TOKEN): starting the terminal adapter.\n');
  return runTerminalDemo(sources, {});
}
