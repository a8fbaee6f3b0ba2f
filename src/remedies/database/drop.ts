import pg from 'pg';
import { z } from 'zod';
import type { Target } from '../plan.js';
import type { StepResult } from '../steps/context.js';
import { maintenanceDatabase, type OpenDatabase } from './connect.js';
import { DatabaseFailure, databaseFailure } from './errors.js';
import { refusalFor } from './protected.js';

/** The database to drop, pinned by its oid: a database dropped and recreated since the plan is not the planned one. */
export const dropSchema = z.object({ database: z.string(), oid: z.string() });
/** What the run drops. */
export type DropData = z.infer<typeof dropSchema>;

/** A session on the database, as pg_stat_activity shows it. */
interface Session {
  pid: number;
  usename: string | null;
  application_name: string | null;
  client_addr: string | null;
  state: string | null;
}

async function oidOf(db: OpenDatabase, database: string): Promise<string | undefined> {
  const r = await db.client.query<{ oid: string }>('SELECT oid::text AS oid FROM pg_database WHERE datname = $1', [database]);
  return r.rows[0]?.oid;
}

async function sessionsOn(db: OpenDatabase, database: string): Promise<Session[]> {
  const r = await db.client.query<Session>(
    'SELECT pid, usename, application_name, host(client_addr) AS client_addr, state FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() ORDER BY pid',
    [database],
  );
  return r.rows;
}

const sessionLine = (s: Session) =>
  `end session pid ${s.pid}: user ${s.usename ?? '?'}, application "${s.application_name ?? ''}", from ${s.client_addr ?? 'local socket'}, ${s.state ?? 'unknown state'}`;

/** Read-only: does the database exist, may it be dropped, and which sessions would be ended. */
export async function inspectDrop(db: OpenDatabase, database: string): Promise<{ data: DropData; lines: string[]; targets: Target[]; blocked?: string; unreachable?: boolean }> {
  const none = { data: { database, oid: '' }, lines: [], targets: [] };
  try {
    const refusal = refusalFor(database, maintenanceDatabase);
    if (refusal) return { ...none, blocked: refusal };
    const oid = await oidOf(db, database);
    if (!oid) return { ...none, blocked: `Database "${database}" does not exist on PostgreSQL at ${db.place.server}: nothing to drop.` };
    const sessions = await sessionsOn(db, database);
    const lines = [
      ...(sessions.length === 0 ? [`no session is open on "${database}"`] : sessions.map(sessionLine)),
      `drop database "${database}" (oid ${oid}) on ${db.place.server}`,
    ];
    const targets: Target[] = [{ kind: 'Database', namespace: db.place.server, name: database, uid: oid, state: `${sessions.length} open session(s)` }];
    return { data: { database, oid }, lines, targets };
  } catch (err) {
    const failure = databaseFailure(err, db.place, `inspect database "${database}"`);
    return { ...none, blocked: failure.message, ...(failure.unreachable ? { unreachable: true } : {}) };
  }
}

/**
 * Ends every other session on the database, then drops it once, then checks it is gone. The drop is
 * never retried: if a session connected again in between, PostgreSQL refuses (55006) and the run says so.
 * (The server of a standard install is PostgreSQL 11, which has no DROP DATABASE … WITH (FORCE).)
 */
export async function dropDatabase(db: OpenDatabase, data: DropData): Promise<StepResult> {
  const { database } = data;
  const details: string[] = [];
  try {
    const refusal = refusalFor(database, maintenanceDatabase);
    if (refusal) return { status: 'failed', message: refusal };
    const oid = await oidOf(db, database);
    if (!oid) return { status: 'skipped', message: `Database "${database}" is already gone; nothing was dropped.` };
    if (oid !== data.oid) return { status: 'changed', message: `Database "${database}" was recreated since the plan (oid ${data.oid} → ${oid}); nothing was dropped.` };
    const ended = await db.client.query<{ pid: number; ended: boolean }>(
      'SELECT pid, pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    details.push(ended.rows.length === 0 ? 'no session was open' : `ended ${ended.rows.filter((r) => r.ended).length} of ${ended.rows.length} session(s): pid ${ended.rows.map((r) => r.pid).join(', ')}`);
    await db.client.query(`DROP DATABASE ${pg.escapeIdentifier(database)}`);
    details.push(`dropped database "${database}"`);
    if (await oidOf(db, database)) return { status: 'failed', message: `DROP DATABASE "${database}" returned, but the database is still listed.`, details };
    return { status: 'done', message: `Ended the sessions on "${database}" and dropped it; it is gone from ${db.place.server}.`, details };
  } catch (err) {
    const failure = err instanceof DatabaseFailure ? err : databaseFailure(err, db.place, `drop database "${database}"`);
    return { status: 'failed', message: failure.message, details };
  }
}
