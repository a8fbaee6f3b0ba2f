import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseFailure, type DatabasePlace } from '../../../src/remedies/database/errors.js';

const place: DatabasePlace = { server: '127.0.0.1:5432', user: 'postgres', passwordFrom: 'key PG_PASSWORD of secret devtroncd/devtron-secret' };
const server = { host: '127.0.0.1', port: 5432, user: 'postgres' };
const clients: pg.Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.end().catch(() => undefined)));
});
async function connect(database: string): Promise<pg.Client> {
  const c = new pg.Client({ ...server, database });
  c.on('error', () => undefined);
  clients.push(c);
  await c.connect();
  return c;
}

describe('PostgreSQL errors become specific messages', () => {
  it("turns the guide's own error, 'is being accessed by other users' (55006), into what happened and what to do", async () => {
    const name = `medic_e_${randomBytes(4).toString('hex')}`;
    const a = await connect('postgres');
    await a.query(`CREATE DATABASE ${name}`);
    await connect(name);
    const err = await a.query(`DROP DATABASE ${name}`).catch((e: unknown) => e);
    await a.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    await a.query(`DROP DATABASE IF EXISTS ${name}`);
    expect(databaseFailure(err, place, `drop database "${name}"`)).toMatchObject({
      code: '55006',
      message: `PostgreSQL at 127.0.0.1:5432: the database is still in use (55006: database "${name}" is being accessed by other users); a session connected again after the others were ended. Nothing was dropped; plan again.`,
    });
  });

  it('names a database that does not exist (3D000)', async () => {
    const err = await connect('medic_no_such_db').catch((e: unknown) => e);
    expect(databaseFailure(err, place, 'connect to database "medic_no_such_db"').message).toBe(
      'PostgreSQL at 127.0.0.1:5432: database "medic_no_such_db" does not exist (3D000) while trying to connect to database "medic_no_such_db".',
    );
  });

  it('points at the secret key, never the password, when authentication fails (28P01)', () => {
    // The test server trusts loopback, so this is the error object pg raises for a wrong password.
    const err = Object.assign(new pg.DatabaseError('password authentication failed for user "postgres"', 0, 'error'), { code: '28P01' });
    expect(databaseFailure(err, place, 'connect').message).toBe(
      'PostgreSQL at 127.0.0.1:5432 refused the password of user "postgres" (28P01 authentication failed). Check the key PG_PASSWORD of secret devtroncd/devtron-secret.',
    );
  });

  it.each([
    ['42501', 'PostgreSQL at 127.0.0.1:5432: user "postgres" may not drop database "x" (42501 insufficient privilege: must be owner of database x).'],
    ['53300', 'PostgreSQL at 127.0.0.1:5432 has no free connection slot (53300 too many connections); try again when sessions have ended.'],
  ])('explains SQLSTATE %s', (code, message) => {
    const err = Object.assign(new pg.DatabaseError('must be owner of database x', 0, 'error'), { code });
    expect(databaseFailure(err, place, 'drop database "x"').message).toBe(message);
  });
});
