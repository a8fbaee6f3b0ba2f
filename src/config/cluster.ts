import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { platformNamesSchema } from '../platform-names-schema.js';

/**
 * The keys of one cluster in the config file, each declared once: its schema, its default and its
 * description (`.meta`). The README's table of cluster keys is derived from this and checked by
 * test/config-readme.test.ts. `shownDefault` says in words a default that is not a plain value.
 */

/** `~/x` → the home directory's x, as a shell would expand it. */
function expandHome(path: string): string {
  return path === '~' ? homedir() : path.startsWith('~/') ? resolve(homedir(), path.slice(2)) : path;
}

export const slackUserId = z.string().regex(/^[UW][A-Z0-9]{2,}$/, 'a Slack user id such as U012ABCDEF');
export const userGroupId = z.string().regex(/^S[A-Z0-9]{2,}$/, 'a Slack user group id such as S012ABCDEF');

/** How the worker of one cluster reaches the Kubernetes API. */
const kubeSchema = z.discriminatedUnion('source', [
  /** KUBECONFIG, ~/.kube/config or the in-cluster ServiceAccount, as client-node finds them. */
  z.strictObject({ source: z.literal('default'), context: z.string().min(1).optional() }),
  z.strictObject({ source: z.literal('kubeconfig'), path: z.string().min(1).transform(expandHome), context: z.string().min(1).optional() }),
  z.strictObject({ source: z.literal('in-cluster') }),
  /** The simulated cluster, started in-process (terminal demo). */
  z.strictObject({ source: z.literal('simulated') }),
]);

/** Who may approve on one cluster; an unset field takes the global value. */
const approvalSchema = z.strictObject({
  approvers: z.array(slackUserId).optional().meta({ description: 'Slack user ids allowed to approve on this cluster', shownDefault: 'the global `approvers`' }),
  approverGroups: z.array(userGroupId).optional().meta({ description: 'Slack user groups whose members may approve on this cluster', shownDefault: 'the global `approverGroups`' }),
  twoPersonRule: z.boolean().optional().meta({ description: 'destructive steps need an approver other than the requester', shownDefault: 'the global `twoPersonRule`' }),
  expiresMinutes: z.number().positive().max(24 * 60).optional().meta({ description: 'an approval card expires after this long', shownDefault: 'the global `approvalExpiresMinutes`' }),
});

export const slackChannelId = z.string().regex(/^[CG][A-Z0-9]{2,}$/, 'a Slack channel id such as C012ABCDEF');

/** The scheduled doctor of one cluster: off unless it has a channel to post its changes to. */
const doctorWatchSchema = z.strictObject({
  channel: slackChannelId.optional().meta({ description: 'Slack channel id the scheduled doctor posts this cluster\'s changes to (a symptom newly present, its clearing, a doctor that cannot run); without it the scheduled doctor is off', shownDefault: 'none (off)' }),
  everyMinutes: z.number().min(1).max(24 * 60).default(10).meta({ description: 'how often the scheduled doctor runs on this cluster (one scan at a time across bot replicas)' }),
  newPostsPerHour: z.number().int().min(1).max(100).default(5).meta({ description: 'symptoms newly present posted as a message each, per sliding hour; more are folded into one message that names them and points to `/platform doctor`' }),
});

// Strict, as the file's top level is: a misspelt key (platfromNamespace) would otherwise leave its default in force
// without a word, and the worker's RBAC and every remedy on the wrong namespace.
export const clusterSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]{0,40}[a-z0-9])?$/, 'lower-case letters, digits and dashes, such as prod-eu')
    .meta({ description: 'the cluster\'s name in `/platform fix <id> <cluster>` and `worker --cluster`', shownDefault: 'required' }),
  kube: kubeSchema.default({ source: 'default' }).meta({
    description: 'how its worker reaches the API: `{ source: in-cluster }`, `{ source: kubeconfig, path: ~/.kube/config, context: prod }`, `{ source: simulated }`, or `default` (KUBECONFIG, ~/.kube/config or in-cluster, as the Kubernetes client finds them)',
    shownDefault: '`{ source: default }`',
  }),
  approval: approvalSchema.default({}),
  doctor: doctorWatchSchema.prefault({}),
  ...platformNamesSchema.shape,
});

/** One cluster the bot can repair: its name, how to reach it, and its platform names. */
export type ClusterConfig = z.infer<typeof clusterSchema>;
/** How a worker reaches a cluster's Kubernetes API. */
export type KubeSource = z.infer<typeof kubeSchema>;
