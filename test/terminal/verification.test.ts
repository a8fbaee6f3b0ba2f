import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster } from '../../src/cluster/sim/index.js';
import { pipedSessions } from '../support/terminal-session.js';

const sessions = pipedSessions('terminal-verify');
afterEach(() => sessions.cleanup());

/** A simulated cluster that shows only real signals (its fault annotation hidden), broken as `entry`. */
async function broken(entry: string) {
  const sim = sessions.own(await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30, hideMarkers: true }));
  await sim.break(entry);
  await sim.settle();
  return sim;
}

describe('the terminal says whether the symptom is gone after a remedy', () => {
  it('prints "symptom cleared" with where the detector looked after a remedy that cures it', async () => {
    const sim = await broken('git-sensor-stuck');
    const transcript = await sessions.run(sim, ['fix git-sensor-stuck', 'a']);
    expect(transcript).toContain('✅ Stage done: every step finished.');
    expect(transcript.indexOf('🩺 Every step finished; the doctor is looking whether the symptom is gone')).toBeGreaterThan(-1);
    expect(transcript.indexOf('🩺 Every step finished; the doctor is looking')).toBeLessThan(transcript.indexOf('✅ Stage done'));
    expect(transcript).toMatch(/🎉 Symptom cleared: the doctor no longer sees it in simulated \(1 look\)\. It read the last \d+ log lines of pod git-sensor-0 in devtroncd\./);
    expect(sim.symptoms()).toEqual([]);
  });

  it('prints "still present" with the evidence, and no "done", after a remedy that leaves the cause', async () => {
    const sim = await broken('metrics-server-tls');
    const transcript = await sessions.run(sim, ['fix metrics-server-tls']);
    expect(transcript).toMatch(/⚠️ Still present: every step finished, but the doctor still sees the symptom in simulated after \d+ looks over \d+\.\d s:\n• deployment\/kube-system\/metrics-server .*args without --kubelet-insecure-tls/);
    expect(transcript).toContain('Not resolved. Do the steps marked "Your turn", then run the doctor again.');
    expect(transcript).not.toMatch(/Stage done|Symptom cleared/);
    expect(sim.symptoms()).toEqual(['metrics-server-tls']);
  });
});
