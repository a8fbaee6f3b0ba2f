import { startBuild } from './broken-states/build-started.js';
import type { FaultEntry, FaultPlacement, PodFault } from './fault-model.js';

/** The faults that live in pods; a pod's annotation names them by `text`. */
export const podFaults = {
  ssoConfigNotLoaded: {
    entry: 'sso-login',
    text: 'configuration saved but not loaded',
    logLines: [
      'E authVerification failed: no token provided',
      'E sso provider discovery failed: Get "devtron.example.com/orchestrator/api/dex/.well-known/openid-configuration": unsupported protocol scheme ""',
    ],
  },
  watcherNotRelaying: {
    entry: 'build-logs',
    text: 'build events not relayed',
    logLines: ['E pubsub: no message received on CI-RUNNER.CI-WORKFLOW-STATUS-UPDATE for 300s', 'E build log stream closed: watcher not relaying'],
  },
  brokerNotDelivering: {
    entry: 'build-logs',
    text: 'message broker not delivering build events',
    logLines: ['[ERR] STREAM: Channel "CI-RUNNER.CI-WORKFLOW-STATUS-UPDATE" - unable to deliver message: slow consumer, messages dropped'],
  },
  databaseImageUnavailable: {
    entry: 'database-image-pull',
    text: 'image source unavailable',
    logLines: ['E Failed to pull image "docker.io/bitnami/postgresql:11.3.0-debian-9-r28": manifest unknown', 'W Back-off pulling image'],
    waitingReason: 'ImagePullBackOff',
  },
  databaseUnreachable: {
    entry: 'database-image-pull',
    text: 'database unreachable',
    logLines: ['E dial tcp: lookup postgresql-postgresql.devtroncd: connection refused', 'F could not connect to the database, exiting'],
    waitingReason: 'CrashLoopBackOff',
  },
  latestCommitNotFetched: {
    entry: 'git-sensor-stuck',
    text: 'latest commit not fetched',
    logLines: ['E error in fetching latest commit: context deadline exceeded', 'W auto build not triggered: no new commit since last poll'],
  },
  gitExit128: {
    entry: 'commits-exit-128',
    text: 'git fetch exits with status 128',
    logLines: ['E error in fetching repository: git fetch origin --tags --force: exit status 128', 'W commits of material not refreshed'],
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
