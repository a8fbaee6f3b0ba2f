import { findEntry } from '../../catalogue/index.js';
import { resolveParams } from '../../catalogue/params.js';
import { findCluster, noSuchClusterText, type Config } from '../../config.js';
import { newAttemptId } from '../names.js';
import { openStatusWords, RequestStore, type RemedyRequest } from '../requests.js';
import { busySeconds, type LifecycleContext } from './context.js';

/** What a surface says in public once a fix passed every check: where its conversation lives, or why it cannot. */
export type Announcement = { ok: true; context: Record<string, string> } | { ok: false; message: string };

/** What starting a fix needs. */
export interface FixRequest {
  readonly entryId: string;
  readonly cluster?: string;
  readonly requestedBy: string;
  /** Values for the entry's parameters (`size=200m`); checked here, defaults filled in. */
  readonly params?: Readonly<Record<string, string>>;
  /** The surface's routing for this request (e.g. a terminal's nothing), stored with it. */
  readonly context?: Record<string, string>;
  /**
   * Posts the fix's public announcement (e.g. a Slack root message) and returns its routing. Called
   * only after every check passed and the entry is held, so a refused request is never announced.
   */
  readonly announce?: () => Promise<Announcement>;
}

/** The refusal of a person who reached their limit of fixes (and plans made again) in the last hour. */
export function limitMessage(config: Config): string {
  return `You have asked for ${config.fixesPerUserPerHour} fixes in the last hour, the most one person may; try again later.`;
}

/**
 * Starts a fix. Every check comes first: the entry, the cluster, the parameters, who may see a
 * secret, the person's hourly limit and whether the entry is being fixed already. Only then is the
 * fix announced and its first plan queued, so a refusal is the person's alone and never counts.
 */
export async function requestFix(core: LifecycleContext, req: FixRequest): Promise<{ ok: true; request: RemedyRequest } | { ok: false; message: string }> {
  const { config } = core.options;
  const clusterName = req.cluster ?? config.defaultCluster;
  const refuse = async (message: string) => {
    await core.record('refused', req.requestedBy, { entryId: req.entryId, cluster: clusterName }, message);
    return { ok: false as const, message };
  };
  const entry = findEntry(req.entryId);
  if (!entry) return refuse(`There is no catalogue entry \`${req.entryId}\`.`);
  if (!findCluster(config, clusterName)) {
    return refuse(noSuchClusterText(clusterName, config.clusters.map((c) => c.name), (s) => `\`${s}\``));
  }
  const params = resolveParams(entry, req.params ?? {});
  if (!params.ok) return refuse(params.message);
  if (entry.stages.some((s) => s.steps.some((st) => st.kind === 'revealSecret'))) {
    const checked = await core.options.policy.check(req.requestedBy, clusterName);
    if (!checked.approver) return refuse(`\`${entry.id}\` shows a secret, so only the approvers of \`${clusterName}\` may ask for it.${checked.note ? ` ${checked.note}` : ''}`);
  }
  const id = RequestStore.newId();
  // The person's hourly count and the entry, taken together: a refusal takes neither.
  const admitted = await core.guards.admit(req.requestedBy, config.fixesPerUserPerHour, clusterName, { requestId: id, entryId: entry.id, requestedBy: req.requestedBy }, busySeconds);
  if (!admitted.ok && admitted.refused === 'limit') return refuse(limitMessage(config));
  if (!admitted.ok) {
    const { holder } = admitted;
    const other = await core.store.get(holder.requestId);
    return refuse(`\`${entry.id}\` is already being fixed on \`${clusterName}\` (asked by ${core.name(holder.requestedBy)}${other ? `, now ${openStatusWords[other.status] ?? other.status.replace(/-/g, ' ')}` : ''}). Follow that remedy's thread, or cancel it first (\`/platform cancel ${holder.requestId}\`: the person who asked or an approver of \`${clusterName}\`).`);
  }
  const giveBack = async () => {
    await core.guards.releaseEntry(clusterName, entry.id, id);
    await core.guards.unreserve(req.requestedBy, id);
  };
  let announced: Announcement;
  try {
    announced = req.announce ? await req.announce() : { ok: true, context: req.context ?? {} };
  } catch (err) {
    await giveBack();
    throw err;
  }
  if (!announced.ok) {
    await giveBack();
    return refuse(announced.message);
  }
  const stage = entry.stages[0]!;
  // The request, its first attempt (recorded before its job exists) and its audit record: one round trip.
  const attempt = newAttemptId();
  const record = {
    params: JSON.stringify(params.params),
    id,
    entryId: entry.id,
    cluster: clusterName,
    requestedBy: req.requestedBy,
    createdAt: new Date().toISOString(),
    stageId: stage.id,
    status: 'planning' as const,
    attempt,
    context: JSON.stringify(announced.context),
  };
  const request = await core.store.create(record, core.recordIn('requested', req.requestedBy, record, Object.keys(params.params).length ? JSON.stringify(params.params) : undefined));
  await core.addPlanJob(request, stage.id, attempt);
  return { ok: true, request };
}
