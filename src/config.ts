import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { UserFacingError } from './errors.js';
import { knownSecrets } from './known-secrets.js';
import { platformNamesSchema } from './platform-names-schema.js';

/**
 * The only reader of the environment and of the optional YAML config file.
 * Everything else receives the frozen Config this module returns.
 */

/** `~/x` → the home directory's x, as a shell would expand it. */
function expandHome(path: string): string {
  return path === '~' ? homedir() : path.startsWith('~/') ? resolve(homedir(), path.slice(2)) : path;
}

const slackUserId = z.string().regex(/^[UW][A-Z0-9]{2,}$/, 'a Slack user id such as U012ABCDEF');

/** How the worker of one cluster reaches the Kubernetes API. */
const kubeSchema = z.discriminatedUnion('source', [
  /** KUBECONFIG, ~/.kube/config or the in-cluster ServiceAccount, as client-node finds them. */
  z.object({ source: z.literal('default'), context: z.string().min(1).optional() }),
  z.object({ source: z.literal('kubeconfig'), path: z.string().min(1).transform(expandHome), context: z.string().min(1).optional() }),
  z.object({ source: z.literal('in-cluster') }),
  /** The simulated cluster, started in-process (terminal demo). */
  z.object({ source: z.literal('simulated') }),
]);

const userGroupId = z.string().regex(/^S[A-Z0-9]{2,}$/, 'a Slack user group id such as S012ABCDEF');

/**
 * Who may approve on one cluster. Unset fields take the global values: the global approvers and
 * groups, the two-person rule for destructive steps, and approvals that expire after 15 minutes.
 */
const approvalSchema = z.object({
  approvers: z.array(slackUserId).optional(),
  approverGroups: z.array(userGroupId).optional(),
  /** Destructive steps need an approver other than the person who asked. */
  twoPersonRule: z.boolean().optional(),
  expiresMinutes: z.number().positive().max(24 * 60).optional(),
});

const clusterSchema = platformNamesSchema.extend({
  name: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]{0,40}[a-z0-9])?$/, 'lower-case letters, digits and dashes, such as prod-eu'),
  kube: kubeSchema.default({ source: 'default' }),
  approval: approvalSchema.default({}),
});

const fileSchema = z
  .object({
    redisUrl: z.string().optional(),
    queuePrefix: z.string().optional(),
    port: z.number().int().optional(),
    logLevel: z.string().optional(),
    approvers: z.array(z.string()).optional(),
    defaultCluster: z.string().optional(),
    clusters: z.array(z.unknown()).optional(),
    waitOverrideSeconds: z.number().optional(),
    listenChannels: z.array(z.string()).optional(),
    maxFileBytes: z.number().optional(),
    pasteAnswersPerUserPerMinute: z.number().optional(),
    pasteAnswersPerChannelPerMinute: z.number().optional(),
    pasteAnswerMaxAgeSeconds: z.number().optional(),
    approverGroups: z.array(z.string()).optional(),
    twoPersonRule: z.boolean().optional(),
    approvalExpiresMinutes: z.number().optional(),
    decisionTimeoutMinutes: z.number().optional(),
    approverGroupStaleMinutes: z.number().optional(),
    fixesPerUserPerHour: z.number().optional(),
    auditRetentionDays: z.number().optional(),
    workerLockSeconds: z.number().optional(),
    healthPort: z.number().int().optional(),
    shutdownSeconds: z.number().optional(),
    shutdownDrainSeconds: z.number().optional(),
  })
  .strict();

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const configSchema = z
  .object({
    slack: z.object({
      botToken: z.string().regex(/^xoxb-/, 'a bot token starting with xoxb-').optional(),
      signingSecret: z.string().regex(/^[0-9a-f]{16,}$/i, 'the app\'s signing secret (hex)').optional(),
      appToken: z.string().regex(/^xapp-/, 'an app-level token starting with xapp-').optional(),
      /** Base URL of Slack's Web API (ends with /api/); changed only for a proxy or a test double. */
      apiUrl: z.string().url().optional(),
    }),
    redisUrl: z.string().regex(/^rediss?:\/\//, 'a redis:// or rediss:// URL'),
    /** Prefix of every Redis key the bot and workers use (BullMQ's and ours). */
    queuePrefix: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and -').default('medic'),
    port: z.number().int().min(0).max(65535).default(3000),
    logLevel: z.enum(logLevels).default('info'),
    /** Slack user ids allowed to approve steps that need approval (every cluster, unless it says otherwise). */
    approvers: z.array(slackUserId).default([]),
    /** Slack user groups whose members may approve; resolved through the Web API and cached. */
    approverGroups: z.array(userGroupId).default([]),
    /** Destructive steps need an approver other than the person who asked. */
    twoPersonRule: z.boolean().default(true),
    /** An approval card expires this long after its plan. */
    approvalExpiresMinutes: z.number().positive().max(24 * 60).default(15),
    /**
     * How long a question of the guide ("still failing?") waits for an answer. Then the remedy ends with
     * a message in its thread and the entry is free to fix again.
     */
    decisionTimeoutMinutes: z.number().positive().max(7 * 24 * 60).default(30),
    /**
     * When Slack cannot tell an approver group's members, the members last read are trusted this long
     * after that read; later the group's members cannot approve until Slack answers again (fail closed).
     */
    approverGroupStaleMinutes: z.number().positive().max(24 * 60).default(10),
    /** How many fixes (and plans made again) one person may ask for in any sliding hour. */
    fixesPerUserPerHour: z.number().int().min(1).max(1000).default(10),
    /** How long the audit trail keeps its records. */
    auditRetentionDays: z.number().int().min(1).max(3650).default(90),
    /**
     * The worker's job lock. A worker that dies mid-step loses its lock after this long and another
     * worker resumes the run from its step ledger; a live worker renews the lock at half this period.
     */
    workerLockSeconds: z.number().int().min(2).max(600).default(30),
    /**
     * Port of the small HTTP server with /healthz, /readyz and /metrics: the worker's, and the bot's
     * in Socket Mode (over HTTP the bot serves them on its own port).
     */
    healthPort: z.number().int().min(0).max(65535).default(9090),
    /**
     * How long a SIGTERM may take before the process exits anyway. Keep it below the manifests'
     * terminationGracePeriodSeconds (30), or the kubelet kills the process first.
     */
    shutdownSeconds: z.number().positive().max(600).default(25),
    /**
     * After SIGTERM the bot answers /readyz with 503 this long before it closes its HTTP server, so
     * load balancers stop sending it requests first.
     */
    shutdownDrainSeconds: z.number().min(0).max(60).default(5),
    clusters: z.array(clusterSchema).min(1),
    defaultCluster: z.string(),
    /**
     * Replaces every wait of the guide (e.g. its 5 minutes) with this many seconds.
     * For demos on the simulated cluster and for tests; never set in production.
     */
    waitOverrideSeconds: z.number().min(0).max(3600).optional(),
    /**
     * Channels whose messages the bot reads for pasted errors; empty means every channel it is in.
     * Direct messages are always read.
     */
    listenChannels: z.array(z.string().regex(/^[CG][A-Z0-9]{2,}$/, 'a Slack channel id such as C012ABCDEF')).default([]),
    /** Largest file or snippet the bot downloads to match; larger ones get a clear answer. */
    maxFileBytes: z.number().int().min(1024).max(50 * 1024 * 1024).default(10 * 1024 * 1024),
    /**
     * How many pasted errors the bot answers for one person, and in one channel, per minute (token
     * buckets with a sliding refill, shared by every bot replica through Redis). Past either, the
     * person gets one short notice, then silence until the budget has refilled.
     */
    pasteAnswersPerUserPerMinute: z.number().int().min(1).max(1000).default(5),
    pasteAnswersPerChannelPerMinute: z.number().int().min(1).max(1000).default(20),
    /**
     * A paste answer still waiting to be sent after this long is dropped (and counted), not sent
     * minutes late: remedy messages go first, and Slack may ask the bot to slow down.
     */
    pasteAnswerMaxAgeSeconds: z.number().min(1).max(600).default(30),
    configFile: z.string().optional(),
  })
  .superRefine((c, ctx) => {
    const names = c.clusters.map((k) => k.name);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) ctx.addIssue({ code: 'custom', path: ['clusters'], message: `cluster name "${dup}" appears twice` });
    if (c.shutdownDrainSeconds >= c.shutdownSeconds) {
      ctx.addIssue({ code: 'custom', path: ['shutdownDrainSeconds'], message: `must be less than the shutdown bound (${c.shutdownSeconds} s)` });
    }
    if (!names.includes(c.defaultCluster)) {
      ctx.addIssue({
        code: 'custom',
        path: ['defaultCluster'],
        message: `"${c.defaultCluster}" is not one of the configured clusters (${names.join(', ')})`,
      });
    }
    const s = c.slack;
    if (s.botToken && !s.signingSecret && !s.appToken) {
      ctx.addIssue({
        code: 'custom',
        path: ['slack', 'signingSecret'],
        message: 'SLACK_SIGNING_SECRET is required with SLACK_BOT_TOKEN (or set SLACK_APP_TOKEN for Socket Mode)',
      });
    }
    if (!s.botToken && (s.signingSecret || s.appToken)) {
      ctx.addIssue({ code: 'custom', path: ['slack', 'botToken'], message: 'SLACK_BOT_TOKEN is required when Slack is configured' });
    }
  });

/** One cluster the bot can repair: its name, how to reach it, and its platform names. */
export type ClusterConfig = z.infer<typeof clusterSchema>;
/** How a worker reaches a cluster's Kubernetes API. */
export type KubeSource = z.infer<typeof kubeSchema>;
/** The validated, frozen configuration of a bot, worker or terminal session. */
export type Config = Readonly<z.infer<typeof configSchema>>;

/** Where each config key comes from, so an error can name what the user must change. */
const envNames: Record<string, string> = {
  'slack.botToken': 'SLACK_BOT_TOKEN',
  'slack.signingSecret': 'SLACK_SIGNING_SECRET',
  'slack.appToken': 'SLACK_APP_TOKEN',
  'slack.apiUrl': 'SLACK_API_URL',
  redisUrl: 'REDIS_URL',
  queuePrefix: 'PLATFORM_MEDIC_QUEUE_PREFIX',
  port: 'PORT',
  logLevel: 'LOG_LEVEL',
  approvers: 'PLATFORM_MEDIC_APPROVERS',
  defaultCluster: 'PLATFORM_MEDIC_DEFAULT_CLUSTER',
  waitOverrideSeconds: 'PLATFORM_MEDIC_WAIT_OVERRIDE_SECONDS',
  listenChannels: 'PLATFORM_MEDIC_CHANNELS',
  maxFileBytes: 'PLATFORM_MEDIC_MAX_FILE_BYTES',
  pasteAnswersPerUserPerMinute: 'PLATFORM_MEDIC_PASTE_ANSWERS_PER_USER_PER_MINUTE',
  pasteAnswersPerChannelPerMinute: 'PLATFORM_MEDIC_PASTE_ANSWERS_PER_CHANNEL_PER_MINUTE',
  pasteAnswerMaxAgeSeconds: 'PLATFORM_MEDIC_PASTE_ANSWER_MAX_AGE_SECONDS',
  approverGroups: 'PLATFORM_MEDIC_APPROVER_GROUPS',
  twoPersonRule: 'PLATFORM_MEDIC_TWO_PERSON_RULE',
  approvalExpiresMinutes: 'PLATFORM_MEDIC_APPROVAL_EXPIRES_MINUTES',
  decisionTimeoutMinutes: 'PLATFORM_MEDIC_DECISION_TIMEOUT_MINUTES',
  approverGroupStaleMinutes: 'PLATFORM_MEDIC_APPROVER_GROUP_STALE_MINUTES',
  fixesPerUserPerHour: 'PLATFORM_MEDIC_FIXES_PER_USER_PER_HOUR',
  auditRetentionDays: 'PLATFORM_MEDIC_AUDIT_RETENTION_DAYS',
  workerLockSeconds: 'PLATFORM_MEDIC_WORKER_LOCK_SECONDS',
  healthPort: 'HEALTH_PORT',
  shutdownSeconds: 'PLATFORM_MEDIC_SHUTDOWN_SECONDS',
  shutdownDrainSeconds: 'PLATFORM_MEDIC_SHUTDOWN_DRAIN_SECONDS',
};

/** A configuration problem; its message names the key and what is expected, and never a secret value. */
export class ConfigError extends UserFacingError {
  constructor(readonly problems: string[]) {
    super('config', `Configuration is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Inputs of loadConfig; defaults to this process's environment. */
export interface ConfigSources {
  env?: Record<string, string | undefined>;
  /** Path of the YAML file; else PLATFORM_MEDIC_CONFIG, else ./platform-medic.yaml when it exists. */
  file?: string;
  /** Values that win over file and environment (command-line flags). */
  overrides?: Partial<{ waitOverrideSeconds: number; clusters: unknown[]; defaultCluster: string; redisUrl: string; queuePrefix: string; logLevel: string }>;
}

function readFile(path: string | undefined, explicit: boolean): { data: z.infer<typeof fileSchema>; path?: string } {
  if (!path) return { data: {} };
  const full = resolve(path);
  if (!existsSync(full)) {
    if (explicit) throw new ConfigError([`config file ${full} does not exist`]);
    return { data: {} };
  }
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(full, 'utf8')) ?? {};
  } catch (err) {
    throw new ConfigError([`config file ${full} is not valid YAML: ${(err as Error).message.split('\n')[0]}`]);
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => `${full}: ${describeIssue(i, 'file')}`));
  return { data: parsed.data, path: full };
}

/** Keys whose values may be secret: their values are never quoted in a message. */
const secretKeys = new Set(['slack.botToken', 'slack.signingSecret', 'slack.appToken', 'redisUrl']);

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const k of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

function describeIssue(issue: z.core.$ZodIssue, origin: 'file' | 'merged', input?: unknown, file?: string): string {
  const key = issue.path.join('.');
  const top = issue.path.length > 0 && typeof issue.path[0] === 'string' ? issue.path[0] : '';
  const nested = issue.path.slice(0, 2).join('.');
  const env = origin === 'merged' ? (envNames[key] ?? envNames[nested] ?? (top === 'clusters' ? undefined : envNames[top])) : undefined;
  const where = env ? `${env} (${key})` : top === 'clusters' && file ? `${file}: ${key}` : key || '(top level)';
  if (issue.code === 'unrecognized_keys') return `unknown key(s) ${issue.keys.join(', ')} at ${where}`;
  // Values are quoted only for keys that cannot hold a secret, so a person sees what was wrong.
  const value = secretKeys.has(key) || secretKeys.has(nested) ? undefined : valueAt(input, issue.path);
  const got = typeof value === 'string' || typeof value === 'number' ? ` (got "${String(value).slice(0, 80)}")` : '';
  return `${where}: ${issue.message}${got}`;
}

function urlPassword(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}

function numberFrom(name: string, v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new ConfigError([`${name}: expected a number, got "${v}"`]);
  return n;
}

function booleanFrom(name: string, v: string | undefined): boolean | undefined {
  if (v === undefined || v === '') return undefined;
  if (/^(true|1|yes)$/i.test(v)) return true;
  if (/^(false|0|no)$/i.test(v)) return false;
  throw new ConfigError([`${name}: expected true or false, got "${v.slice(0, 20)}"`]);
}

function list(v: string | undefined): string[] | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  return v.split(',').map((s) => s.trim()).filter(Boolean);
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o as Record<string, unknown>)) deepFreeze(v);
  }
  return o;
}

/**
 * Reads and validates the configuration once. Environment wins over the file for the keys both have.
 * Throws ConfigError naming each wrong or missing key; secret values are never part of the message.
 */
export function loadConfig(sources: ConfigSources = {}): Config {
  const env = sources.env ?? process.env;
  const explicitFile = sources.file ?? env.PLATFORM_MEDIC_CONFIG;
  const file = readFile(explicitFile ?? 'platform-medic.yaml', explicitFile !== undefined);
  const f = file.data;
  const clusters = sources.overrides?.clusters ?? f.clusters ?? [{ name: 'default' }];
  const named = (clusters[0] as { name?: unknown } | undefined)?.name;
  // Without a valid first cluster, its own error is the one to show; a default-cluster error would be noise.
  const firstName = typeof named === 'string' ? named : 'default';
  const merged = {
    slack: {
      botToken: env.SLACK_BOT_TOKEN || undefined,
      signingSecret: env.SLACK_SIGNING_SECRET || undefined,
      appToken: env.SLACK_APP_TOKEN || undefined,
      apiUrl: env.SLACK_API_URL || undefined,
    },
    redisUrl: sources.overrides?.redisUrl ?? (env.REDIS_URL || f.redisUrl || 'redis://127.0.0.1:6379'),
    queuePrefix: sources.overrides?.queuePrefix ?? (env.PLATFORM_MEDIC_QUEUE_PREFIX || f.queuePrefix),
    port: numberFrom('PORT', env.PORT) ?? f.port,
    logLevel: sources.overrides?.logLevel ?? (env.LOG_LEVEL || f.logLevel),
    approvers: list(env.PLATFORM_MEDIC_APPROVERS) ?? f.approvers,
    clusters,
    defaultCluster:
      sources.overrides?.defaultCluster ?? (env.PLATFORM_MEDIC_DEFAULT_CLUSTER || f.defaultCluster || firstName),
    waitOverrideSeconds:
      sources.overrides?.waitOverrideSeconds ??
      numberFrom('PLATFORM_MEDIC_WAIT_OVERRIDE_SECONDS', env.PLATFORM_MEDIC_WAIT_OVERRIDE_SECONDS) ??
      f.waitOverrideSeconds,
    listenChannels: list(env.PLATFORM_MEDIC_CHANNELS) ?? f.listenChannels,
    maxFileBytes: numberFrom('PLATFORM_MEDIC_MAX_FILE_BYTES', env.PLATFORM_MEDIC_MAX_FILE_BYTES) ?? f.maxFileBytes,
    pasteAnswersPerUserPerMinute: numberFrom('PLATFORM_MEDIC_PASTE_ANSWERS_PER_USER_PER_MINUTE', env.PLATFORM_MEDIC_PASTE_ANSWERS_PER_USER_PER_MINUTE) ?? f.pasteAnswersPerUserPerMinute,
    pasteAnswersPerChannelPerMinute: numberFrom('PLATFORM_MEDIC_PASTE_ANSWERS_PER_CHANNEL_PER_MINUTE', env.PLATFORM_MEDIC_PASTE_ANSWERS_PER_CHANNEL_PER_MINUTE) ?? f.pasteAnswersPerChannelPerMinute,
    pasteAnswerMaxAgeSeconds: numberFrom('PLATFORM_MEDIC_PASTE_ANSWER_MAX_AGE_SECONDS', env.PLATFORM_MEDIC_PASTE_ANSWER_MAX_AGE_SECONDS) ?? f.pasteAnswerMaxAgeSeconds,
    approverGroups: list(env.PLATFORM_MEDIC_APPROVER_GROUPS) ?? f.approverGroups,
    twoPersonRule: booleanFrom('PLATFORM_MEDIC_TWO_PERSON_RULE', env.PLATFORM_MEDIC_TWO_PERSON_RULE) ?? f.twoPersonRule,
    approvalExpiresMinutes: numberFrom('PLATFORM_MEDIC_APPROVAL_EXPIRES_MINUTES', env.PLATFORM_MEDIC_APPROVAL_EXPIRES_MINUTES) ?? f.approvalExpiresMinutes,
    decisionTimeoutMinutes: numberFrom('PLATFORM_MEDIC_DECISION_TIMEOUT_MINUTES', env.PLATFORM_MEDIC_DECISION_TIMEOUT_MINUTES) ?? f.decisionTimeoutMinutes,
    approverGroupStaleMinutes: numberFrom('PLATFORM_MEDIC_APPROVER_GROUP_STALE_MINUTES', env.PLATFORM_MEDIC_APPROVER_GROUP_STALE_MINUTES) ?? f.approverGroupStaleMinutes,
    fixesPerUserPerHour: numberFrom('PLATFORM_MEDIC_FIXES_PER_USER_PER_HOUR', env.PLATFORM_MEDIC_FIXES_PER_USER_PER_HOUR) ?? f.fixesPerUserPerHour,
    auditRetentionDays: numberFrom('PLATFORM_MEDIC_AUDIT_RETENTION_DAYS', env.PLATFORM_MEDIC_AUDIT_RETENTION_DAYS) ?? f.auditRetentionDays,
    workerLockSeconds: numberFrom('PLATFORM_MEDIC_WORKER_LOCK_SECONDS', env.PLATFORM_MEDIC_WORKER_LOCK_SECONDS) ?? f.workerLockSeconds,
    healthPort: numberFrom('HEALTH_PORT', env.HEALTH_PORT) ?? f.healthPort,
    shutdownSeconds: numberFrom('PLATFORM_MEDIC_SHUTDOWN_SECONDS', env.PLATFORM_MEDIC_SHUTDOWN_SECONDS) ?? f.shutdownSeconds,
    shutdownDrainSeconds: numberFrom('PLATFORM_MEDIC_SHUTDOWN_DRAIN_SECONDS', env.PLATFORM_MEDIC_SHUTDOWN_DRAIN_SECONDS) ?? f.shutdownDrainSeconds,
    configFile: file.path,
  };
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => describeIssue(i, 'merged', merged, file.path ?? 'the config file')));
  // From here the process holds these secrets; the logger scrubs them from any line they would reach.
  knownSecrets.add(parsed.data.slack.botToken, parsed.data.slack.signingSecret, parsed.data.slack.appToken, urlPassword(parsed.data.redisUrl));
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
