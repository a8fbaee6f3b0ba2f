import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster } from '../../src/cluster/sim/index.js';
import { pipedSessions } from '../support/terminal-session.js';

const sessions = pipedSessions('terminal-paste-size');
afterEach(() => sessions.cleanup());

describe('a paste larger than the bot reads, at the terminal', () => {
  it('is refused with its size and the limit, as the CLI and a shared file are, and the session goes on', async () => {
    const sim = sessions.own(await startSimulatedCluster({ hideMarkers: true }));
    // 11 MB of a log line that names the guide's own symptom: over the 10 MB a shared file or the CLI reads.
    const line = 'build logs are not visible and the build cannot be aborted '.repeat(Math.ceil((11 * 1024 * 1024) / 59));
    const transcript = await sessions.run(sim, [line, 'list']);
    expect(transcript).toContain('That paste is 11.0 MB; I read pastes up to 10.0 MB, as shared files. Paste the part around the error.');
    // Not matched at all: no answer of the matcher, neither a remedy nor "no catalogued remedy".
    expect(transcript).not.toContain('No catalogued remedy');
    expect(transcript).not.toContain('Plan fix');
    expect(transcript).toContain('build-logs (guide 7.4) — Build logs not visible and build cannot be aborted');
  });

  it('names a paste just over the limit in bytes, not as "10.0 MB" over a 10.0 MB limit', async () => {
    const sim = sessions.own(await startSimulatedCluster({ hideMarkers: true }));
    const transcript = await sessions.run(sim, ['x'.repeat(10 * 1024 * 1024 + 1)]);
    expect(transcript).toContain('That paste is 10,485,761 bytes, over the 10,485,760; I read pastes up to 10.0 MB, as shared files.');
  });
});
