import { z } from 'zod';
import { clusterSchema, slackChannelId, slackUserId, userGroupId } from './cluster.js';

/** How the text of an environment variable becomes a value; `objects` (a list of them) only the file can hold. */
export type Reading = 'text' | 'number' | 'flag' | 'list' | 'objects';

/**
 * One configuration key, declared once. The file schema, the reading of the environment, the merge,
 * the wording of errors and the README's table (checked by test/config-readme.test.ts) derive from it.
 */
export interface KeyDeclaration<S extends z.ZodType = z.ZodType> {
  /** The value's schema, with its default when it has one. */
  readonly schema: S;
  /** The environment variable that sets it; none for keys only the file can hold. */
  readonly env?: string;
  readonly read: Reading;
  /** Whether the YAML file may set it, under the key's own name. Credentials stay out of files. */
  readonly inFile: boolean;
  /** What it is for, as the README says it. */
  readonly description: string;
  /** Never quoted in a message; `url password` marks the password part of a URL as the secret. */
  readonly secret?: 'value' | 'url password';
  /** The default in words, when it is computed or better read that way than as a raw value. */
  readonly shownDefault?: string;
}

function key<S extends z.ZodType>(d: KeyDeclaration<S>): KeyDeclaration<S> {
  return d;
}

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** What a Slack signing secret is and where the app's is found. */
const signingSecretShape = '32 hex characters (0-9, a-f), the Signing Secret under App Credentials on the app\'s "Basic Information" page';

/** What is wrong with a signing secret that is not 32 hex characters, without quoting any of it. */
function wrongSecretShape(input: unknown): string {
  const length = typeof input === 'string' ? [...input].length : 0;
  return length === 32 ? 'got 32 characters, not all of them hex' : `got ${length} character${length === 1 ? '' : 's'}`;
}

/** An http(s) URL whose path ends with `/api/` (or `/api`, which gets its `/`), without a query or fragment. */
function isWebApiBaseUrl(text: string): boolean {
  if (!/^https?:\/\/[^/?#]+(\/[^?#]*)?\/api\/?$/.test(text)) return false;
  try {
    return Boolean(new URL(text).host);
  } catch {
    return false;
  }
}

/** The Slack app's credentials (`config.slack.*`): from the environment only. */
export const slackKeys = {
  botToken: key({
    env: 'SLACK_BOT_TOKEN', read: 'text', inFile: false, secret: 'value',
    schema: z.string().regex(/^xoxb-/, 'a bot token starting with xoxb-').optional(),
    description: 'bot token (`xoxb-…`)',
  }),
  signingSecret: key({
    env: 'SLACK_SIGNING_SECRET', read: 'text', inFile: false, secret: 'value',
    // Slack's are 16 random bytes in hex. What was wrong is told by its length alone, never its characters.
    schema: z.string().regex(/^[0-9a-f]{32}$/i, { error: (issue) => `${signingSecretShape}; ${wrongSecretShape(issue.input)}` }).optional(),
    description: 'signing secret, 32 hex characters (Basic Information → App Credentials → Signing Secret): requests are verified with it (HTTP receiver)',
  }),
  appToken: key({
    env: 'SLACK_APP_TOKEN', read: 'text', inFile: false, secret: 'value',
    schema: z.string().regex(/^xapp-/, 'an app-level token starting with xapp-').optional(),
    description: 'app-level token (`xapp-…`): Socket Mode instead of HTTP, no public address needed (docs/operations.md, "HTTP or Socket Mode")',
  }),
  /** Changed only for a proxy or a test double. */
  apiUrl: key({
    env: 'SLACK_API_URL', read: 'text', inFile: false,
    // The Web API client appends the method's name (`auth.test`) to it: without `/api/` every call would miss.
    schema: z
      .string()
      .refine(isWebApiBaseUrl, 'the Web API\'s base URL: http or https, ending with /api/ as Slack\'s own https://slack.com/api/ does (a proxy\'s: https://proxy.example.com/slack/api/)')
      .transform((url) => (url.endsWith('/') ? url : `${url}/`))
      .optional(),
    description: 'Web API base URL (ends with `/api/`; a missing final `/` is added), only for a proxy; shared files are also downloaded from its origin',
  }),
};

/** Every other key (`config.<name>`), in the README's order. */
export const keys = {
  redisUrl: key({
    env: 'REDIS_URL', read: 'text', inFile: true, secret: 'url password',
    schema: z.string().regex(/^rediss?:\/\//, 'a redis:// or rediss:// URL').default('redis://127.0.0.1:6379'),
    description: 'Redis of the queues, the requests and the audit trail; its password is never printed',
  }),
  queuePrefix: key({
    env: 'PLATFORM_MEDIC_QUEUE_PREFIX', read: 'text', inFile: true,
    schema: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and -').default('medic'),
    description: 'prefix of every Redis key the bot and workers use (BullMQ\'s and ours)',
  }),
  port: key({
    env: 'PORT', read: 'number', inFile: true,
    schema: z.number().int().min(0).max(65535).default(3000),
    description: 'HTTP port of the bot',
  }),
  healthPort: key({
    env: 'HEALTH_PORT', read: 'number', inFile: true,
    schema: z.number().int().min(0).max(65535).default(9090),
    description: '`/healthz`, `/readyz`, `/metrics` of the worker (and of the bot in Socket Mode; over HTTP the bot serves them on its own port)',
  }),
  // Below the manifests' terminationGracePeriodSeconds (30), or the kubelet kills the process first.
  shutdownSeconds: key({
    env: 'PLATFORM_MEDIC_SHUTDOWN_SECONDS', read: 'number', inFile: true,
    schema: z.number().positive().max(600).default(25),
    description: 'the most a SIGTERM may take before the process exits anyway (below the manifests\' grace period of 30)',
  }),
  // So that load balancers stop sending requests before the server closes.
  shutdownDrainSeconds: key({
    env: 'PLATFORM_MEDIC_SHUTDOWN_DRAIN_SECONDS', read: 'number', inFile: true,
    schema: z.number().min(0).max(60).default(5),
    description: 'after SIGTERM the bot answers `/readyz` 503 this long before closing its server',
  }),
  logLevel: key({
    env: 'LOG_LEVEL', read: 'text', inFile: true,
    schema: z.enum(logLevels).default('info'),
    description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` (most verbose) or `silent`. No level prints a secret: at `debug`/`trace` Slack\'s libraries log only their own words, never a message or payload, and every line is scrubbed of secret-looking text and of every secret value the process holds (revealed passwords, Secret values the worker read, Slack credentials)',
  }),
  approvers: key({
    env: 'PLATFORM_MEDIC_APPROVERS', read: 'list', inFile: true,
    schema: z.array(slackUserId).default([]),
    description: 'Slack user ids allowed to approve, comma-separated (every cluster, unless it says otherwise)',
  }),
  defaultCluster: key({
    env: 'PLATFORM_MEDIC_DEFAULT_CLUSTER', read: 'text', inFile: true,
    schema: z.string(),
    shownDefault: 'the first cluster',
    description: 'cluster of `/platform fix <id>` without a cluster',
  }),
  approverGroups: key({
    env: 'PLATFORM_MEDIC_APPROVER_GROUPS', read: 'list', inFile: true,
    schema: z.array(userGroupId).default([]),
    description: 'Slack user group ids whose members may approve; resolved through the Web API and cached',
  }),
  twoPersonRule: key({
    env: 'PLATFORM_MEDIC_TWO_PERSON_RULE', read: 'flag', inFile: true,
    schema: z.boolean().default(true),
    description: 'destructive steps need an approver other than the requester',
  }),
  approvalExpiresMinutes: key({
    env: 'PLATFORM_MEDIC_APPROVAL_EXPIRES_MINUTES', read: 'number', inFile: true,
    schema: z.number().positive().max(24 * 60).default(15),
    description: 'an approval card expires this long after its plan',
  }),
  decisionTimeoutMinutes: key({
    env: 'PLATFORM_MEDIC_DECISION_TIMEOUT_MINUTES', read: 'number', inFile: true,
    schema: z.number().positive().max(7 * 24 * 60).default(30),
    description: 'a question of the guide ("still failing?") waits this long for an answer; then the remedy ends with a message and the entry is free',
  }),
  // A restart, a controller's next sync or a volume's resize takes a moment to show in the cluster.
  verifySettleSeconds: key({
    env: 'PLATFORM_MEDIC_VERIFY_SETTLE_SECONDS', read: 'number', inFile: true,
    schema: z.number().min(0).max(600).default(30),
    description: "after a remedy's last stage its entry's detector looks at the cluster; while the symptom is still present it looks again, for up to this long, before saying \"still present\" (0: one look)",
  }),
  // Past it the group's members cannot approve until Slack answers again: fail closed.
  approverGroupStaleMinutes: key({
    env: 'PLATFORM_MEDIC_APPROVER_GROUP_STALE_MINUTES', read: 'number', inFile: true,
    schema: z.number().positive().max(24 * 60).default(10),
    description: 'when Slack cannot tell an approver group\'s members, the members read last count this long after that read; later the group\'s members cannot approve until Slack answers',
  }),
  fixesPerUserPerHour: key({
    env: 'PLATFORM_MEDIC_FIXES_PER_USER_PER_HOUR', read: 'number', inFile: true,
    schema: z.number().int().min(1).max(1000).default(10),
    description: 'per-person limit on fix requests and "Plan again", over any sliding hour',
  }),
  doctorsPerUserPerMinute: key({
    env: 'PLATFORM_MEDIC_DOCTORS_PER_USER_PER_MINUTE', read: 'number', inFile: true,
    schema: z.number().int().min(1).max(1000).default(3),
    description: 'per-person limit on `/platform doctor` (each a full scan of the cluster), over a sliding minute; doctors asked while one runs on the same cluster share it',
  }),
  auditRetentionDays: key({
    env: 'PLATFORM_MEDIC_AUDIT_RETENTION_DAYS', read: 'number', inFile: true,
    schema: z.number().int().min(1).max(3650).default(90),
    description: 'how long the audit trail keeps records',
  }),
  auditMaxRecords: key({
    env: 'PLATFORM_MEDIC_AUDIT_MAX_RECORDS', read: 'number', inFile: true,
    schema: z.number().int().min(1000).max(100_000_000).default(500_000),
    description: 'the most records the audit trail keeps, so that a flood of audited actions cannot fill Redis; past it the oldest go before their retention, with a warning in the log',
  }),
  // A live worker renews its lock at half this period; a dead one's run resumes from its step ledger.
  workerLockSeconds: key({
    env: 'PLATFORM_MEDIC_WORKER_LOCK_SECONDS', read: 'number', inFile: true,
    schema: z.number().int().min(2).max(600).default(30),
    description: 'a dead worker\'s job moves to another after this long',
  }),
  // The bot's watch for lost state (src/jobs/lifecycle/lost-state.ts). Tests shorten both, to see a
  // missing continuation ended without waiting out the production margins.
  lostStateCheckSeconds: key({
    env: 'PLATFORM_MEDIC_LOST_STATE_CHECK_SECONDS', read: 'number', inFile: true,
    schema: z.number().min(0.1).max(600).default(5),
    description: 'between two checks of the bot that Redis still holds the state of its open remedies, when no queue event or reconnect prompts one sooner',
  }),
  lostStateGraceSeconds: key({
    env: 'PLATFORM_MEDIC_LOST_STATE_GRACE_SECONDS', read: 'number', inFile: true,
    schema: z.number().min(0).max(3600).default(10),
    description: "a wait whose continuation job is missing from the queue this long after it was due is ended as lost (the bot's due time is a little later than the worker's)",
  }),
  // Below the lease's 30 s, so a live session's lease never lapses between two renewals.
  sessionRenewSeconds: key({
    env: 'PLATFORM_MEDIC_SESSION_RENEW_SECONDS', read: 'number', inFile: true,
    schema: z.number().min(0.5).max(20).default(10),
    description: "how often a terminal session renews its hold on its Redis keys (the hold lapses 30 s after the last renewal) and gives the queues' keys made since an expiry, so a session killed with SIGKILL leaves nothing forever",
  }),
  listenChannels: key({
    env: 'PLATFORM_MEDIC_CHANNELS', read: 'list', inFile: true,
    schema: z.array(slackChannelId).default([]),
    shownDefault: 'every channel the bot is in',
    description: 'channels whose messages are read for pasted errors; direct messages are always read',
  }),
  maxFileBytes: key({
    env: 'PLATFORM_MEDIC_MAX_FILE_BYTES', read: 'number', inFile: true,
    schema: z.number().int().min(1024).max(50 * 1024 * 1024).default(10 * 1024 * 1024),
    shownDefault: '10485760 (10 MB)',
    description: 'largest shared file, snippet or terminal paste read (the files of one message together); a larger one gets a clear answer',
  }),
  // Token buckets with a sliding refill, shared by every bot replica through Redis.
  pasteAnswersPerUserPerMinute: key({
    env: 'PLATFORM_MEDIC_PASTE_ANSWERS_PER_USER_PER_MINUTE', read: 'number', inFile: true,
    schema: z.number().int().min(1).max(1000).default(5),
    description: 'pasted errors answered per person per minute; past it, one notice, then silence until the budget has refilled',
  }),
  pasteAnswersPerChannelPerMinute: key({
    env: 'PLATFORM_MEDIC_PASTE_ANSWERS_PER_CHANNEL_PER_MINUTE', read: 'number', inFile: true,
    schema: z.number().int().min(1).max(1000).default(20),
    description: 'pasted errors answered per channel (or direct message) per minute',
  }),
  // Remedy messages go first, and Slack may ask the bot to slow down.
  pasteAnswerMaxAgeSeconds: key({
    env: 'PLATFORM_MEDIC_PASTE_ANSWER_MAX_AGE_SECONDS', read: 'number', inFile: true,
    schema: z.number().min(1).max(600).default(30),
    description: 'a paste answer still waiting to be sent after this long is dropped (and counted), not sent late',
  }),
  // A pasted error's candidates are checked on the cluster; the text's answer never waits for it.
  pasteEvidenceSeconds: key({
    env: 'PLATFORM_MEDIC_PASTE_EVIDENCE_SECONDS', read: 'number', inFile: true,
    schema: z.number().min(0.5).max(60).default(5),
    description: "how long a paste answer's cluster evidence (its candidates' detectors, run by the cluster's worker) may take; the text's answer is shown at once and updated when the evidence comes, or says after this long that it is unavailable",
  }),
  pasteEvidenceReuseSeconds: key({
    env: 'PLATFORM_MEDIC_PASTE_EVIDENCE_REUSE_SECONDS', read: 'number', inFile: true,
    schema: z.number().min(0).max(600).default(45),
    description: "a detector's finding for a paste is reused this long for other pastes about the same entry and cluster (per bot replica), so a flood of pastes runs one check, not one each",
  }),
  waitOverrideSeconds: key({
    env: 'PLATFORM_MEDIC_WAIT_OVERRIDE_SECONDS', read: 'number', inFile: true,
    schema: z.number().min(0).max(3600).optional(),
    description: 'replaces every wait of the guide (e.g. its 5 minutes) with this many seconds: demos on the simulated cluster and tests only, never production',
  }),
  doctorEveryOverrideSeconds: key({
    env: 'PLATFORM_MEDIC_DOCTOR_EVERY_OVERRIDE_SECONDS', read: 'number', inFile: true,
    schema: z.number().min(0.2).max(3600).optional(),
    description: 'replaces every cluster\'s `doctor.everyMinutes` with this many seconds: demos on the simulated cluster and tests only, never production',
  }),
  // prefault: the default goes through the schema, so the one cluster gets a standard install's names.
  clusters: key({
    read: 'objects', inFile: true,
    schema: z.array(clusterSchema).min(1).prefault([{ name: 'default' }]),
    shownDefault: 'one cluster, `default`',
    description: 'the clusters the bot repairs: see the cluster keys below',
  }),
};

/** A declared key with the path of its value in Config (`slack.botToken`, `redisUrl`). */
export interface DeclaredKey extends KeyDeclaration {
  readonly path: string;
}

/** Every declared key, Slack's first, in the README's order. */
export const declaredKeys: readonly DeclaredKey[] = [
  ...Object.entries(slackKeys).map(([name, k]) => ({ ...k, path: `slack.${name}` })),
  ...Object.entries(keys).map(([name, k]) => ({ ...k, path: name })),
];

/** The value at a path (`['slack', 'botToken']`) of a Config-shaped object, or undefined. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const k of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

type Shape<T extends Record<string, KeyDeclaration>> = { [K in keyof T]: T[K]['schema'] };

/** The schemas of a table of keys, as a zod shape. */
export function shapeOf<T extends Record<string, KeyDeclaration>>(table: T): Shape<T> {
  return Object.fromEntries(Object.entries(table).map(([name, k]) => [name, k.schema])) as Shape<T>;
}
