import type { LogLine } from '../apiserver/pod-runtime.js';
import type { KubeObject } from '../apiserver/types.js';
import { startBuild } from './broken-states/build-started.js';
import { gitSensorPollMs, pollCycles, zapLine } from './component-logs.js';
import type { PollOutcome } from './component-logs.js';
import { gitSensorVolumeFull } from './broken-states/volume.js';
import type { FaultEntry, FaultPlacement, PodFault, SimView } from './fault-model.js';

const minute = 60_000;
const ago = (now: Date, ms: number) => new Date(now.getTime() - ms);
const startOf = (pod: KubeObject) => Date.parse((pod['status'] as { startTime?: string } | undefined)?.startTime ?? '') || Date.now();
/** A trouble that began a while before anyone looked: `ms` before now, but not before the pod started. */
const since = (pod: KubeObject, now: Date, ms: number) => new Date(Math.max(startOf(pod) + 1000, now.getTime() - ms));

/** The repository whose fetches fail in entries 23 and 24 (a material of the platform's sample application). */
export const failingRepository = 'https://github.com/acme-corp/payments-api.git';

/**
 * A failed `git -C <dir> fetch origin --tags --force` as git-sensor logs it (pkg/git/GitBaseManager.go
 * runCommand: "error in git cli operation" with git's combined output and the exit error; then
 * pkg/git/Watcher.go: "error in fetching material details " with the repository, and RunOnWorker's
 * "error in polling git material").
 */
export function failedFetch(gitOutput: string) {
  return (at: Date): LogLine[] => [
    zapLine('error', at, 'git/GitBaseManager.go:202', 'error in git cli operation', [['msg', gitOutput], ['err', 'exit status 128']]),
    zapLine('error', new Date(at.getTime() + 5), 'git/Watcher.go:201', 'error in fetching material details ', [['repo', failingRepository], ['err', 'exit status 128']]),
    zapLine('error', new Date(at.getTime() + 9), 'git/Watcher.go:146', 'error in polling git material', [['material', { Id: 3, Url: failingRepository }], ['err', 'exit status 128']]),
  ];
}

/**
 * The broker connection as devtron-labs/common-lib pubsub-lib/NatsClient.go logs losing it (DisconnectErrHandler
 * "Nats Connection got disconnected!", ClosedHandler "Nats Client Connection closed!" once its 100
 * reconnects 10 s apart are spent), then each publish failing (PubSubClientService.go "error while
 * publishing message") with nats.go's ErrConnectionClosed "nats: connection closed".
 */
function brokerConnectionLost(pod: KubeObject, now: Date): LogLine[] {
  const lost = since(pod, now, 25 * minute);
  const lines: LogLine[] = [
    zapLine('error', lost, 'pubsub-lib/NatsClient.go:132', 'Nats Connection got disconnected!', [['Reason', 'read tcp 10.244.1.17:43122->10.96.112.40:4222: i/o timeout']]),
    zapLine('error', new Date(lost.getTime() + 17 * minute), 'pubsub-lib/NatsClient.go:138', 'Nats Client Connection closed!', [['Reason', 'nats: no servers available for connection']]),
  ];
  for (let t = lost.getTime() + 18 * minute; t <= now.getTime(); t += 2 * minute) {
    lines.push(zapLine('error', new Date(t), 'pubsub-lib/PubSubClientService.go:123', 'error while publishing message', [['stream', 'KUBEWATCH'], ['topic', 'WORKFLOW_STATUS_UPDATE'], ['error', 'nats: connection closed']]));
  }
  return lines.filter((l) => typeof l === 'string' || l.at <= now);
}

/** The faults that live in pods; a pod's annotation names them by `text` (the simulator's bookkeeping only). */
export const podFaults = {
  ssoConfigNotLoaded: {
    entry: 'sso-login',
    text: 'configuration saved but not loaded',
    log: (_pod, now) => [
      zapLine('error', ago(now, 2 * minute), 'middleware/AuthMiddleware.go:61', 'authVerification failed', [['err', 'no token provided']]),
      zapLine('error', ago(now, minute), 'sso/SSOLoginService.go:142', 'sso provider discovery failed', [['err', 'Get "devtron.example.com/orchestrator/api/dex/.well-known/openid-configuration": unsupported protocol scheme ""']]),
    ],
  },
  watcherNotRelaying: {
    entry: 'build-logs',
    text: 'build events not relayed',
    log: brokerConnectionLost,
  },
  brokerNotDelivering: {
    entry: 'build-logs',
    text: 'message broker not delivering build events',
    // nats-server's own log format and its slow consumer warning (server/client.go, server/log.go).
    log: (pod, now) => {
      const at = since(pod, now, 26 * minute);
      const stamp = at.toISOString().replace('T', ' ').replace(/-/g, '/').replace(/\.(\d{3})Z$/, '.$1000');
      return [{ at, text: `[7] ${stamp} [INF] 10.244.1.17:43122 - cid:9 - "v1.16.0:go" - Slow Consumer Detected: WriteDeadline of 10s exceeded with 1 chunks of 65536 total bytes.` }];
    },
  },
  databaseImageUnavailable: {
    entry: 'database-image-pull',
    text: 'image source unavailable',
    // The image's tag is gone from its registry: containerd's not-found resolution error, as the kubelet reports it.
    log: () => [],
    trouble: (pod) => {
      const image = (pod['spec'] as { containers: { image?: string }[] }).containers[0]?.image ?? '';
      return { kind: 'image-pull', pullError: `rpc error: code = NotFound desc = failed to pull and unpack image "${image}": failed to resolve reference "${image}": ${image}: not found` };
    },
  },
  databaseUnreachable: {
    entry: 'database-image-pull',
    text: 'database unreachable',
    // The database service has no ready endpoint: the main pod cannot connect at start and exits (its sql connection.go).
    log: (pod) => {
      const at = new Date(startOf(pod) + 4000);
      return [
        zapLine('error', at, 'sql/connection.go:58', 'error in connecting db ', [['db', { Addr: 'postgresql-postgresql.devtroncd:5432', User: 'postgres', Database: 'orchestrator' }], ['err', 'dial tcp 10.96.23.9:5432: connect: connection refused']]),
        { at: new Date(at.getTime() + 2), text: 'panic: dial tcp 10.96.23.9:5432: connect: connection refused' },
      ];
    },
    trouble: () => ({ kind: 'crash-loop', exitCode: 2 }),
  },
  latestCommitNotFetched: {
    entry: 'git-sensor-stuck',
    text: 'latest commit not fetched',
    replacesRoutine: true,
    // A fetch hung and holds the repository's lock: each poll since starts and never ends.
    log: (pod, now) => pollCycles(pod, now, { stuckSince: since(pod, now, 20 * gitSensorPollMs) }),
  },
  gitExit128: {
    entry: 'commits-exit-128',
    text: 'git fetch exits with status 128',
    replacesRoutine: true,
    log: (pod, now) => pollCycles(pod, now, { failing: failedFetch(`remote: Repository not found.\nfatal: repository '${failingRepository}/' not found\n`) }),
  },
} satisfies Record<string, PodFault>;

/** The entries whose broken state is faults in pods (and how those faults spread to replacement pods). */
export const podFaultEntries: readonly FaultEntry[] = [
  {
    entryId: 'sso-login',
    guideEntry: 3,
    place: (n) => [{ pods: { label: n.mainPodLabel }, fault: podFaults.ssoConfigNotLoaded }],
  },
  {
    entryId: 'build-logs',
    guideEntry: 4,
    depths: ['watcher', 'broker'],
    place: (n, options) => {
      const depth = options['depth'] ?? 'watcher';
      if (depth !== 'watcher' && depth !== 'broker') throw new Error(`build-logs depth must be "watcher" or "broker", not ${String(depth)}`);
      const relay: FaultPlacement[] = [
        { pods: { label: n.mainPodLabel }, fault: podFaults.watcherNotRelaying },
        { pods: { label: n.eventWatcherLabel }, fault: podFaults.watcherNotRelaying },
      ];
      if (depth === 'watcher') return relay;
      return [...relay, ...n.brokerPods.map((name) => ({ pods: { name }, fault: podFaults.brokerNotDelivering }))];
    },
    breakState: (view) => startBuild(view),
    // The guide's "still failing" case: restarting the relaying pods does not help while a broker is stuck.
    inheritance: (n) => [
      { whileAnyPodHas: podFaults.brokerNotDelivering, newPods: [{ label: n.mainPodLabel }, { label: n.eventWatcherLabel }], fault: podFaults.watcherNotRelaying },
    ],
  },
  {
    entryId: 'git-sensor-stuck',
    guideEntry: 10,
    place: (n) => [{ pods: { name: n.gitSensorPod }, fault: podFaults.latestCommitNotFetched }],
  },
  {
    entryId: 'commits-exit-128',
    guideEntry: 23,
    place: (n) => [{ pods: { name: n.gitSensorPod }, fault: podFaults.gitExit128 }],
  },
  {
    entryId: 'database-image-pull',
    guideEntry: 9,
    place: (n) => [
      { pods: { name: n.databasePod }, fault: podFaults.databaseImageUnavailable },
      { pods: { label: n.mainPodLabel }, fault: podFaults.databaseUnreachable },
    ],
    // The old images stay unpullable: a recreated database pod fails again until the stateful set names
    // the replacement images; the main pod keeps crashing while the database pod does.
    inheritance: (n) => [
      { newPods: [{ name: n.databasePod }], fault: podFaults.databaseImageUnavailable, whenImage: (image) => image.startsWith('docker.io/bitnami/') },
      { newPods: [{ label: n.mainPodLabel }], fault: podFaults.databaseUnreachable, whileAnyPodHas: podFaults.databaseImageUnavailable },
    ],
  },
];

/**
 * How the git-sensor's polls go given the cluster's state: while its claim is full (entry 24), every
 * fetch fails for want of space, and succeeds again as soon as the claim has grown (an online expansion
 * needs no restart).
 */
export function pollOutcome(view: SimView, broken: ReadonlyMap<string, unknown>): PollOutcome {
  const full = broken.has(gitSensorVolumeFull.entryId) && gitSensorVolumeFull.present?.(view, broken.get(gitSensorVolumeFull.entryId)) === true;
  return full ? { failing: failedFetch('error: unable to create temporary file: No space left on device\nfatal: index-pack failed\n') } : {};
}
