import type { CatalogueEntry } from '../model.js';

/** Guide 7.23 and 5.6: commits are not visible; git exits with status 128. */
export const commitsExit128: CatalogueEntry = {
  id: 'commits-exit-128',
  ref: '7.23',
  alsoRefs: ['5.6'],
  title: "Commits not visible, 'exit status 128'",
  symptom: "Commits are not visible and the git-sensor reports 'exit status 128'.",
  cause: 'The git-sensor is in a bad state, or the Git account token is invalid.',
  signatures: {
    errors: [
      'exit status 128',
    ],
    phrases: [
      'commits not visible',
      'commits not showing',
      'no commits shown in pipeline',
    ],
    context: [
      'git-sensor',
      'git fetch',
      'authentication failed',
      'repository not found',
      'fatal:',
      'gitsensor',
      'could not read username',
      'could not read from remote repository',
      'select material',
      'git account',
      // git-sensor's own failure logs around git's exit (pkg/git: Watcher.go, RepositoryManager.go).
      'error in fetching material details',
      'error in polling git material',
      'error in fetching repo',
    ],
    // Any git tool exits 128 (a CI step, a desktop client, another controller): the entry's is the
    // git-sensor's, shown by the commits or material it could not list or by the sensor itself (its name,
    // its source files in a log line, the Git account it used). Without one of these the exit code alone is
    // not this entry (tune: OVH CDS, github-events and Argo CD threads of the sixth round).
    requires: ['git-sensor', 'gitsensor', 'git account', 'material', 'commit', 'gitbasemanager', 'repositorymanager', 'repomanages', 'watcher.go'],
    excludes: [
      // The GitOps settings' check of a dry-run repository ("Devtron was unable to perform the following actions",
      // "unable to validate project"): the GitOps account or organisation, not a material's commits (tune: devtron
      // GitOps configuration on Minikube).
      'unable to perform the following actions',
      'unable to validate project',
      // The app details page's card of the deployed commit is the deployment's, not git-sensor's list (tune: devtron
      // "Deployed commit card not showing").
      'deployed commit card',
      'could not resolve host',
      'could not resolve hostname',
      'temporary failure in name resolution',
      'no such host',
      'no space left on device',
      'git-sync',
      'reference is not a tree',
      'not our ref',
      'are too open',
      'unprotected private key file',
      // The same two causes as people tell them (the sources below): a rewritten commit, a key file's mode.
      'force-with-lease',
      'push --force',
      'force push',
      'force-push',
      'ssh key permission',
      // git 2.35.2's ownership check on a clone another user made (safe.directory): a new token or a re-save
      // fetches nothing (devtron-labs/devtron#3881, fixed in git-sensor's code).
      'dubious ownership',
      // The GitOps controller's repository server failing its own fetch (Argo CD's "Failed to load target
      // state", "failed to generate manifest", "Unable to load data: Failed to fetch git repo"): the
      // deployment's repository, not the commit list the git-sensor reads (tune: devtron#252,
      // argo-cd threads of the sixth round).
      'failed to load target state',
      'failed to generate manifest',
      'failed to initialize repository resources',
      'unable to load data: failed to fetch git repo',
    ],
    // Git exits with 128 for every fatal error. Not this remedy: another product's git (the git-sync
    // sidecar), a commit that no longer exists after a force-push ("reference is not a tree", "not our
    // ref": re-saving and a new token fetch nothing), and an SSH key file whose mode is too open (ssh
    // refuses it whatever the token). Sources: kubernetes/git-sync#182 (its own "exit status 128"),
    // devtron-labs/devtron#2890 (exit status 128 after an amended, force-pushed commit), #3419 (the key
    // file's mode turned 660 after a git-sensor restart), OpenSSH's "Permissions 0644 for … are too open"
    // ("UNPROTECTED PRIVATE KEY FILE!"), docs/FAQs and the guide's 7.23 (token, re-save, git-sensor).
  },
  detector: {
    kind: 'logLines',
    namespace: 'platformNamespace',
    sources: [{ pod: 'gitSensorPod' }],
    // git-sensor's failed fetch (pkg/git/GitBaseManager.go "error in git cli operation", Watcher.go
    // "error in fetching material details " with the repository) carries git's exit error; a full
    // volume fails the same way and is entry 24's.
    lines: ['exit status 128'],
    unlessAny: ['no space left on device'],
  },
  stages: [
    {
      id: 'save-again',
      title: 'Save the git repository again',
      steps: [
        {
          kind: 'manual',
          does: 'Save the repository and read the git-sensor logs',
          risk: 'read-only',
          items: ["Save the application's git repository again and wait a minute.", 'Read the logs of the git-sensor pod (git-sensor-0) for the failing repository.'],
        },
      ],
      then: {
        question: 'Are the commits visible now?',
        choices: [
          { id: 'visible', label: 'Commits visible', then: { end: 'resolved', message: 'Commits are visible again.' } },
          { id: 'unchanged', label: 'Unchanged', then: { stage: 'restart-git-sensor' } },
        ],
      },
    },
    {
      id: 'restart-git-sensor',
      title: 'Restart the git-sensor, then check the token',
      steps: [
        {
          kind: 'deletePods',
          does: 'Delete the git-sensor pods',
          risk: 'restart',
          targets: [{ by: 'label', namespace: 'platformNamespace', label: 'gitSensorLabel' }],
          verifyWithinSeconds: 300,
        },
        {
          kind: 'manual',
          does: 'Save again and test the token',
          risk: 'read-only',
          items: [
            'Save the git repository again.',
            "Test cloning the repository with the Git account's token.",
            'If cloning fails, regenerate the token and update the Git account with it.',
          ],
        },
      ],
    },
  ],
};
