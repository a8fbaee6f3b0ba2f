import { z } from 'zod';
import { shownBack } from '../../redact.js';
import { maintenanceDatabase, openDatabase } from '../database/connect.js';
import { dropDatabase as dropNow, dropSchema, inspectDrop } from '../database/drop.js';
import { refusalFor } from '../database/protected.js';
import { defineStep } from './kind.js';
import { platformSecretPermission } from './secret-key.js';
import { parameterName, stepBase } from './step.js';

/** Entry 16: end the sessions on a database, then drop it. */
const dropDatabaseStep = z.strictObject({ ...stepBase, kind: z.literal('dropDatabase'), databaseParam: parameterName });
export type DropDatabaseStep = z.infer<typeof dropDatabaseStep>;

/**
 * Entry 16: end the sessions on a database, then drop it, against the platform's PostgreSQL. The plan
 * lists the sessions and pins the database's oid; the platform's own databases are refused outright.
 * The SQL needs no Kubernetes permission; reading the password needs `get` on the platform secret.
 */
export const dropDatabase = defineStep({
  kind: 'dropDatabase',
  step: dropDatabaseStep,
  data: dropSchema,
  permissions: () => [platformSecretPermission],
  parameters: (step) => [step.databaseParam],
  async plan(ctx, step) {
    const database = ctx.params?.[step.databaseParam] ?? '';
    const none = { lines: [step.does], targets: [], data: { database, oid: '' } };
    if (database === '') return { ...none, blocked: `Name the database to drop: /platform fix … ${step.databaseParam}=<name>` };
    // PostgreSQL silently truncates longer identifiers to 63 bytes, which could name another database.
    if (Buffer.byteLength(database) > 63 || database.includes('\0')) return { ...none, blocked: `"${shownBack(database, 70)}" is not a database name PostgreSQL can hold (at most 63 bytes).` };
    // Refused before anything is read: a platform database is never even connected for dropping.
    const refusal = refusalFor(database, maintenanceDatabase);
    if (refusal) return { ...none, blocked: refusal };
    const open = await openDatabase(ctx);
    if (!open.ok) return { ...none, blocked: open.message, ...(open.unreachable ? { unreachable: true } : {}) };
    try {
      const r = await inspectDrop(open.db, database);
      return { lines: r.lines.length > 0 ? r.lines : [step.does], targets: r.targets, data: r.data, ...(r.blocked ? { blocked: r.blocked } : {}), ...(r.unreachable ? { unreachable: true } : {}) };
    } finally {
      await open.db.client.end().catch(() => undefined);
    }
  },
  async run(ctx, planned) {
    const open = await openDatabase(ctx);
    if (!open.ok) return { status: 'failed', message: open.message };
    try {
      return await dropNow(open.db, planned.data);
    } finally {
      await open.db.client.end().catch(() => undefined);
    }
  },
});
