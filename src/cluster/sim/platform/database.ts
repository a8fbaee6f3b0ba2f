import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Where the simulated platform's database is: a real PostgreSQL, since entry 16 runs SQL against it. */
export interface DatabaseServer {
  readonly host: string;
  readonly port: number;
  readonly user: string;
}

/** The PostgreSQL the demo and the tests use: loopback, trust for user postgres (as `.ci/run` sets it up). */
export const localDatabase: DatabaseServer = Object.freeze({ host: '127.0.0.1', port: 5432, user: 'postgres' });

/** A database of the demo held open by a session, as another user of it would. */
interface HeldDatabase {
  readonly client: pg.Client;
  /** False once the session has ended (the drop remedy ends it). */
  open: boolean;
}

const at = (s: DatabaseServer) => `${s.host}:${s.port}`;

/** `%m` of log_line_prefix: the time with milliseconds and the zone's abbreviation (the server's log_timezone, UTC). */
const logTime = (t: Date) => `${t.toISOString().slice(0, 10)} ${t.toISOString().slice(11, 23)} UTC`;

/**
 * The lines PostgreSQL writes to its log (the database pod's standard error) when DROP DATABASE is refused
 * because other sessions use the database: src/backend/commands/dbcommands.c raises ERRCODE_OBJECT_IN_USE
 * (55006) "database \"%s\" is being accessed by other users" with errdetail_busy_db's "There is %d other
 * session using the database." (or "There are %d other sessions …"); the statement follows because
 * log_min_error_statement defaults to ERROR. Each line starts with the default log_line_prefix
 * '%m [%p] ' (PostgreSQL 10 and later), and elog.c puts two spaces after the severity.
 */
export function refusedDropLog(t: Date, pid: number, database: string, others: number): { at: Date; text: string }[] {
  const prefix = `${logTime(t)} [${pid}] `;
  const detail = others === 1 ? 'There is 1 other session using the database.' : `There are ${others} other sessions using the database.`;
  return [
    `ERROR:  database "${database}" is being accessed by other users`,
    `DETAIL:  ${detail}`,
    `STATEMENT:  DROP DATABASE ${pg.escapeIdentifier(database)}`,
  ].map((text) => ({ at: t, text: prefix + text }));
}

/**
 * The platform's PostgreSQL in the simulated cluster: a real server (the platform secret's password key
 * holds the password the platform connects with). For entry 16 it makes a database that cannot be
 * dropped because a session is open on it, and forgets what it made when the cluster closes.
 */
export class PlatformDatabase {
  private readonly held = new Map<string, HeldDatabase>();
  /** What the server has logged for the platform's database pod to show. */
  private readonly log: { at: Date; text: string }[] = [];

  constructor(
    readonly server: DatabaseServer,
    private readonly password: string,
  ) {}

  private client(database: string, application: string): pg.Client {
    const c = new pg.Client({ ...this.server, password: this.password, database, application_name: application, connectionTimeoutMillis: 5_000 });
    c.on('error', () => undefined);
    return c;
  }

  /**
   * Undefined when the platform can connect; else one line saying why not and how to give the demo a
   * database (entry 16 needs one; the rest of the demo does not).
   */
  async problem(): Promise<string | undefined> {
    const c = this.client('postgres', 'platform-medic-sim');
    try {
      await c.connect();
      return undefined;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      if (code === '28P01' || code === '28000') {
        return `Entry 16 (database-drop-blocked) needs PostgreSQL: the one at ${at(this.server)} refused user "${this.server.user}" (${String(code)}); let it in from loopback (pg_hba.conf: "host all ${this.server.user} 127.0.0.1/32 trust").`;
      }
      return `Entry 16 (database-drop-blocked) needs PostgreSQL and none answers at ${at(this.server)} (${typeof code === 'string' ? code : 'no answer'}); start one (Debian: apt-get install postgresql, then pg_ctlcluster <version> main start), as .ci/run does.`;
    } finally {
      await c.end().catch(() => undefined);
    }
  }

  /**
   * Entry 16's broken state: a new database with a session open on it, and someone's DROP DATABASE of it
   * refused, as the server's log shows it; returns its name. (The refusal is written rather than caused:
   * PostgreSQL waits 5 s for the other sessions to leave before it refuses, and the lines are the same.)
   */
  async blockDrop(): Promise<string> {
    const problem = await this.problem();
    if (problem) throw new Error(problem);
    const name = `medic_demo_${randomBytes(4).toString('hex')}`;
    const admin = this.client('postgres', 'psql');
    let pid = 0;
    try {
      await admin.connect();
      await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
      pid = (await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid ?? 0;
    } finally {
      await admin.end().catch(() => undefined);
    }
    // The "other user" of the database: the session PostgreSQL names when it refuses the drop (55006).
    const client = this.client(name, 'orders-report');
    const entry: HeldDatabase = { client, open: true };
    client.on('end', () => (entry.open = false));
    client.on('error', () => (entry.open = false));
    await client.connect();
    this.held.set(name, entry);
    this.log.push(...refusedDropLog(new Date(), pid, name, 1));
    return name;
  }

  /** The server's log lines since it started, oldest first. */
  serverLog(): readonly { at: Date; text: string }[] {
    return this.log;
  }

  /** The databases `blockDrop` made whose blocking session is still open. */
  blockedDatabases(): string[] {
    return [...this.held].filter(([, h]) => h.open).map(([name]) => name);
  }

  /** Whether the session made by `blockDrop` is still open on `name`. */
  blocked(name: unknown): boolean {
    return typeof name === 'string' && this.held.get(name)?.open === true;
  }

  /** Ends the sessions it holds and drops the databases it made that are still there. */
  async close(): Promise<void> {
    const names = [...this.held.keys()];
    await Promise.all([...this.held.values()].map((h) => h.client.end().catch(() => undefined)));
    this.held.clear();
    if (names.length === 0) return;
    const admin = this.client('postgres', 'platform-medic-sim');
    try {
      await admin.connect();
      for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)}`);
    } catch {
      // The server went away: nothing of ours is left to drop there.
    } finally {
      await admin.end().catch(() => undefined);
    }
  }
}
