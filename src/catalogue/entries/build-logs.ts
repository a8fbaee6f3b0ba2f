import type { CatalogueEntry, Step } from '../model.js';

const restartMainAndWatcher: Step = {
  kind: 'deletePods',
  does: 'Delete the main platform pods and the build-event watcher pods so that they start again',
  risk: 'restart',
  targets: [
    { by: 'label', namespace: 'platformNamespace', label: 'mainPodLabel' },
    { by: 'label', namespace: 'platformNamespace', label: 'eventWatcherLabel' },
  ],
  verifyWithinSeconds: 300,
};

const settle: Step = {
  kind: 'wait',
  does: 'Wait 5 minutes for the restarted pods to reconnect',
  risk: 'read-only',
  minutes: 5,
  reason: 'the guide waits 5 minutes after restarting the watcher and main pods (section 8)',
};

const triggerBuild: Step = {
  kind: 'manual',
  does: 'Trigger a new build',
  risk: 'read-only',
  items: ['Trigger a new build of the affected pipeline and open its logs.'],
};

/** The guide's question after each stage, and its good answer. */
const question = 'Are the build logs visible now?';
const logsVisible = { id: 'fixed', label: 'Logs visible', then: { end: 'resolved', message: 'Build logs are visible again.' } } as const;

/** Guide 7.4: build logs not visible and builds cannot be aborted; a two-stage restart. */
export const buildLogs: CatalogueEntry = {
  id: 'build-logs',
  ref: '7.4',
  title: 'Build logs not visible and build cannot be aborted',
  symptom: 'Build logs are not visible and the build cannot be aborted.',
  cause: 'The build-event watcher is not relaying build events and logs to the main platform pod.',
  signatures: {
    errors: [],
    phrases: [
      'build logs not visible',
      'build logs are not streaming',
      'cannot abort build',
      'build cannot be aborted',
      'no logs for build',
      'logs not showing for ci',
      'build logs are not coming',
      'logs tab is empty',
      'abort does nothing',
      'abort button does nothing',
      'build status stuck in running',
      'build stuck in starting even though the pod completed',
      'ci workflow status not updated',
      'build pod finished but status still running',
      // The platform's FAQ title in its users' words ("Logs are not visible on UI while running the build and
      // not even able to abort the same").
      'logs are not visible while running the build',
      'not able to abort the build',
    ],
    context: [
      'kubewatch',
      'devtron-nats',
      'devtron-stan',
      'ci workflow',
      'workflow status',
      'abort',
      'logs tab',
      'devtron-ci',
      'ci-runner',
    ],
    // Downstream: the watcher and the brokers carry build events as well as logs, so while they are not
    // relaying the build's status stays at Starting or Running after its pod has finished. Sources: devtron-labs/devtron#2728 ("CI
    // workflow status stuck in Starting or Running, by any reason nats down"), #4926 ("the build would
    // start … remains in starting state … running status and completions status are not reflected"),
    // #1936 (kubewatch and ci-runner without NATS connectivity), docs/FAQs/devtron-troubleshoot.md §4.
    downstream: [
      'stuck in starting',
      'stuck in running state',
      'status not updating',
      // What the watcher and the platform's pubsub client log when the broker does not carry their events:
      // kubewatch's failed publish of a workflow update (pkg/informer/K8sInformer.go, pkg/controller/
      // informer.go), common-lib's pubsub client (pubsub-lib/NatsClient.go, PubSubClientService.go), and
      // the NATS client's answer when no server takes a JetStream request (nats.go ErrNoResponders).
      'Nats Connection got disconnected',
      'Nats Client Connection closed',
      'Error while publishing Request',
      'error while publishing message',
      'nats: no responders available for request',
      // The NATS clients' own errors: any NATS user's application logs them (nats-io/stan.js and stan.go
      // threads of people new to NATS Streaming), so they stand for the platform's broker only beside the
      // platform's name or its watcher's, never alone; and "nats" is no context for them.
      'nats: timeout',
      'nats: connection closed',
      'nats: no servers available for connection',
      'stan: connect request timeout',
    ],
  },
  detector: {
    kind: 'logLines',
    namespace: 'platformNamespace',
    sources: [{ label: 'mainPodLabel' }, { label: 'eventWatcherLabel' }],
    // What the platform's pubsub client logs when it loses the broker (devtron-labs/common-lib,
    // pubsub-lib/NatsClient.go: DisconnectErrHandler and ClosedHandler).
    lines: ['Nats Connection got disconnected', 'Nats Client Connection closed'],
    whileRunning: { namespace: 'ciNamespace', what: 'build pod' },
  },
  stages: [
    {
      id: 'restart-watcher',
      title: 'Restart the main platform pods and the build-event watcher',
      steps: [
        {
          kind: 'listPods',
          does: 'Check that a new pod appears in the CI namespace when a build starts',
          risk: 'read-only',
          namespace: 'ciNamespace',
          newest: 5,
          lookFor:
            'Approve only if a new build pod appeared here when the build started; if none did, the watcher is not the cause and this remedy does not apply.',
        },
        restartMainAndWatcher,
        settle,
        triggerBuild,
      ],
      then: {
        question,
        choices: [
          logsVisible,
          { id: 'still-failing', label: 'Still failing', then: { stage: 'restart-brokers' } },
        ],
      },
    },
    {
      id: 'restart-brokers',
      title: 'Restart the message brokers, then the main platform pods and the watcher again',
      steps: [
        {
          kind: 'deletePods',
          does: 'Delete both message broker pods so that their stateful sets start them again',
          risk: 'restart',
          targets: [{ by: 'name', namespace: 'platformNamespace', pod: 'brokerPods' }],
          verifyWithinSeconds: 300,
        },
        restartMainAndWatcher,
        settle,
        triggerBuild,
      ],
      then: {
        question,
        choices: [
          logsVisible,
          {
            id: 'still-failing',
            label: 'Still failing',
            then: {
              end: 'not-resolved',
              message:
                'The guide has no further remedy for this symptom. Collect the logs of the watcher and broker pods and raise it with the platform team.',
            },
          },
        ],
      },
    },
  ],
};
