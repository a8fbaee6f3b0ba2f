import type { CatalogueEntry } from '../model.js';

/** Guide 7.16: a database with open sessions cannot be dropped. */
export const databaseDropBlocked: CatalogueEntry = {
  id: 'database-drop-blocked',
  ref: '7.16',
  appliesTo: 'any-product',
  title: "Database cannot be dropped: 'is being accessed by other users'",
  symptom: "Dropping a database fails with 'is being accessed by other users'.",
  cause: 'Sessions are still open on the database.',
  signatures: {
    errors: ['is being accessed by other users'],
    phrases: ['cannot drop database', 'drop database fails'],
    context: ['postgres', 'postgresql', 'drop database', 'psql', 'dropdb', 'ObjectInUse'],
    // The same message from CREATE DATABASE … TEMPLATE names the template as the "source database": a copy
    // is blocked, not a drop, and terminating the template's sessions and dropping is not the answer.
    // Sources: PostgreSQL's CREATE DATABASE documentation (the template must have no other connections),
    // Vincit/knex-db-manager and odoo/odoo#5833 (source database "template1" / "duplicate_test" is
    // being accessed), docs/FAQs/devtron-troubleshoot.md §17.
    excludes: ['source database'],
  },
  // The refused drop in the database pod's log, and the sessions still open on that database.
  detector: { kind: 'databaseDropRefused' },
  params: [{ name: 'database', description: 'the database to drop', pattern: '^[A-Za-z_][A-Za-z0-9_-]{0,62}$', example: 'orchestrator_old', placeholder: 'database-name' }],
  stages: [
    {
      id: 'drop',
      title: 'End the sessions on the database, then drop it',
      steps: [
        { kind: 'dropDatabase', does: 'Terminate the backend sessions whose database is the target, then drop the database', risk: 'destructive', databaseParam: 'database' },
      ],
    },
  ],
};
