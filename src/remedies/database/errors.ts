/**
 * Turns what the PostgreSQL client threw into a message a person can act on. SQLSTATE codes are
 * PostgreSQL's (Appendix A, "PostgreSQL Error Codes"); network codes are Node's. PostgreSQL never
 * echoes a password, and these messages name only the server, the user and where the password is kept.
 */

import { UserFacingError } from '../../errors.js';

/** Where the failing call went, for the message. */
export interface DatabasePlace {
  readonly server: string;
  readonly user: string;
  /** e.g. `key PG_PASSWORD of secret devtroncd/devtron-secret`. */
  readonly passwordFrom: string;
}

/** An expected database failure: its SQLSTATE or network code and a user-safe message. */
export class DatabaseFailure extends UserFacingError {
  constructor(code: string, message: string) {
    super(code, message);
    this.name = 'DatabaseFailure';
  }

  /** Nothing answered at the server's address (or not in time): the failure says nothing about the database itself. */
  get unreachable(): boolean {
    return network.has(this.code) || this.code === 'timeout';
  }
}

const network = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ECONNRESET', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE']);

/** The user-safe failure for an error of the pg client; `doing` says what was being done, e.g. `drop database "x"`. */
export function databaseFailure(err: unknown, place: DatabasePlace, doing: string): DatabaseFailure {
  if (err instanceof DatabaseFailure) return err;
  const e = (err ?? {}) as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const detail = typeof e.message === 'string' ? e.message.slice(0, 300) : String(err);
  const at = `PostgreSQL at ${place.server}`;
  switch (code) {
    case '28P01':
      return new DatabaseFailure(code, `${at} refused the password of user "${place.user}" (28P01 authentication failed). Check the ${place.passwordFrom}.`);
    case '28000':
      return new DatabaseFailure(code, `${at} does not let user "${place.user}" connect from the worker (28000: ${detail}). Check its pg_hba.conf.`);
    case '3D000':
      return new DatabaseFailure(code, `${at}: ${detail} (3D000) while trying to ${doing}.`);
    case '55006':
      return new DatabaseFailure(code, `${at}: the database is still in use (55006: ${detail}); a session connected again after the others were ended. Nothing was dropped; plan again.`);
    case '42501':
      return new DatabaseFailure(code, `${at}: user "${place.user}" may not ${doing} (42501 insufficient privilege: ${detail}).`);
    case '53300':
      return new DatabaseFailure(code, `${at} has no free connection slot (53300 too many connections); try again when sessions have ended.`);
    case '57P03':
      return new DatabaseFailure(code, `${at} is starting up or shutting down (57P03); try again in a minute.`);
    case '57P01':
      return new DatabaseFailure(code, `${at} ended the worker's own session (57P01 admin shutdown) while trying to ${doing}.`);
    case '25001':
      return new DatabaseFailure(code, `${at}: DROP DATABASE cannot run inside a transaction block (25001).`);
    default:
      break;
  }
  if (network.has(code)) return new DatabaseFailure(code, `Cannot reach ${at} (${code}) to ${doing}. Is the database pod running?`);
  if (/timeout/i.test(detail)) return new DatabaseFailure('timeout', `${at} did not answer in time while trying to ${doing}.`);
  return new DatabaseFailure(code || 'error', `${at}: could not ${doing}${code ? ` (${code})` : ''}: ${detail}`);
}
