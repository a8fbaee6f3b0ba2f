import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import pg from 'pg';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogue } from '../../src/catalogue/index.js';
import type { CatalogueEntry, Stage } from '../../src/catalogue/model.js';
import { breakForDemo } from '../../src/cluster/sim/demo.js';
import { faultEntries, localDatabase, startSimulatedCluster, versionGates, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { loadConfig } from '../../src/config.js';
import { deletePrefix } from '../../src/jobs/cleanup.js';
import { finishedStatuses } from '../../src/jobs/requests.js';
import { startClusterWorker } from '../../src/jobs/worker.js';
import { terminalLifecycle } from '../../src/terminal/lifecycle.js';
import type { Question, TerminalAction } from '../../src/terminal/reporter.js';
import { testRedisUrl, uniquePrefix } from '../support/test-redis.js';

/*
 * Every entry with cluster, dashboard or database steps, tried as a person tries it in the demo: the
 * demo's simulated platform (its cluster, its metrics dashboard, the local PostgreSQL as its database),
 * broken as `--broken ENTRY` breaks it, fixed through the terminal's lifecycle and an in-process worker
 * on real Redis, approved (by a second person where the rule needs it), and then healthy. An entry that
 * cannot plan or run in the demo fails here; only entries whose steps are all things a person does
 * (manual checklists and the guide's waits) are not walked, and the last test checks they have no other.
 */

const silent = pino({ level: 'silent' }, new Writable({ write: (_c, _e, cb) => cb() }));
/** Steps that touch nothing: a person's checklist, and the guide's waits. */
const personOnly = new Set(['manual', 'wait']);
const automatic = (entry: CatalogueEntry) => entry.stages.flatMap((s) => s.steps).filter((s) => !personOnly.has(s.kind));
const secretData = (sim: SimulatedCluster, name: string) => sim.get({ group: '', version: 'v1', plural: 'secrets' }, 'devtroncd', name).data as Record<string, string>;
const decode = (b64: string | undefined) => Buffer.from(b64 ?? '', 'base64').toString('utf8');

/** What a walk of one entry needs beyond the catalogue: its fix's parameters and what "fixed" looks like. */
interface Walk {
  /** What `--broken` is given; default the entry's id. */
  broken?: string;
  /** The parameters typed with `fix`, read from the broken platform (e.g. which database to drop). */
  params?: (sim: SimulatedCluster) => Record<string, string>;
  /** What the remedy repairs, read from the cluster, dashboard or database after it ran. */
  fixed?: (sim: SimulatedCluster, transcript: string) => void | Promise<void>;
}

async function databaseExists(name: string): Promise<boolean> {
  const c = new pg.Client({ ...localDatabase, database: 'postgres' });
  await c.connect();
  try {
    return (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await c.end();
  }
}

const revealedPassword = (transcript: string) => /🔑 Admin password \(shown here only, not stored\): (\S+)/.exec(transcript)?.[1];
const metricsStore = 'http://prometheus-server.monitoring.svc:80';
let droppedDatabase = '';

const walks: Record<string, Walk> = {
  'install-jobs-failed': {},
  'rollout-crds-outdated': {},
  'sso-login': {},
  'build-logs': { broken: 'build-logs:broker' }, // both stages: the watcher's restart, then the brokers'
  'dashboards-missing': {
    params: () => ({ metricsStore }),
    fixed: (sim) => {
      const org = sim.dashboard.state.org(2);
      expect(org?.name).toBe('devtron-metrics-view');
      expect(org?.dataSources.find((d) => d.isDefault)).toMatchObject({ type: 'prometheus', url: metricsStore });
      expect(org?.dashboards.map((d) => d.uid).sort()).toEqual(['NnFpQOKGk', 'devtron-app-metrics-cpu', 'devtron-app-metrics-latency', 'devtron-app-metrics-memory']);
    },
  },
  'datasource-update-failed': {
    fixed: (sim) => {
      const ds = sim.dashboard.installed.platformDataSource();
      expect(sim.dashboard.installed.mainPodDataSourceVersion).toBe(ds?.version);
    },
  },
  'database-image-pull': {
    fixed: (sim) => {
      const containers = sim.get({ group: 'apps', version: 'v1', plural: 'statefulsets' }, 'devtroncd', 'postgresql-postgresql').spec.template.spec;
      expect([containers.initContainers[0].image, containers.containers[0].image]).toEqual(['quay.io/devtron/minideb:latest', 'quay.io/devtron/postgres:11.3.0-debian-9-r28']);
    },
  },
  'git-sensor-stuck': {},
  'cpu-graphs-empty': {
    fixed: (sim) => {
      const models = JSON.stringify(sim.dashboard.state.org(2)?.dashboards.map((d) => [d.uid, d.model]));
      expect(models).not.toMatch(/container_cpu[a-z_]*\{[^}]*image!=/);
      expect(models).toMatch(/container_memory_working_set_bytes\{[^}]*image!=/);
    },
  },
  'upload-too-large': {},
  'database-drop-blocked': {
    params: (sim) => ({ database: (droppedDatabase = sim.database?.blockedDatabases()[0] ?? '') }),
    fixed: async () => expect(await databaseExists(droppedDatabase)).toBe(false),
  },
  'admin-password-no-base64': { fixed: (sim, t) => expect(revealedPassword(t)).toBe(decode(secretData(sim, 'devtron-secret')['ADMIN_PASSWORD'])) },
  'upgrade-cannot-patch-database': {},
  'terminal-disconnects': {},
  'gitops-certificate-expired': {},
  'commits-exit-128': {},
  'git-sensor-volume-full': {},
  'rollout-invalid-json': {},
  'chart-repo-tls-handshake': { fixed: (_sim, t) => expect(t).toContain('The platform runs v0.7.1, as this remedy needs.') },
  'admin-password': { fixed: (sim, t) => expect(revealedPassword(t)).toBe(decode(secretData(sim, 'devtron-secret')['ADMIN_PASSWORD'])) },
  'admin-password-reset': { fixed: (sim, t) => expect(revealedPassword(t)).toBe(decode(secretData(sim, 'devtron-secret')['ADMIN_PASSWORD'])) },
  'admin-password-reset-legacy': { fixed: (sim, t) => expect(revealedPassword(t)).toBe(decode(secretData(sim, 'devtron-secret')['ACD_PASSWORD'])) },
};

/** The guide's question after a stage, answered truthfully from the platform: still broken → the next stage; fixed → resolved. */
function answer(stage: Stage | undefined, stillBroken: boolean): string | undefined {
  const choices = stage?.then?.choices ?? [];
  const pick = stillBroken ? choices.find((c) => 'stage' in c.then) : choices.find((c) => 'end' in c.then && c.then.end === 'resolved');
  return pick?.id;
}

/** Walks one entry from its broken state to its end; returns the terminal's transcript and the request's last status. */
async function walk(entry: CatalogueEntry, sim: SimulatedCluster): Promise<{ transcript: string; status: string; outcome?: string }> {
  const queuePrefix = uniquePrefix('demo');
  const config = loadConfig({
    env: {},
    overrides: { redisUrl: testRedisUrl, queuePrefix, clusters: [{ name: 'simulated', kube: { source: 'simulated' }, ...sim.addresses }], defaultCluster: 'simulated', waitOverrideSeconds: 0.2 },
  });
  const worker = startClusterWorker({ config, cluster: config.clusters[0]!, kubeConfig: sim.kubeConfig(), logger: silent, pollMs: 50 });
  const lines: string[] = [];
  let ended: (id: string) => void = () => undefined;
  const settled = new Promise<string>((resolve) => (ended = resolve));
  const perform = (action: TerminalAction) => setImmediate(() => void lifecycle.perform(action));
  const ask = (q: Question) => {
    lines.push(q.prompt);
    if (q.free) return perform(q.free.action('bob')); // the second person, at the same terminal
    const choose = q.answers.find((a) => a.action.kind === 'choose');
    if (choose) {
      const stageId = choose.action.kind === 'choose' ? choose.action.stageId : '';
      // The platform settles (pods Ready, components started) before anyone looks.
      void sim.settle().then(() => {
        const id = answer(entry.stages.find((s) => s.id === stageId), sim.symptoms().includes(entry.id));
        const a = q.answers.find((x) => x.action.kind === 'choose' && x.action.choiceId === id) ?? q.answers[0]!;
        perform(a.action);
      });
      return;
    }
    const approve = q.answers.find((a) => a.action.kind === 'approve');
    perform((approve ?? q.answers.find((a) => a.action.kind === 'stop') ?? q.answers[0]!).action);
  };
  const lifecycle = terminalLifecycle({ config, logger: silent, user: 'terminal:alice', io: { print: (t) => lines.push(t), ask, settled: (id, done) => done && ended(id) } });
  try {
    await lifecycle.coordinator.start();
    const started = await lifecycle.coordinator.requestFix({ entryId: entry.id, cluster: 'simulated', requestedBy: 'terminal:alice', params: walks[entry.id]?.params?.(sim) ?? {}, context: {} });
    if (!started.ok) return { transcript: started.message, status: 'refused' };
    const id = await settled;
    let record = await lifecycle.coordinator.store.get(id);
    for (let i = 0; i < 40 && !finishedStatuses.has(record?.status ?? ''); i++) record = await new Promise((r) => setTimeout(r, 50)).then(() => lifecycle.coordinator.store.get(id));
    return { transcript: lines.join('\n'), status: record?.status ?? 'gone', ...(record?.outcome ? { outcome: record.outcome } : {}) };
  } finally {
    await worker.close();
    await lifecycle.close();
    const redis = new Redis(testRedisUrl);
    await deletePrefix(redis, queuePrefix);
    redis.disconnect();
  }
}

/** Entries whose symptom is a person lacking the admin password: nothing is broken, the walk shows it to them. */
const nothingBroken = new Set(['admin-password', 'admin-password-no-base64']);
const walked = catalogue.filter((e) => automatic(e).length > 0);
const started = Date.now();
afterAll(() => console.log(`demo walk of ${walked.length} entries: ${((Date.now() - started) / 1000).toFixed(1)} s`));

describe('every entry with cluster, dashboard or database steps runs in the demo, from broken to healthy', () => {
  it.each(walked.map((e) => [e.id, e] as const))('%s', async (_id, entry) => {
    // Volumes grow within the remedy's look at them (a real resize, and the demo's, takes longer: 20 s).
    const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30, volumeResizeMs: 300, database: localDatabase });
    try {
      // The broken state `--broken ENTRY` gives: the entry's symptom, and the platform version its remedy needs.
      const breakable = faultEntries.some((f) => f.entryId === entry.id);
      if (!nothingBroken.has(entry.id)) {
        expect(breakable || versionGates[entry.id] !== undefined, `--broken ${entry.id}`).toBe(true);
        await breakForDemo(sim, walks[entry.id]?.broken ?? entry.id);
      }
      if (breakable) expect(sim.symptoms(), 'broken').toEqual([entry.id]);

      const { transcript, status, outcome } = await walk(entry, sim);
      expect(status, `${outcome ?? ''}\n${transcript}`).toBe('resolved');
      await sim.settle();
      await walks[entry.id]?.fixed?.(sim, transcript);
      expect(sim.symptoms(), 'healthy').toEqual([]);
    } finally {
      await sim.close();
    }
  });

  it('walks every such entry, and the others have only steps a person does', () => {
    expect(walked.map((e) => e.id).sort()).toEqual(Object.keys(walks).sort());
    for (const entry of catalogue.filter((e) => !walks[e.id])) expect(automatic(entry).map((s) => s.kind), entry.id).toEqual([]);
  });
});
