import pg from 'pg';
import type { StepContext } from '../steps/context.js';
import { readPlatformSecretKey } from '../steps/secret-key.js';
import type { PlatformNames } from '../../platform-names.js';
import { databaseFailure, type DatabaseFailure, type DatabasePlace } from './errors.js';

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
  const secret = await readPlatformSecretKey(ctx, ctx.names.databasePasswordKey);
  if (!secret.ok) return { ok: false, message: secret.message, unreachable: false };
  const open = await connectDatabase(ctx.names, secret, 'platform-medic');
  return open.ok ? open : { ok: false, message: open.failure.message, unreachable: open.failure.unreachable };
}

/**
 * Connects to the maintenance database of the cluster's PostgreSQL with a password already read
 * (`where` names its secret and key for messages); `application` is what pg_stat_activity shows.
 */
export async function connectDatabase(
  names: Pick<PlatformNames, 'databaseHost' | 'databasePort' | 'databaseUser'>,
  secret: { readonly value: string; readonly where: string },
  application: string,
  timeoutMs = 10_000,
): Promise<{ ok: true; db: OpenDatabase } | { ok: false; failure: DatabaseFailure }> {
  const { databaseHost: host, databasePort: port, databaseUser: user } = names;
  const place: DatabasePlace = { server: `${host}:${port}`, user, passwordFrom: secret.where };
  const client = new pg.Client({
    host,
    port,
    user,
    password: secret.value,
    database: maintenanceDatabase,
    application_name: application,
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: 30_000,
  });
  // An error after connecting (the server going away) must not crash the worker; queries report it.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    return { ok: false, failure: databaseFailure(err, place, `connect to database "${maintenanceDatabase}"`) };
  }
  return { ok: true, db: { client, place } };
}
