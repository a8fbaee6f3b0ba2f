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

  it("after a remedy that clears its symptom, shows the entry checked again and cleared, not the doctor's stale \"present\"", async () => {
    const sim = sessions.own(await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30, hideMarkers: true }));
    await sim.break('git-sensor-stuck');
    await sim.settle();
    const session = sessions.typed(sim);
    await session.until(/platform> /);
    await session.type('doctor');
    await session.until(/Checked \d+ entries/);
    await session.type('fix git-sensor-stuck');
    await session.until(/Approve this plan\?/);
    await session.type('a');
    await session.until(/🎉 Symptom cleared/);
    await session.type('status');
    await session.until(/you see every open remedy\./);
    await session.type('quit');
    await session.ended;
    const after = session.text().split('Open remedies').at(-1)!;
    // The doctor's run saw it; the remedy's own look since is what holds now.
    expect(after).toMatch(/simulated: 1 symptom present at the last doctor [^\n]*:\n• git-sensor-stuck \(guide 7\.10\) — /);
    expect(after).toMatch(/\n• git-sensor-stuck checked again \d{4}-\d\d-\d\d \d\d:\d\d UTC after remedy r[a-z0-9]+: cleared\n/);
  }, 60_000);
});
