import type { CatalogueEntry } from '../model.js';

/** Guide 7.1: installer jobs failed, so saving the global configuration answers Unauthorized. */
export const installJobsFailed: CatalogueEntry = {
  id: 'install-jobs-failed',
  ref: '7.1',
  title: 'Unauthorized error when saving global configuration after install',
  symptom: 'Saving the global configuration (host URL, GitOps) right after install fails with an Unauthorized error.',
  cause: 'One or more installer jobs failed (0/1 completions).',
  signatures: {
    errors: [],
    phrases: [
      'unauthorized when saving global configuration',
      'unauthorized saving host url',
      'unauthorized saving gitops configuration',
      'installer job failed',
      'migrator job failed',
      'migration job failed',
      'unauthorized',
      'BackoffLimitExceeded',
      'job has reached the specified backoff limit',
      'migration jobs failed',
      'migrate job failed',
      'postgresql-migrate job failed',
      'unable to save host url',
      // The guide's symptom in the present tense ("when I save …"), and the FAQ's title: "unauthorized errors,
      // while trying to save global configurations like hostname, GitOps" (docs/FAQs/devtron-troubleshoot.md §1).
      'unauthorized when trying to save the gitops configuration',
      'unauthorized errors while trying to save global configurations',
    ],
    context: [
      'devtroncd',
      'migrate',
      'migrator',
      'installer',
      'global configuration',
      'host url',
      'postgresql-migrate',
      'fresh install',
      'migration job',
      'migration jobs',
      'app-sync-job',
    ],
    // Downstream: the migrator jobs create the schema, so when they fail the platform's components find
    // tables missing (go-pg's `ERROR #42P01 relation "gitops_config" does not exist` at start-up) and
    // the dashboard shows its "Not authorized" page to the admin. Sources: devtron-labs/devtron#592 and #839 and #1472 (gitops_config, the
    // maintainer: "Migration jobs which create tables in database must have failed"), #4384 and #6656
    // (rbac_policy_data; "status of pod/job names starting with postgresql-migrate-"), #1863 (chart-sync:
    // relation "chart_repo" does not exist while migrations run), #545 (the "Not authorized … don't have
    // access to information on this page" page; "looks like migration job failed"), the dashboard's
    // constants (REQUIRED_MANAGER_ACCESS), docs/FAQs/devtron-troubleshoot.md §1.
    downstream: [
      'ERROR #42P01',
      'SQLSTATE 42P01',
      'relation "',
      'missing db tables',
      'tables are missing',
      'tables were not created',
      'have access to information on this page',
      // The migrator's own failure logs (devtron-labs/migrator MigrateUtil.go: it cannot reach the
      // database, or a script fails) and the deadline its jobs carry (manifests/yamls/migrator.yaml:
      // activeDeadlineSeconds 1500; the job controller's "Job was active longer than specified deadline").
      'error in connection db',
      'error in applying migration',
      'error in determining current migration',
      'Job was active longer than specified deadline',
    ],
    excludes: [
      'you must be logged in to the server',
    ],
    // The guide's remedy runs the migrations again; people say they did it by hand ("manually execute the
    // files in script / SQL, but it still doesn't work").
    applied: ['manually execute the', 'manually executed the', 'ran the migration scripts', 'ran the migrations manually', 're-ran the migrator', 'reapplied the migrator', 'applied the migrator manifest again'],
  },
  detector: { kind: 'jobsIncomplete', namespace: 'platformNamespace' },
  stages: [
    {
      id: 'recreate-jobs',
      title: 'Delete the failed installer jobs and apply the migrator manifest again',
      steps: [
        {
          kind: 'deleteFailedJobs',
          does: 'Delete the installer jobs at 0/1 completions whose pods are no longer running (jobs still running are left to finish)',
          risk: 'restart',
          namespace: 'platformNamespace',
        },
        {
          kind: 'applyManifest',
          does: 'Apply the migrator manifest without its database-migrator secret, so the jobs are recreated',
          risk: 'destructive',
          manifest: 'migrator',
          namespace: 'platformNamespace',
          exclude: [{ kind: 'Secret', nameContains: 'migrator' }],
        },
        { kind: 'wait', does: 'Wait a few minutes for the jobs to complete', risk: 'read-only', minutes: 3, reason: 'the recreated jobs and pods need a few minutes (guide 7.1)' },
        { kind: 'manual', does: 'Save the global configuration again', risk: 'read-only', items: ['Check the jobs show 1/1 completions, then save the global configuration (host URL, GitOps) again.'] },
      ],
    },
  ],
};
