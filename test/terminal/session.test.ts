import { afterEach, describe, expect, it } from 'vitest';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';
import { stripControl } from '../../src/terminal/session.js';
import { pipedSessions } from '../support/terminal-session.js';

const sessions = pipedSessions('terminal');
afterEach(() => sessions.cleanup());

/** Runs a terminal session fed with `script` (piped, as `printf … | npm start` would) and returns its transcript. */
const session = (sim: SimulatedCluster, script: string[]): Promise<string> => sessions.run(sim, script);

describe('the terminal adapter', () => {
  it('takes the same commands, asks for approval by prompt, and repairs build logs in the simulated cluster', async () => {
    const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
    sessions.own(sim);
    await sim.break('build-logs');
    const transcript = await session(sim, ['list', 'fix build-log', 'fix build-logs', 'a', '1', 'cluster']);

    expect(transcript).toContain('build-logs (guide 7.4) — Build logs not visible and build cannot be aborted');
    expect(transcript).toContain('There is no remedy build-log in the catalogue. Closest: build-logs');
    expect(transcript).toContain('== Approve: Restart the main platform pods and the build-event watcher ==');
    expect(transcript).toMatch(/Approve this plan\? \[a\]pprove \/ \[d\]eny > a/);
    expect(transcript).toContain('Approved by terminal:alice; running.');
    expect(transcript).toContain('✅ Step 2 of 4: Deleted 2 pod(s); replacements are Ready with new uids.');
    expect(transcript).toContain('⏳ Step 3 of 4: Waiting 0.2 s');
    expect(transcript).toMatch(/Are the build logs visible now\? \[1\] Logs visible \/ \[2\] Still failing > 1/);
    expect(transcript).toContain('🎉 Resolved: Build logs are visible again.');
    expect(transcript).toContain('symptoms: none');
    expect(sim.symptoms()).toEqual([]);
  });

  it('still takes commands while a question waits, and keeps the question', async () => {
    const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
    sessions.own(sim);
    const transcript = await session(sim, ['fix git-sensor-stuck', 'cluster', 'explain 7.10', 'a']);
    expect(transcript).toMatch(/symptoms: none\n\(still waiting\) \[git-sensor-stuck r\w+\] Approve this plan\?/);
    expect(transcript).toContain('== Latest commit not fetched; auto build not triggered ==');
    expect(transcript).toContain('✅ Step 1 of 2: Deleted 1 pod(s); replacements are Ready with new uids.');
  });

  it('lets a second person approve destructive steps by name, never the operator alone', async () => {
    const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
    sessions.own(sim);
    await sim.break('gitops-certificate-expired');
    const transcript = await session(sim, ['fix gitops-certificate-expired', 'alice', 'bob']);
    expect(transcript).toContain('Destructive steps need a second person: the second approver types their name to approve, or d to deny > alice');
    expect(transcript).toContain('That name is not a second person. The second approver types their own name.');
    expect(transcript).toContain('Approved by terminal:bob; running.');
    expect(transcript).toContain('Stage done: every step finished.');
    expect(sim.symptoms()).toEqual([]);
  });

  it('cancels a remedy of the session with `cancel`', async () => {
    const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
    sessions.own(sim);
    const transcript = await session(sim, ['fix git-sensor-stuck', 'cancel']);
    expect(transcript).toMatch(/🛑 Cancelled by terminal:alice\. Steps already done stay done; nothing else will run\./);
    expect(sim.requests().filter((r) => r.method === 'DELETE')).toHaveLength(0);
  });

  it('answers a stray answer letter and a word that is no remedy id for what they are, not as a pasted error or a lost remedy', async () => {
    const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
    sessions.own(sim);
    const transcript = await session(sim, ['a', 'cancel nothing']);
    expect(transcript).toContain('Nothing is waiting for an answer: no remedy of this session asked a question. Type "help" for the commands.');
    expect(transcript).toContain('That is not a remedy\'s id (r and ten letters or digits). "status" lists the open remedies with their ids;');
    expect(transcript).not.toContain('No catalogued remedy matches this');
    expect(transcript).not.toContain('no longer known');
  });

  it('removes terminal control sequences from what it prints', () => {
    expect(stripControl('fix \u001b[2Jboom\u001b]0;pwned\u0007 ok\u0000')).toBe('fix boom ok');
    expect(stripControl('two\nlines\tand a tab')).toBe('two\nlines\tand a tab');
  });

  it('does nothing when the plan is denied', async () => {
    const sim = await startSimulatedCluster({ recreateDelayMs: 30, readyDelayMs: 30 });
    sessions.own(sim);
    await sim.break('git-sensor-stuck');
    const uid = sim.get({ group: '', version: 'v1', plural: 'pods' }, 'devtroncd', 'git-sensor-0')?.metadata?.uid;
    const transcript = await session(sim, ['fix git-sensor-stuck', 'maybe', 'd']);
    expect(transcript).toContain('Please answer one of: a (approve), d (deny).');
    expect(transcript).toContain('Denied by terminal:alice; nothing was done.');
    expect(sim.get({ group: '', version: 'v1', plural: 'pods' }, 'devtroncd', 'git-sensor-0')?.metadata?.uid).toBe(uid);
    expect(sim.symptoms()).toEqual(['git-sensor-stuck']);
  });
});
