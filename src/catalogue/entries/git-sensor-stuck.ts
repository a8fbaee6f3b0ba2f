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
      'select material not loading',
      'select material is not clickable',
      // The platform's FAQ title: "Unable to fetch the latest commit and not able to trigger auto build".
      'unable to fetch the latest commit',
      'not able to trigger auto build',
    ],
    context: [
      'git-sensor',
      'git-sensor-0',
      'polling',
      'commit',
      'gitsensor',
      'select material',
      'poll',
    ],
    // Downstream and in other words: the git-sensor lists the commits behind "Select Material" and polls
    // for automatic builds, so when it is stuck that list does not load and auto builds stop; when it has
    // run out of processes git reports it cannot fork. Sources: devtron-labs/devtron#6530 ("Select
    // Material not clickable & automatic builds not working", "cannot fork() for ssh", fixed by deleting
    // the gitsensor pod), #1272 (automatic CI and git-sensor polling), docs/FAQs/devtron-troubleshoot.md
    // §10 ("Unable to fetch the latest commit and not able to trigger auto build").
    downstream: [
      'cannot fork()',
      'unable to fork',
    ],
    excludes: [
      "we couldn't deliver this payload",
      'failed to connect to host',
      // git refusing a repository whose owner is not the process's (git 2.35.2's safe.directory check): the
      // sensor is not stuck and restarting it changes nothing (tune: devtron-labs/devtron#3881).
      'dubious ownership',
    ],
    // The guide's remedy as people say they did it: with words saying the error persists, it is not proposed again.
    applied: ['restarted git-sensor', 'restarted the git-sensor', 'deleted git-sensor-0', 'deleted the git-sensor', 'deleting git-sensor-0', 'git-sensor-0 deleted', 'bounced git-sensor'],
  },
  detector: {
    kind: 'stalledCycles',
    namespace: 'platformNamespace',
    source: { pod: 'gitSensorPod' },
    // git-sensor's poll (pkg/git/Watcher.go Watch): each starts and ends with these lines; a hung fetch
    // holds the repository's lock, so later polls start and never end.
    starts: 'starting git watch thread',
    ends: 'stop git watch thread',
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
