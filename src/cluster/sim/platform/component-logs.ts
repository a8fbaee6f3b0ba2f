import type { PlatformNames } from '../../../platform-names.js';
import type { LogLine } from '../apiserver/pod-runtime.js';
import { matchesLabels, parseLabelSelector } from '../apiserver/selectors.js';
import type { KubeObject } from '../apiserver/types.js';

/*
 * What the platform's components write to their logs, in their own formats, so that a reader of a pod's
 * log tail sees what it would see on a real cluster.
 * - The platform's Go services (devtron, kubewatch, git-sensor) log with zap's production config
 *   (devtron-labs/common-lib utils/LogProvider.go, git-sensor internals/logger/logger.go:
 *   zap.NewProductionConfig): one JSON object a line, keys level, ts (seconds since the epoch), caller,
 *   msg, then the sugared logger's key/value pairs; error lines carry a stacktrace.
 * - Kubernetes components (metrics-server) log with klog: `E1122 19:00:00.123456       1 file.go:149] "msg" key="value"`.
 */

/**
 * One zap production-config JSON line. Fields are written in order and may repeat a key, as zap's
 * encoder does (git-sensor's `Errorw("error in git cli operation", "msg", output, …)` writes "msg" twice).
 */
export function zapLine(level: 'info' | 'warn' | 'error', at: Date, caller: string, msg: string, fields: ReadonlyArray<[string, unknown]> = []): LogLine {
  const pairs: Array<[string, unknown]> = [['level', level], ['ts', Number((at.getTime() / 1000).toFixed(6))], ['caller', caller], ['msg', msg], ...fields];
  if (level === 'error') pairs.push(['stacktrace', `main.main\n\t/go/src/github.com/devtron-labs/${caller}`]);
  return { at, text: `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}` };
}

/** One klog text line (k8s.io/klog/v2 header: severity, MMDD hh:mm:ss.uuuuuu, thread id, file:line). */
export function klogLine(severity: 'I' | 'W' | 'E', at: Date, source: string, msg: string, kv: Record<string, string> = {}): LogLine {
  const iso = at.toISOString();
  const header = `${severity}${iso.slice(5, 7)}${iso.slice(8, 10)} ${iso.slice(11, 19)}.${iso.slice(20, 23)}000       1 ${source}]`;
  const pairs = Object.entries(kv).map(([k, v]) => ` ${k}=${JSON.stringify(v)}`).join('');
  return { at, text: `${header} ${JSON.stringify(msg)}${pairs}` };
}

const minute = 60_000;
/** git-sensor's poll: `cron.AddFunc("@every 2m", watcher.Watch)` (POLL_DURATION default 2, pkg/git/Watcher.go). */
export const gitSensorPollMs = 2 * minute;
/** How far back the simulated logs go: enough for any bounded tail a reader asks for. */
const logWindowMs = 90 * minute;

function startOf(pod: KubeObject): number {
  return Date.parse((pod['status'] as { startTime?: string } | undefined)?.startTime ?? '') || Date.now();
}

/** How one poll of the git-sensor goes. */
export interface PollOutcome {
  /** Lines the poll writes between its start and its end (a failed fetch's errors). */
  failing?: (at: Date) => LogLine[];
  /** From this time on, each poll starts and never ends: a fetch hangs and holds the repository's lock. */
  stuckSince?: Date;
}

/**
 * The git-sensor's poll cycles in the log window: `Watch()` logs "starting git watch thread", runs the
 * fetches of every material (pollAndUpdateGitMaterial, whose failures log "error in git cli operation"
 * and "error in fetching material details "), then "stop git watch thread" (pkg/git/Watcher.go).
 */
export function pollCycles(pod: KubeObject, now: Date, outcome: PollOutcome = {}): LogLine[] {
  const started = startOf(pod);
  const lines: LogLine[] = [];
  const first = Math.max(started + gitSensorPollMs, started + Math.ceil((now.getTime() - logWindowMs - started) / gitSensorPollMs) * gitSensorPollMs);
  for (let t = first; t <= now.getTime(); t += gitSensorPollMs) {
    lines.push(zapLine('info', new Date(t), 'git/Watcher.go:114', 'starting git watch thread'));
    if (outcome.stuckSince !== undefined && t >= outcome.stuckSince.getTime()) continue;
    if (outcome.failing) lines.push(...outcome.failing(new Date(t + 1500)));
    if (t + 3000 <= now.getTime()) lines.push(zapLine('info', new Date(t + 3000), 'git/Watcher.go:123', 'stop git watch thread'));
  }
  return lines;
}

/** What the world makes the platform's pods write, besides their faults. */
export interface Routine {
  /** How the git-sensor's polls go. */
  polls?: PollOutcome;
  /**
   * Someone updated a cluster and the dashboard refused the main pod's stale data source (entry 8): the
   * refusal's text is the dashboard's (grafana pkg/api/datasources.go, ErrDataSourceUpdatingOldVersion);
   * the wording of the main pod's own line around it is ours, not checked against the orchestrator's source.
   */
  dataSourceRefused?: boolean;
  /** What the platform's PostgreSQL has logged (a refused DROP DATABASE, entry 16): its pod's standard error. */
  databaseLog?: readonly { at: Date; text: string }[];
}

/** What a pod of the platform writes routinely (the git-sensor's polls; the main pod's failed cluster update); empty for other pods. */
export function routineLog(pod: KubeObject, now: Date, names: PlatformNames, routine: Routine = {}): LogLine[] {
  const labels = pod.metadata.labels;
  if (matchesLabels(parseLabelSelector(names.gitSensorLabel), labels)) return pollCycles(pod, now, routine.polls);
  // A restarted database pod's log starts again: it shows only what the server wrote since.
  if (pod.metadata.name === names.databasePod) return (routine.databaseLog ?? []).filter((l) => l.at.getTime() >= startOf(pod) && l.at <= now);
  if (routine.dataSourceRefused && matchesLabels(parseLabelSelector(names.mainPodLabel), labels)) {
    const at = new Date(Math.max(startOf(pod) + 1000, now.getTime() - 3 * minute));
    const body = '{"message":"Failed to update datasource. Reload new version and try again"}';
    return [zapLine('error', at, 'grafana/GrafanaClient.go:412', 'error in updating data source of the cluster', [['status', '500 Internal Server Error'], ['response', body]])];
  }
  return [];
}
