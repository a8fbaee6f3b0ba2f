import { afterEach, describe, expect, it } from 'vitest';
import { localDatabase, startSimulatedCluster } from '../../src/cluster/sim/index.js';
import { pipedSessions } from '../support/terminal-session.js';

const sessions = pipedSessions('terminal-fix-params');
afterEach(() => sessions.cleanup());

describe('a fix that needs a value, at the terminal', () => {
  it("the doctor's line to type names metricsStore with a slot; typed as it is, and bare, each answer says what to put", async () => {
    const sim = sessions.own(await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30, hideMarkers: true }));
    await sim.break('dashboards-missing');
    const hint = 'fix dashboards-missing simulated metricsStore=<metrics-store-URL>';
    const transcript = await sessions.run(sim, ['doctor', hint, 'fix dashboards-missing']);
    expect(transcript).toContain(`Type "${hint}".`);
    expect(transcript).toContain('Plan fix needs a value the button cannot carry: metricsStore, the metrics store endpoint registered for the cluster (e.g. http://prometheus-server.monitoring.svc:80).');
    expect(transcript).toContain('metricsStore=<metrics-store-URL> is not valid: the metrics store endpoint registered for the cluster, e.g. metricsStore=http://prometheus-server.monitoring.svc:80.');
    expect(transcript).toContain(`metricsStore is required: the metrics store endpoint registered for the cluster, e.g. metricsStore=http://prometheus-server.monitoring.svc:80. Type /platform ${hint}, with the value in place of <metrics-store-URL>.`);
    expect(transcript).not.toContain('Approve this plan?');
  });

  it("the doctor's line to type names the database its evidence shows, and typed as shown it plans the drop of that database", async () => {
    const sim = sessions.own(await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30, hideMarkers: true, database: localDatabase }));
    await sim.break('database-drop-blocked');
    const [name] = sim.database?.blockedDatabases() ?? [];
    expect(name).toMatch(/^medic_demo_/);
    const line = `fix database-drop-blocked simulated database=${name}`;
    const transcript = await sessions.run(sim, ['doctor', line]);
    expect(transcript).toContain(`database/${localDatabase.host}:${localDatabase.port}/${name} DROP DATABASE refused`);
    expect(transcript).toContain(`Type "${line}".`);
    expect(transcript).not.toContain('<database-name>');
    // The value is in the line: nothing asks for it.
    expect(transcript).not.toContain('Plan fix needs a value');
    expect(transcript).toContain(`• drop database "${name}"`);
  });
});
