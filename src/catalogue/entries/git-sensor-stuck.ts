import type { CatalogueEntry } from '../model.js';

/** Guide 7.10: the git-sensor stops fetching commits; deleting its pod restarts it. */
export const gitSensorStuck: CatalogueEntry = {
  id: 'git-sensor-stuck',
  ref: '7.10',
  title: 'Latest commit not fetched; auto build not triggered',
  symptom: 'The latest commit is not fetched and the automatic build is not triggered.',
  cause: 'The git-sensor is in a bad state.',
  signatures: {
    errors: [],
    phrases: [
      'latest commit not fetched',
      'auto build not triggered',
      'new commits are not showing',
      'automatic build does not start',
      'ci not triggered on push',
      'new commits are not picked up',
      'commits not picked up',
      'not picking up new commits',
      'no automatic builds',
      'stuck on an old commit',
    ],
    context: [
      'git-sensor',
      'git-sensor-0',
      'polling',
      'commit',
    ],
    excludes: [
      "we couldn't deliver this payload",
      'failed to connect to host',
    ],
  },
  stages: [
    {
      id: 'restart-git-sensor',
      title: 'Restart the git-sensor',
      steps: [
        {
          kind: 'deletePods',
          does: 'Delete pod git-sensor-0 so that its stateful set starts it again',
          risk: 'restart',
          targets: [{ by: 'name', namespace: 'platformNamespace', pod: 'gitSensorPod' }],
          verifyWithinSeconds: 300,
        },
        {
          kind: 'manual',
          does: 'Check that commits arrive',
          risk: 'read-only',
          items: ['Push a commit (or open the pipeline) and check that the latest commit appears and the automatic build starts.'],
        },
      ],
    },
  ],
};
