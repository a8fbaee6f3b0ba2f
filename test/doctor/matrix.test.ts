import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/catalogue/index.js';
import { faultEntries, localDatabase } from '../../src/cluster/sim/index.js';
import { scan, type DoctorReport } from '../../src/doctor/index.js';
import { harness, manifestServer } from '../remedies/steps/support.js';
import { present, stateOf } from './support.js';

/**
 * The doctor's proving ground (issue 12 item 11). The simulated cluster hides its fault annotation
 * from the API and enforces the worker's generated RBAC (so the detectors' declared permissions are
 * enough): the healthy seed shows no symptom; each broken state shows exactly its own entry; after the
 * entry's remedy (its first stage, run as the worker runs it) the symptom is absent again.
 *
 * What each broken entry expects, and why when it is not "present, then absent after the remedy":
 */
/** The remedy runs its first stage unless `stage` names another, with `params` (from the broken cluster's findings); `after` lists what it leaves present, and why. */
type Runs = { remedy: 'runs'; stage?: string; params?: (broken: DoctorReport) => Record<string, string>; after?: { present: string[]; why: string } };
const table: Record<string, Runs | { remedy: string } | { notObservable: string }> = {
  'install-jobs-failed': { remedy: 'runs' },
  'sso-login': { remedy: 'runs' },
  'build-logs': { remedy: 'runs' },
  'database-image-pull': { remedy: 'runs' },
  'gitops-certificate-expired': { remedy: 'runs' },
  'rollout-invalid-json': { remedy: 'runs' },
  'git-sensor-stuck': { remedy: 'runs' },
  'commits-exit-128': { remedy: 'manual: the repository is saved again in the dashboard; then the git-sensor restarts and the token is tested' },
  'git-sensor-volume-full': { remedy: 'runs' },
  'rollout-crds-outdated': { remedy: 'runs' },
  'datasource-update-failed': { remedy: 'runs' },
  'upload-too-large': { remedy: 'runs' },
  'terminal-disconnects': { remedy: 'runs' },
  'metrics-server-tls': { remedy: 'manual: the metrics-server chart is deployed again with --kubelet-insecure-tls' },
  'rollout-stable-rs': { remedy: 'manual: the rollout controller chart is updated in Helm Apps' },
  'image-pull-private-registry': { remedy: 'manual: the registry credentials are injected in the dashboard, then the application is redeployed' },
  'upgrade-cannot-patch-database': { notObservable: "the chart manager's upgrade output says it; unlabelled objects are every installer-based install's normal state" },
  'admin-password-reset': { notObservable: 'a wrong password shows at the login page, not in the cluster' },
  'admin-password-reset-legacy': { notObservable: 'a wrong password shows at the login page, not in the cluster' },
  'dashboards-missing': {
    remedy: 'runs',
    // The first stage is the guide's checks in the dashboard; the repair is its second.
    stage: 'create-organisation',
    params: () => ({ metricsStore: 'http://prometheus-server.monitoring.svc:80' }),
    after: { present: ['cpu-graphs-empty'], why: 'the CPU dashboard imported from the catalogue filters on image!="", which this cluster\'s CPU series do not carry (guide 7.11 follows)' },
  },
  'cpu-graphs-empty': { remedy: 'runs' },
  // The database to drop is the one the finding names, as a person reading it would type it.
  'database-drop-blocked': { remedy: 'runs', params: (broken) => ({ database: stateOf(broken, 'database-drop-blocked')?.evidence[0]?.object.split('/').at(-1) ?? '' }) },
};

const brokenIds = [...new Set(faultEntries.map((e) => e.entryId))];

async function cluster(id?: string) {
  const manifests = await manifestServer();
  // Entry 16 lives in the platform's database: its broken state needs one (the local PostgreSQL, as the demo's).
  const database = id === 'database-drop-blocked' ? { database: localDatabase } : {};
  // A grown claim shows its new capacity after 300 ms, not the default 20 s: settle() would wait out the
  // whole delay before the doctor looks again (the slow resize is claim-resize-admission.test.ts's).
  const h = await harness({ hideMarkers: true, platformAddresses: true, manifestBaseUrl: manifests.url, platformVersion: id === 'admin-password-reset-legacy' ? 'v0.6.4' : 'v0.6.29', volumeResizeMs: 300, ...database });
  await h.sim.settle();
  return { ...h, doctor: () => scan(h.ctx.gateway, h.ctx.names, catalogue) };
}

describe('the doctor on the simulated cluster (markers hidden, the generated RBAC enforced)', () => {
  it('finds no symptom on the healthy seed, and answers for every entry of the catalogue', async () => {
    const { doctor } = await cluster();
    const report = await doctor();
    expect(present(report)).toEqual([]);
    expect(report.findings.map((f) => f.id)).toEqual(catalogue.map((e) => e.id));
    expect(report.findings.filter((f) => f.state === 'unknown')).toEqual([]);
  });

  it('has a row for every broken state', () => {
    expect(brokenIds.filter((id) => !table[id])).toEqual([]);
  });

  it.each(brokenIds)('%s: its broken state shows exactly its own entry; its remedy clears it', async (id) => {
    const row = table[id]!;
    const { sim, plan, run, doctor } = await cluster(id);
    await sim.break(id);
    await sim.settle();
    const broken = await doctor();
    if ('notObservable' in row) {
      expect(stateOf(broken, id)?.state, row.notObservable).toBe('not-observable');
      expect(present(broken)).toEqual([]);
      return;
    }
    expect(present(broken), JSON.stringify(stateOf(broken, id))).toEqual([id]);
    expect(stateOf(broken, id)?.evidence.length).toBeGreaterThan(0);
    if (row.remedy !== 'runs') return;

    const runs = row as Runs;
    const { outcome } = await run(await plan(id, runs.params?.(broken) ?? {}, runs.stage));
    expect(outcome.status, JSON.stringify(outcome)).toBe('completed');
    await sim.settle();
    const after = await doctor();
    expect(stateOf(after, id)?.state, JSON.stringify(stateOf(after, id))).toBe('absent');
    expect(present(after), runs.after?.why).toEqual(runs.after?.present ?? []);
  });

  it("tells the guide's variants apart: a migration still running is not the symptom; a stuck broker is still build-logs", async () => {
    const jobs = await cluster();
    await jobs.sim.break('install-jobs-failed', { running: 'only' });
    await jobs.sim.settle();
    const waiting = stateOf(await jobs.doctor(), 'install-jobs-failed');
    expect(waiting).toMatchObject({ state: 'absent', evidence: [{ object: 'job/devtroncd/postgresql-migrate-casbin', detail: 'still running: the guide waits for it' }] });
    const broker = await cluster();
    await broker.sim.break('build-logs', { depth: 'broker' });
    await broker.sim.settle();
    expect(present(await broker.doctor())).toEqual(['build-logs']);
  });
});
