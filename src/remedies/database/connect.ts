import pg from 'pg';
import type { StepContext } from '../steps/context.js';
import { readPlatformSecretKey } from '../steps/secret-key.js';
import { databaseFailure, type DatabasePlace } from './errors.js';

/**
 * The database a drop connects to: PostgreSQL's maintenance database, so that the connection is never
 * on the database being dropped (PostgreSQL refuses to drop the database a session is using).
 */
export const maintenanceDatabase = 'postgres';

/** A connected client and where it is, for messages. */
export interface OpenDatabase {
  readonly client: pg.Client;
  readonly place: DatabasePlace;
}

/**
 * Connects as the cluster's database user with the password read from the platform secret just now.
 * The password goes into the client's options only; a failure becomes a message without it.
 */
export async function openDatabase(ctx: StepContext): Promise<{ ok: true; db: OpenDatabase } | { ok: false; message: string; unreachable: boolean }> {
  const { databaseHost: host, databasePort: port, databaseUser: user } = ctx.names;
  const secret = await readPlatformSecretKey(ctx, ctx.names.databasePasswordKey);
  if (!secret.ok) return { ok: false, message: secret.message, unreachable: false };
  const place: DatabasePlace = { server: `${host}:${port}`, user, passwordFrom: secret.where };
  const client = new pg.Client({
    host,
    port,
    user,
    password: secret.value,
    database: maintenanceDatabase,
    application_name: 'platform-medic',
    connectionTimeoutMillis: 10_000,
    statement_timeout: 30_000,
  });
  // An error after connecting (the server going away) must not crash the worker; queries report it.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    const failure = databaseFailure(err, place, `connect to database "${maintenanceDatabase}"`);
    return { ok: false, message: failure.message, unreachable: failure.unreachable };
  }
  return { ok: true, db: { client, place } };
}
