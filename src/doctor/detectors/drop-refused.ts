import { z } from 'zod';
import { protectedDatabases } from '../../remedies/database/protected.js';
import { defineDetector, type Evidence, type LogSource } from './detector.js';
import { clip } from './shown-text.js';

/**
 * Guide 7.16: a database cannot be dropped because sessions are open on it. PostgreSQL says so twice:
 * the refused DROP DATABASE is an ERROR its log keeps (`database "x" is being accessed by other users`,
 * SQLSTATE 55006, src/backend/commands/dbcommands.c; logged with the statement, since
 * log_min_error_statement defaults to ERROR), and the sessions that block it are rows of
 * pg_stat_activity. Present when the database pod's log tail shows a refused drop of a database that
 * still exists and still has sessions: the drop someone tried would be refused again. A database dropped
 * since, or without sessions now, is not; nor are the platform's own databases, which the remedy never
 * drops (their sessions are the platform at work).
 */
const databaseDropRefusedDetector = z.strictObject({
  kind: z.literal('databaseDropRefused'),
  tailLines: z.number().int().positive().max(1000).default(500),
  /**
   * The fix parameter that names the database to drop: when one database is blocked, the fix line
   * offered with the finding names it. Of several, none is chosen for the person (the fix drops it).
   */
  databaseParam: z.string().min(1).optional(),
});
export type DatabaseDropRefusedDetector = z.input<typeof databaseDropRefusedDetector>;

const source: LogSource = { pod: 'databasePod' };
/**
 * The refusal of DROP DATABASE (not CREATE DATABASE's `source database "x" is being accessed by other
 * users`). A name is at most 63 bytes (NAMEDATALEN 64), so the bounded class keeps the match linear in
 * the line's length, however long a logged statement is.
 */
const refusal = /(?<!source )database "([^"]{1,63})" is being accessed by other users/;
/** The log line's time as log_line_prefix's %m prints it (`2026-11-22 11:58:00.123 UTC`), when it starts the line. */
const stamp = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})(?:\.\d+)?(?: ([A-Z]{2,5}|[+-]\d{2}(?::?\d{2})?))?\b/;

export const databaseDropRefused = defineDetector({
  kind: 'databaseDropRefused',
  detector: databaseDropRefusedDetector as z.ZodType<DatabaseDropRefusedDetector>,
  reads: (d) => [{ logs: source, in: 'platformNamespace', tailLines: d.tailLines ?? 500 }, { database: 'sessions' }],
  fixParams: (d) => (d.databaseParam ? [d.databaseParam] : []),
  detect(d, snap) {
    // The latest refusal of each database, as the log shows it.
    const refused = new Map<string, string>();
    for (const tail of snap.logs(source, 'platformNamespace')) {
      for (const line of tail.lines) {
        const name = refusal.exec(line)?.[1];
        if (!name) continue;
        const at = stamp.exec(line);
        refused.set(name, at ? `at ${at[1]}${at[2] ? ` ${at[2]}` : ''}` : 'in the log tail');
      }
    }
    if (refused.size === 0) return { state: 'absent', evidence: [] };
    const server = `${snap.names.databaseHost}:${snap.names.databasePort}`;
    const notes: Evidence[] = [];
    const blocked: Evidence[] = [];
    const blockedNames: string[] = [];
    const candidates = [...refused].filter(([name]) => {
      if (!protectedDatabases.includes(name)) return true;
      notes.push({ object: `database/${server}/${name}`, detail: "a refused drop of one of the platform's own databases: its sessions are the platform at work, and no remedy drops it" });
      return false;
    });
    const sessions = candidates.length > 0 ? snap.databaseSessions() : [];
    for (const [name, at] of candidates) {
      const object = `database/${server}/${name}`;
      const row = sessions.find((s) => s.database === name);
      if (!row) notes.push({ object, detail: `drop refused ${at}; the database is gone since` });
      else if (row.sessions === 0) notes.push({ object, detail: `drop refused ${at}; no session is open now, so a drop would succeed` });
      else {
        const apps = row.applications.length > 0 ? ` (application ${row.applications.map((a) => `"${clip(a, 40)}"`).join(', ')})` : '';
        blockedNames.push(name);
        blocked.push({ object, detail: `DROP DATABASE refused ${at}: "is being accessed by other users"; ${row.sessions} session${row.sessions === 1 ? '' : 's'} still open${apps}` });
      }
    }
    if (blocked.length === 0) return { state: 'absent', evidence: notes };
    const seen = d.databaseParam && blockedNames.length === 1 ? { fixParams: { [d.databaseParam]: blockedNames[0]! } } : {};
    return { state: 'present', evidence: [...blocked, ...notes], ...seen };
  },
});
