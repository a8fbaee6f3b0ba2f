import type { CatalogueEntry } from '../model.js';

/** Guide 7.24: the git-sensor's claim is full. */
export const gitSensorVolumeFull: CatalogueEntry = {
  id: 'git-sensor-volume-full',
  ref: '7.24',
  title: 'git-sensor volume full',
  symptom: "The git-sensor's volume is full.",
  cause: 'Its claim is too small.',
  signatures: {
    errors: [],
    phrases: [
      'git-sensor disk full',
      'git sensor volume full',
      'git-volume full',
      'git-sensor volume is full',
      'git-sensor pvc full',
    ],
    context: [
      'git-sensor',
      'git-volume-git-sensor-0',
      'git-sensor-0',
      '/git-base',
      'gitsensor',
    ],
    // A full disk says "no space left on device" in every product; it is the git-sensor's claim only when
    // the paste is the git-sensor's (or otherwise the platform's). Downstream of the full claim, git fails
    // to write its objects ("index-pack failed", "unable to write file"). Sources: devtron-labs/devtron#4714
    // (the FAQ "Git-sensor PVC- disk full"), docs/FAQs/devtron-troubleshoot.md §27, gitpod-io/gitpod#3372
    // and #1069 (the same message from another product's full disk).
    downstream: [
      'no space left on device',
      'fatal: index-pack failed',
    ],
    // A build pod (in the build namespace) that runs out of space fills its node's disk, not the claim.
    excludes: ['devtron-ci'],
  },
  params: [{ name: 'size', description: 'the new size of the claim', default: '20Gi', pattern: '^[1-9][0-9]{0,4}(Gi|Ti)$', example: '20Gi' }],
  detector: {
    kind: 'logLines',
    namespace: 'platformNamespace',
    sources: [{ pod: 'gitSensorPod' }],
    // git's own words when its fetch cannot write to the git-sensor's volume, in git-sensor's fetch errors.
    lines: ['No space left on device'],
  },
  stages: [
    {
      id: 'grow-claim',
      title: "Grow the git-sensor's claim",
      steps: [
        {
          kind: 'allowVolumeExpansion',
          does: "Make the claim's storage class allow volume expansion (if it does not already)",
          risk: 'destructive',
          claim: 'gitSensorClaim',
        },
        { kind: 'growClaim', does: "Raise the claim's requested storage", risk: 'destructive', claim: 'gitSensorClaim', sizeParam: 'size' },
      ],
      then: {
        question: 'Is the git-sensor working again?',
        choices: [
          { id: 'yes', label: 'Working', then: { end: 'resolved', message: 'The git-sensor has room again.' } },
          { id: 'no', label: 'Still failing', then: { stage: 'restart-git-sensor' } },
        ],
      },
    },
    {
      id: 'restart-git-sensor',
      title: 'Restart the git-sensor',
      steps: [
        {
          kind: 'deletePods',
          does: 'Delete pod git-sensor-0',
          risk: 'restart',
          targets: [{ by: 'name', namespace: 'platformNamespace', pod: 'gitSensorPod' }],
          verifyWithinSeconds: 300,
        },
      ],
    },
  ],
};
