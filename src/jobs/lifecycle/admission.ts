import { findEntry } from '../../catalogue/index.js';
import { resolveParams } from '../../catalogue/params.js';
import { findCluster, noSuchClusterText, type Config } from '../../config.js';
import { RequestStore, type RemedyRequest } from '../requests.js';
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
  if (!(await core.guards.reserve(req.requestedBy, config.fixesPerUserPerHour, id))) return refuse(limitMessage(config));
  const who = { id, cluster: clusterName, entryId: entry.id, requestedBy: req.requestedBy };
  const holder = await core.holdEntry(who, busySeconds);
  const giveBack = async () => {
    await core.guards.releaseEntry(clusterName, entry.id, id);
    await core.guards.unreserve(req.requestedBy, id);
  };
  if (holder) {
    await core.guards.unreserve(req.requestedBy, id);
    const other = await core.store.get(holder.requestId);
    return refuse(`\`${entry.id}\` is already being fixed on \`${clusterName}\` (asked by ${core.name(holder.requestedBy)}${other ? `, now ${other.status}` : ''}). Follow that remedy's thread, or cancel it first.`);
  }
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
  const request = await core.store.create({
    params: JSON.stringify(params.params),
    id,
    entryId: entry.id,
    cluster: clusterName,
    requestedBy: req.requestedBy,
    createdAt: new Date().toISOString(),
    stageId: stage.id,
    status: 'planning',
    context: JSON.stringify(announced.context),
  });
  await core.record('requested', req.requestedBy, request, Object.keys(params.params).length ? JSON.stringify(params.params) : undefined);
  const attempt = await core.enqueuePlan(request, stage.id);
  return { ok: true, request: { ...request, attempt } };
}
