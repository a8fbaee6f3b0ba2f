import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster } from '../../src/cluster/sim/index.js';
import { pipedSessions } from '../support/terminal-session.js';

const sessions = pipedSessions('terminal-evidence');
afterEach(() => sessions.cleanup());

describe("the terminal's answer to a pasted error, with the cluster's evidence", () => {
  it('prints the text answer, then what the simulated cluster shows: the one seen decides, a fix not seen is not proposed', async () => {
    const sim = sessions.own(await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30, hideMarkers: true }));
    await sim.settle();
    await sim.break('build-logs');
    await sim.settle();
    const transcript = await sessions.run(sim, ['build logs not visible, commits not visible either', 'job has reached the specified backoff limit postgresql-migrate-devtron', 'build logs are not streaming and I cannot abort the build (cluster: prod-ap)']);

    // An ask between two entries, then the cluster's part below it: build-logs is broken, commits-exit-128 is not.
    const ask = transcript.indexOf('🤔 These entries fit about equally well');
    const decided = transcript.indexOf('The cluster decides: build-logs is the one seen. Type fix build-logs to plan it.');
    expect(ask).toBeGreaterThanOrEqual(0);
    expect(decided).toBeGreaterThan(ask);
    expect(transcript).toContain('🩺 Checking simulated for these symptoms (read-only)…');
    expect(transcript).toMatch(/🩺 In simulated:\nbuild-logs: seen in simulated: \S+ .+\ncommits-exit-128: not seen in simulated right now\n/);

    // A clear text match whose symptom the cluster does not show: printed, then not proposed.
    expect(transcript).toMatch(/🔎 Unauthorized error when saving global configuration after install \(install-jobs-failed, guide 7\.1\) — confidence \d+%/u);
    expect(transcript).toContain('install-jobs-failed: not seen in simulated right now');
    expect(transcript).toContain('install-jobs-failed is not seen in simulated right now, so I am not proposing its fix; type fix install-jobs-failed to plan it anyway if you know better.');
    expect(transcript.indexOf('install-jobs-failed is not seen')).toBeGreaterThan(decided);

    // A cluster that is not configured: said with the answer, nothing read.
    expect(transcript).toContain('🩺 Cluster evidence unavailable: There is no cluster prod-ap. Configured clusters: simulated. This answer is from the text alone.');
  });
});
