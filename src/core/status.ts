import { findCluster, type Config } from '../config.js';
import { toUserError } from '../errors.js';
import type { ClusterDoctor, EntryRecheck, PresentSymptom } from '../jobs/doctor-results.js';
import type { RemedyCoordinator } from '../jobs/lifecycle/coordinator.js';
import { openStatusWords, type RemedyRequest } from '../jobs/requests.js';
import { noSuchCluster } from './fix.js';
import { code, command, joined, para, link, lines, note, person, says, soft, strong, t, type Inline, type Part, type View } from './view.js';

/** The queue side's part of `status`, as the core uses it (the coordinator's public methods). */
export type StatusDesk = Pick<RemedyCoordinator, 'approvableClusters' | 'openRemedies' | 'lastDoctor'>;

/** How long `status` waits for Redis: a Slack command is acknowledged within 3 s, with or without it. */
const readTimeoutMs = 2_000;
/** Clusters whose doctor results one answer shows; the others are named, to ask for one by one. */
const clustersShown = 15;
/** Symptoms shown per cluster, each with its evidence line. */
const symptomsShown = 8;

/** `2026-11-21 13:04 UTC` */
const when = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** How a remedy's state reads; a finished remedy is never listed. */
const stateWords = openStatusWords;

/** Where a remedy's conversation is, as its surface recorded it: a Slack permalink, or a channel and thread. */
function threadOf(r: RemedyRequest): Inline {
  let where: { link?: unknown; channel?: unknown; threadTs?: unknown };
  try {
    where = JSON.parse(r.context) as typeof where;
  } catch {
    return [];
  }
  if (typeof where.link === 'string') return t` · ${link(where.link, 'thread')}`;
  if (typeof where.channel === 'string' && typeof where.threadTs === 'string') return t` · thread ${code(where.threadTs)} in ${code(where.channel)}`;
  return [];
}

/** One open remedy: the entry and cluster, its state and since when, who asked, its thread and id. */
function remedyLine(r: RemedyRequest): Inline {
  const since = r.since ?? (r.status === 'running' ? r.approvedAt : undefined) ?? r.createdAt;
  const until = r.status === 'waiting' && r.resumeAt ? `, until ${when(r.resumeAt).slice(11)}` : '';
  return t`${code(r.entryId)} on ${code(r.cluster)} · ${strong(stateWords[r.status] ?? r.status)} since ${when(since)}${until} · asked by ${person(r.requestedBy)}${threadOf(r)} · ${soft(r.id)}`;
}

const symptomLine = (s: PresentSymptom): Inline => t`• ${code(s.id)} (guide ${s.ref}) — ${s.evidence || s.title}${s.more > 0 ? t` ${soft(`(+${s.more} more)`)}` : []}`;

/**
 * An entry checked alone: by a remedy's run after its last stage, or for a pasted error's candidates.
 * Who pasted is not said: everyone reads this, and the paste may have been private (a direct message,
 * `/platform match`); the audit trail keeps who. A remedy is named by its id, as its thread shows it.
 */
function recheckLine(r: EntryRecheck): Inline {
  // Cleared only after a remedy: a pasted error's candidate that is absent may never have been there.
  const what = r.state === 'absent' ? (r.remedy ? t`cleared` : t`not seen`) : t`present — ${r.symptom?.evidence ?? ''}`;
  const why = r.remedy ? t`after remedy ${code(r.remedy)}` : t`for a pasted error`;
  return t`• ${code(r.id)} checked again ${when(r.at)} ${why}: ${what}`;
}

/** One cluster's last doctor: never run, no symptom, or the symptoms with their evidence; and the entries checked alone since. */
function doctorLines(d: ClusterDoctor): Inline[] {
  const again = d.rechecked.map(recheckLine);
  const { run } = d;
  if (!run) {
    const ask = t`${command(`/platform doctor ${d.cluster}`)} checks it.`;
    return again.length === 0 ? [t`${code(d.cluster)}: the doctor has never run here. ${ask}`] : [t`${code(d.cluster)}: the doctor has never checked every entry here. ${ask}`, ...again];
  }
  const by = t`${when(run.at)}, asked by ${person(run.by)}, ${plural(run.checked, 'entry', 'entries')} in ${seconds(run.tookMs)}`;
  const unknown = run.unknown > 0 ? `; ${plural(run.unknown, 'entry', 'entries')} could not be judged` : '';
  if (run.present.length === 0) return [t`${code(d.cluster)}: ${strong('no symptom')} present at the last doctor (${by})${unknown}.`, ...again];
  const shown = run.present.slice(0, symptomsShown).map(symptomLine);
  const more = run.present.length > symptomsShown ? [t`… and ${run.present.length - symptomsShown} more`] : [];
  return [t`${code(d.cluster)}: ${strong(plural(run.present.length, 'symptom'))} present at the last doctor (${by})${unknown}:`, ...shown, ...more, ...again];
}

/** Whose remedies a person sees, in words. */
function scopeNote(every: boolean, approves: readonly string[], why: string | undefined): Inline {
  if (every) return t`You approve on every cluster: you see every open remedy.`;
  if (approves.length > 0) return t`You see the remedies of ${joined(approves.map((c) => [code(c)]), ', ')} (you approve there) and your own.`;
  return t`You see your own remedies; approvers see every remedy of their clusters.${why ? ` ${why}` : ''}`;
}

/** What `status` shows: the remedies the person may see, and each cluster's last doctor result. */
export interface StatusModel {
  readonly remedies: readonly RemedyRequest[];
  readonly doctors: readonly ClusterDoctor[];
  /** The clusters the person approves on; `every` when that is all of them. */
  readonly approves: readonly string[];
  readonly every: boolean;
  readonly note?: string;
  /** The cluster asked about, when one was. */
  readonly cluster?: string;
}

/** `status [cluster]` as a view: open remedies first (cut with "and N more" where a surface has a limit), then the doctor's results. */
export function statusView(m: StatusModel): View {
  const of = m.cluster ? t` of ${code(m.cluster)}` : [];
  const parts: Part[] = [para(t`${strong('Open remedies')}${of} (${m.remedies.length})`)];
  parts.push(m.remedies.length > 0 ? lines(m.remedies.map(remedyLine)) : para(t`No open remedy${m.approves.length > 0 ? '' : ' of yours'}${of}.`));
  parts.push(para(t`${strong("The doctor's last results")}`));
  for (const d of m.doctors.slice(0, clustersShown)) parts.push(lines(doctorLines(d)));
  const notes: Inline[] = [scopeNote(m.every, m.approves, m.note)];
  const left = m.doctors.slice(clustersShown);
  if (left.length > 0) notes.push(t`… and ${left.length} more clusters: ${joined(left.slice(0, 20).map((d) => [code(d.cluster)]), ', ')}${left.length > 20 ? ', …' : ''}. Ask ${command('/platform status <cluster>')} for one.`);
  parts.push(note(...notes));
  const present = m.doctors.filter((d) => (d.run?.present.length ?? 0) > 0).length;
  return { summary: t`Status${of}: ${plural(m.remedies.length, 'open remedy', 'open remedies')}; symptoms present at the last doctor in ${plural(present, 'cluster')}`, parts };
}

const noAnswer = Symbol('no answer');

/** The promise's value, or `noAnswer` after `ms`: a Redis that hangs gets an answer too. */
function within<T>(ms: number, promise: Promise<T>): Promise<T | typeof noAnswer> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof noAnswer>((resolve) => (timer = setTimeout(() => resolve(noAnswer), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const redisSilent = t`Cannot show the status: Redis, which keeps the remedies and the doctor's results, did not answer. Nothing was changed; ask again once it is back.`;

/**
 * `status [cluster]`: approvers see every remedy of the clusters they approve on, everyone sees their
 * own and every cluster's last doctor result. Redis not answering is said in one sentence.
 */
export async function statusAnswer(desk: StatusDesk, config: Config, user: string, cluster?: string): Promise<View> {
  if (cluster !== undefined && !findCluster(config, cluster)) return says(noSuchCluster(cluster, config));
  const names = cluster ? [cluster] : config.clusters.map((c) => c.name);
  // Who approves where is the approval policy's to answer (its groups fail closed on their own); the reads from Redis are bounded here.
  const approves = desk.approvableClusters(user);
  let read: [RemedyRequest[], ClusterDoctor[]] | typeof noAnswer;
  try {
    read = await within(readTimeoutMs, Promise.all([desk.openRemedies(), desk.lastDoctor(names)]));
  } catch (err) {
    const e = toUserError(err);
    return says(e.code === 'redis-unavailable' || e.code === 'unreachable' ? redisSilent : t`Cannot show the status: ${e.safeMessage}`);
  } finally {
    approves.catch(() => undefined);
  }
  if (read === noAnswer) return says(redisSilent);
  const [open, doctors] = read;
  const scope = await approves;
  const every = scope.clusters.length === config.clusters.length;
  const remedies = open.filter((r) => (cluster === undefined || r.cluster === cluster) && (r.requestedBy === user || scope.clusters.includes(r.cluster)));
  return statusView({ remedies, doctors, approves: scope.clusters, every, ...(scope.note ? { note: scope.note } : {}), ...(cluster ? { cluster } : {}) });
}
