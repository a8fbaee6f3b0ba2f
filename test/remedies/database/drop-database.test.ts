import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { findEntry } from '../../../src/catalogue/index.js';
import { ClusterGateway } from '../../../src/cluster/gateway.js';
import { startSimulatedCluster, type SimulatedCluster } from '../../../src/cluster/sim/index.js';
import { defaultPlatformNames, type PlatformNames } from '../../../src/platform-names.js';
import { planStage } from '../../../src/remedies/planner.js';
import { runPlan, type StepProgress } from '../../../src/remedies/runner.js';
import { runStep, type StepContext } from '../../../src/remedies/steps/index.js';
import { captureOutput, setPlatformSecretKey, visibleText } from '../dashboard/world.js';

/** The real PostgreSQL of the test machine: trust auth on loopback, so any password is accepted. */
const server = { host: '127.0.0.1', port: 5432, user: 'postgres' };
const PASSWORD = `pg-secret-${randomBytes(6).toString('hex')}`;
const entry = findEntry('database-drop-blocked')!;

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f().catch(() => undefined);
});

async function admin(): Promise<pg.Client> {
  const c = new pg.Client({ ...server, database: 'postgres' });
  await c.connect();
  cleanup.push(() => c.end());
  return c;
}

/** A uniquely named database; the dash and capital letter need quoting, so a careless DROP would miss it. */
async function createDatabase(): Promise<string> {
  const name = `Medic-t_${randomBytes(5).toString('hex')}`;
  const a = await admin();
  await a.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  cleanup.push(() => a.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)}`));
  return name;
}

/** A session held open on the database, as another user of it would; records how it ended. */
async function holdSession(database: string): Promise<{ client: pg.Client; pid: number; ended: Promise<{ code?: string }> }> {
  const client = new pg.Client({ ...server, database, application_name: 'held-session' });
  const ended = new Promise<{ code?: string }>((resolve) => client.on('error', (e: Error & { code?: string }) => resolve({ code: e.code })));
  await client.connect();
  cleanup.push(() => client.end());
  const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  return { client, pid, ended };
}

async function cluster(names: Partial<PlatformNames> = {}, password: string | null = PASSWORD) {
  const sim: SimulatedCluster = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
  cleanup.push(() => sim.close());
  // The standard install's secret holds the key; null takes it away.
  await setPlatformSecretKey(sim, 'PG_PASSWORD', password ?? undefined);
  const ctx: StepContext = { gateway: new ClusterGateway(sim.kubeConfig(), { callTimeoutMs: 2_000 }), names: { ...defaultPlatformNames, databaseHost: '127.0.0.1', ...names }, pollMs: 20, now: () => new Date() };
  const plan = (database: string) => planStage(ctx, { requestId: 'rdb', cluster: 'sim', entry, stage: entry.stages[0]!, params: { database } });
  return { sim, ctx, plan };
}

const exists = async (name: string) => (await (await admin()).query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;

describe('database-drop-blocked: ending the sessions, then dropping the database (guide 7.16)', () => {
  it('lists the sessions, ends them, drops the database once, and then has nothing left to do', async () => {
    const name = await createDatabase();
    const held = await holdSession(name);
    const { ctx, plan } = await cluster();
    const output = captureOutput();

    const planned = await plan(name);
    expect(planned.blocked).toBeUndefined();
    const oid = planned.steps[0]!.targets[0]!.uid;
    expect(planned.steps[0]!.lines).toEqual([
      `end session pid ${held.pid}: user postgres, application "held-session", from 127.0.0.1, idle`,
      `drop database "${name}" (oid ${oid}) on 127.0.0.1:5432`,
    ]);

    const progress: StepProgress[] = [];
    const outcome = await runPlan(ctx, planned, 0, async (p) => void progress.push(p));
    expect(outcome).toEqual({ status: 'completed', message: 'All steps done.' });
    expect(progress.find((p) => p.status === 'done')).toMatchObject({
      message: `Ended the sessions on "${name}" and dropped it; it is gone from 127.0.0.1:5432.`,
      details: [`ended 1 of 1 session(s): pid ${held.pid}`, `dropped database "${name}"`],
    });
    expect(await exists(name)).toBe(false);
    // The held session was ended by the server: 57P01 "terminating connection due to administrator command".
    expect(await held.ended).toEqual({ code: '57P01' });

    // The same planned step carried out again finds nothing to drop.
    expect(await runStep({ ...ctx, params: planned.params }, planned.steps[0]!)).toEqual({ status: 'skipped', message: `Database "${name}" is already gone; nothing was dropped.` });
    const again = await plan(name);
    expect(again.blocked).toBe(`Database "${name}" does not exist on PostgreSQL at 127.0.0.1:5432: nothing to drop.`);
    expect(visibleText(planned, progress, outcome, again, output.stop())).not.toContain(PASSWORD);
  });

  it('says there is no session to end when none is open', async () => {
    const name = await createDatabase();
    const { plan } = await cluster();
    expect((await plan(name)).steps[0]!.lines[0]).toBe(`no session is open on "${name}"`);
  });

  it.each(['orchestrator', 'casbin', 'git_sensor', 'lens', 'clairv4', 'postgres', 'template1'])('refuses to drop the platform or system database %s', async (name) => {
    const { plan } = await cluster();
    expect((await plan(name)).blocked).toBe(
      `Refusing to drop "${name}": it is one of the platform's own or PostgreSQL's system databases (orchestrator, casbin, git_sensor, lens, clairv4, postgres, template0, template1). Dropping it would break the platform.`,
    );
  });

  it('stops when the database was dropped and recreated after the plan', async () => {
    const name = await createDatabase();
    const { ctx, plan } = await cluster();
    const planned = await plan(name);
    const a = await admin();
    await a.query(`DROP DATABASE ${pg.escapeIdentifier(name)}`);
    await a.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
    expect((await runPlan(ctx, planned, 0, async () => undefined)).status).toBe('changed');
    expect(await exists(name)).toBe(true);
  });

  it('says PostgreSQL cannot be reached, not that the database changed, when it goes away between approval and run', async () => {
    const name = await createDatabase();
    const { ctx, plan } = await cluster();
    const planned = await plan(name);
    expect(planned.blocked).toBeUndefined();
    // After the approval the worker finds nothing at the database's address (a moved Service, a closed port).
    const port = await freePort();
    const outcome = await runPlan({ ...ctx, names: { ...ctx.names, databasePort: port } }, planned, 0, async () => undefined);
    expect(outcome).toEqual({
      status: 'failed',
      step: 0,
      message: `Cannot reach PostgreSQL at 127.0.0.1:${port} (ECONNREFUSED) to connect to database "postgres". Is the database pod running? Nothing was done.`,
    });
    expect(JSON.stringify(outcome)).not.toMatch(/gone or changed|cluster changed/);
    expect(await exists(name)).toBe(true);
  });

  it('blocks the plan, naming the secret and key, when the password key is absent', async () => {
    const name = await createDatabase();
    const { plan } = await cluster({}, null);
    expect((await plan(name)).blocked).toBe("The platform secret devtroncd/devtron-secret has no key PG_PASSWORD; set the cluster's password key name or add the key.");
  });

  it('blocks the plan with the address when PostgreSQL cannot be reached', async () => {
    const port = await freePort();
    const { plan } = await cluster({ databasePort: port });
    const planned = await plan('anything');
    expect(planned.blocked).toBe(`Cannot reach PostgreSQL at 127.0.0.1:${port} (ECONNREFUSED) to connect to database "postgres". Is the database pod running?`);
    expect(visibleText(planned)).not.toContain(PASSWORD);
  });
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
