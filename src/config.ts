import { knownSecrets } from './known-secrets.js';
import type { ClusterConfig } from './config/cluster.js';
import { ConfigError, describeIssue } from './config/errors.js';
import { declaredKeys, valueAt } from './config/keys.js';
import { configSchema, type Config } from './config/schema.js';
import { merge, readEnvironment, readFile, type Values } from './config/sources.js';
import { shownBack } from './redact.js';

/**
 * The only reader of the environment and of the optional YAML config file. Every key is declared
 * once in config/keys.ts (and a cluster's in config/cluster.ts); everything else receives the frozen
 * Config this module returns.
 */

export { ConfigError } from './config/errors.js';
export type { ClusterConfig, KubeSource } from './config/cluster.js';
export type { Config } from './config/schema.js';

/** Inputs of loadConfig; defaults to this process's environment. */
export interface ConfigSources {
  env?: Record<string, string | undefined>;
  /** Path of the YAML file; else PLATFORM_MEDIC_CONFIG, else ./platform-medic.yaml when it exists. */
  file?: string;
  /** Values that win over file and environment (command-line flags). */
  overrides?: Partial<{ waitOverrideSeconds: number; verifySettleSeconds: number; clusters: unknown[]; defaultCluster: string; redisUrl: string; queuePrefix: string; logLevel: string }>;
}

function urlPassword(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o as Record<string, unknown>)) deepFreeze(v);
  }
  return o;
}

/** The secret values the configuration holds, as the declaration marks them. */
function secretsOf(config: Config): (string | undefined)[] {
  return declaredKeys.map((k) => {
    const value = valueAt(config, k.path.split('.'));
    if (typeof value !== 'string') return undefined;
    return k.secret === 'value' ? value : k.secret === 'url password' ? urlPassword(value) : undefined;
  });
}

/**
 * Reads and validates the configuration once. Flags win over the environment, which wins over the
 * file. Throws ConfigError naming each wrong or missing key; secret values are never part of the message.
 */
export function loadConfig(sources: ConfigSources = {}): Config {
  const env = sources.env ?? process.env;
  const explicitFile = sources.file ?? env.PLATFORM_MEDIC_CONFIG;
  const file = readFile(explicitFile ?? 'platform-medic.yaml', explicitFile !== undefined);
  const environment = readEnvironment(env);
  const merged = merge((sources.overrides ?? {}) as Values, environment.values, file.values);
  const clusters = merged.clusters as unknown[] | undefined;
  const named = (clusters?.[0] as { name?: unknown } | undefined)?.name;
  // Without a valid first cluster, its own error is the one to show; a default-cluster error would be noise.
  merged.defaultCluster ??= typeof named === 'string' ? named : 'default';
  merged.configFile = file.path;
  const parsed = configSchema.safeParse(merged);
  // Every problem at once: the variables', the file's keys', then what the values make together (the clusters, the bounds).
  const problems = [...environment.problems, ...file.problems, ...(parsed.success ? [] : parsed.error.issues.map((i) => describeIssue(i, { origin: 'merged', schema: configSchema, input: merged, file: file.path ?? 'the config file', sources: { env: new Set(Object.keys(environment.values)), file: new Set(Object.keys(file.values)) } })))];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  // From here the process holds these secrets; the logger scrubs them from any line they would reach.
  knownSecrets.add(...secretsOf(parsed.data));
  return deepFreeze(parsed.data);
}

/** True when the Slack app can start (HTTP receiver or Socket Mode). */
export function hasSlackCredentials(config: Config): boolean {
  return Boolean(config.slack.botToken && (config.slack.signingSecret || config.slack.appToken));
}

/** Who may approve on a cluster, with the global values filled in. */
export interface ApprovalRules {
  readonly approvers: readonly string[];
  readonly approverGroups: readonly string[];
  readonly twoPersonRule: boolean;
  readonly expiresMinutes: number;
}

/** The approval rules of a cluster: its own, else the global ones. */
export function approvalRules(config: Config, cluster: string): ApprovalRules {
  const own = findCluster(config, cluster)?.approval ?? {};
  return {
    approvers: own.approvers ?? config.approvers,
    approverGroups: own.approverGroups ?? config.approverGroups,
    twoPersonRule: own.twoPersonRule ?? config.twoPersonRule,
    expiresMinutes: own.expiresMinutes ?? config.approvalExpiresMinutes,
  };
}

/** The cluster of that name, or undefined. */
export function findCluster(config: Config, name: string): ClusterConfig | undefined {
  return config.clusters.find((c) => c.name === name);
}

/**
 * The one wording of "no such cluster", for every surface: the name asked for (cut to 60 characters)
 * and the clusters there are, each written with `quote` (code spans in Slack, quotes in a terminal).
 */
export function noSuchClusterText(name: string, clusters: readonly string[], quote: (s: string) => string = (s) => `"${s}"`): string {
  return `There is no cluster ${quote(shownBack(name))}. Configured clusters: ${clusters.map(quote).join(', ')}.`;
}

/** The scheduled doctor of a cluster, when it has a channel: where it posts, how often, how many posts an hour. */
export interface DoctorWatchRules {
  readonly channel: string;
  readonly everyMs: number;
  readonly newPostsPerHour: number;
}

/** A cluster's scheduled doctor, the test override of its interval applied; undefined when it is off (no channel). */
export function doctorWatchRules(config: Config, cluster: string): DoctorWatchRules | undefined {
  const own = findCluster(config, cluster)?.doctor;
  if (!own?.channel) return undefined;
  const seconds = config.doctorEveryOverrideSeconds ?? own.everyMinutes * 60;
  return { channel: own.channel, everyMs: seconds * 1000, newPostsPerHour: own.newPostsPerHour };
}

/**
 * Whether this process runs inside a Kubernetes pod: the service address the kubelet gives every pod. A cluster's
 * `kube: { source: in-cluster }` means nothing elsewhere (src/cluster/kubeconfig.ts).
 */
export function runningInCluster(env: Record<string, string | undefined> = process.env): boolean {
  return Boolean(env.KUBERNETES_SERVICE_HOST && env.KUBERNETES_SERVICE_PORT);
}
