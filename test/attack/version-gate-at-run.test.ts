import { describe, expect, it } from 'vitest';
import { runPlan, type StepProgress } from '../../src/remedies/runner.js';
import { harness, refs } from '../remedies/steps/support.js';

describe('the platform moved below a remedy\'s version gate between its plan and its run', () => {
  it('the run stops before the destructive step, saying why, instead of "the platform runs v0.6.29, as this remedy needs"', async () => {
    // Given: the admin password reset of v0.6.9 and later, planned (and approved) on v0.6.29.
    const { sim, plan, ctx } = await harness();
    await sim.break('admin-password-reset');
    const p = await plan('admin-password-reset');
    expect(p.blocked).toBeUndefined();
    const keysBefore = Object.keys(sim.get(refs.secrets, 'devtroncd', 'devtron-secret').data).sort();

    // When: the installer is rolled back to a version before 0.6.9 (where the other reset applies), then the run starts.
    const rolledBack = sim.meetVersionGate('admin-password-reset-legacy');
    expect(rolledBack).toMatch(/^v0\.6\.[0-8]$/);
    const progress: StepProgress[] = [];
    const outcome = await runPlan(ctx, p, 0, async (x) => void progress.push(x));

    // Then: nothing is done, and the thread says the version no longer allows the remedy.
    expect(outcome).toMatchObject({ status: 'changed' });
    expect(outcome.status === 'changed' && outcome.details.join('\n')).toContain(`this cluster runs ${rolledBack}`);
    expect(progress.filter((x) => x.status !== 'started')).toEqual([]);
    expect(Object.keys(sim.get(refs.secrets, 'devtroncd', 'devtron-secret').data).sort()).toEqual(keysBefore);
    expect(sim.list(refs.secrets, 'devtroncd', 'platform-medic.dev/backup-of=devtron-secret')).toHaveLength(0);
  });
});
