import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster } from '../../src/cluster/sim/index.js';
import { pipedSessions } from '../support/terminal-session.js';

const sessions = pipedSessions('terminal-status');
afterEach(() => sessions.cleanup());

describe('status in the terminal', () => {
  it('shows the open remedy while its approval waits, and after doctor the result and its time', async () => {
    const sim = sessions.own(await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30, hideMarkers: true }));
    await sim.break('rollout-invalid-json');
    const transcript = await sessions.run(sim, ['status', 'fix git-sensor-stuck', 'status', 'd', 'doctor', 'status']);
    const [first, during, after] = transcript.split('Open remedies').slice(1);

    expect(first).toContain(' (0)\nNo open remedy.');
    expect(first).toContain('simulated: the doctor has never run here. /platform doctor simulated checks it.');
    // While its approval waits: the entry, the state and since when, who asked, and its id (`cancel <id>`).
    expect(during).toMatch(/ \(1\)\ngit-sensor-stuck on simulated · awaiting approval since \d{4}-\d\d-\d\d \d\d:\d\d UTC · asked by terminal:alice · r[a-z0-9]+\n/);
    expect(during).toContain('You approve on every cluster: you see every open remedy.');
    expect(during).toMatch(/\(still waiting\) \[git-sensor-stuck r\w+\] Approve this plan\?/);
    // Denied, it has ended; the doctor's result is kept.
    expect(after).toContain(' (0)\nNo open remedy.');
    expect(after).toMatch(/simulated: 1 symptom present at the last doctor \(\d{4}-\d\d-\d\d \d\d:\d\d UTC, asked by terminal:alice, \d+ entries in [\d.]+ m?s\):\n• rollout-invalid-json \(guide 7\.25\) — rollout\/devtroncd\/payments-api /);
  });
});
