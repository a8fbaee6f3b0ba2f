import type { CatalogueEntry } from '../model.js';

/** Guide 7.9: the database image source is gone; the database and its dependants crash-loop. */
export const databaseImagePull: CatalogueEntry = {
  id: 'database-image-pull',
  ref: '7.9',
  title: "Database pod crash-loops with 'Failed to pull image'",
  symptom: "The database pod crash-loops with 'Failed to pull image'; pods that depend on it crash-loop too.",
  cause: 'The source of the database images is unavailable.',
  // The remedy moves the platform's database to another image source: a pull of some other image from the same
  // registry (a runbook's `bitnami/<image>`) is not its subject, nor is any paste that shows no database.
  subject: { names: ['postgres', 'minideb', 'database', ' db '], platform: true },
  signatures: {
    errors: [
      'Failed to pull image "docker.io/bitnami/postgresql',
      'Failed to pull image "bitnami/postgresql',
      'Failed to pull image "docker.io/bitnami/minideb',
      'Failed to pull image "bitnami/minideb',
      'Back-off pulling image "docker.io/bitnami/postgresql',
      'Back-off pulling image "bitnami/postgresql',
      'Back-off pulling image "docker.io/bitnami/minideb',
      'Back-off pulling image "bitnami/minideb',
    ],
    phrases: [
      'postgres pod crashloop',
      'database pod cannot pull image',
      'postgresql image pull failed',
      'postgresql pod imagepullbackoff',
      'database pod imagepullbackoff',
      'postgres image not found',
    ],
    context: [
      'postgresql',
      'postgres',
      'bitnami',
      'init-chmod-data',
      'minideb',
      'postgresql-postgresql',
      'Failed to pull image',
      'manifest unknown',
      'not found',
      'error in connecting db',
      'bitnamilegacy',
    ],
    // Downstream: the platform's other pods crash-loop because they cannot reach the database
    // (devtron's "error in connecting db" at start-up); the Bitnami images the chart names were moved to
    // bitnamilegacy. Sources: docs/FAQs/devtron-troubleshoot.md §9 ("There may be some other pods also in
    // crashloop as they are not able to connect to database"), devtron-labs/devtron#4356 (the
    // orchestrator's "error in connecting db" log line), sidpalas/devops-directive-kubernetes-course#25 and
    // bitnami/charts#36268 (bitnami/postgresql images gone, bitnamilegacy/postgresql in their place).
  },
  detector: { kind: 'imagePullFailing', pods: { pod: 'databasePod', in: 'platformNamespace' }, dependants: { label: 'mainPodLabel', in: 'platformNamespace' } },
  stages: [
    {
      id: 'replace-images',
      title: 'Point the database at the replacement images and restart what crash-loops',
      steps: [
        {
          kind: 'manual',
          does: 'Prefer an upgrade',
          risk: 'read-only',
          items: ['Upgrading the platform also fixes this; approve the steps below to patch the images instead.'],
        },
        {
          kind: 'patchStatefulSetImages',
          does: 'Set the database stateful set to the replacement images for its init container and its container',
          risk: 'destructive',
          statefulSet: 'databaseStatefulSet',
          images: [
            { container: 'databaseInitContainer', image: 'quay.io/devtron/minideb:latest' },
            { container: 'databaseContainer', image: 'quay.io/devtron/postgres:11.3.0-debian-9-r28' },
          ],
        },
        {
          kind: 'deletePods',
          does: 'Delete the database pod so that it starts with the new images',
          risk: 'restart',
          targets: [{ by: 'name', namespace: 'platformNamespace', pod: 'databasePod' }],
          verifyWithinSeconds: 600,
        },
        {
          kind: 'deletePods',
          does: 'Delete the other crash-looping pods of the platform namespace',
          risk: 'restart',
          targets: [{ by: 'crash-looping', namespace: 'platformNamespace' }],
          verifyWithinSeconds: 600,
        },
      ],
    },
  ],
};
