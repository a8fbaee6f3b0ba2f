import { describe, expect, it } from 'vitest';
import { newSealingKey, seal } from '../../src/jobs/sealing.js';
import { runPlan, type StepLedger, type StepProgress } from '../../src/remedies/runner.js';
import { runStep } from '../../src/remedies/steps/index.js';
import { harness, refs } from '../remedies/steps/support.js';

const ns = 'devtroncd';

/** A ledger as a worker killed in the middle of `index` leaves it: the steps before done, that one started. */
function killedIn(index: number): StepLedger {
  const states = new Map<number, 'started' | 'done'>();
  for (let i = 0; i < index; i++) states.set(i, 'done');
  states.set(index, 'started');
  return {
    state: async (i) => states.get(i),
    started: async (i) => void states.set(i, 'started'),
    done: async (i) => void states.set(i, 'done'),
  };
}

describe('a worker killed after removing the secret keys, before it recorded the step done', () => {
  it('the next worker says the keys are already gone and goes on, not "no backup made, no key removed"', async () => {
    // Given: the admin password reset planned and approved, and a worker that made the backup and removed
    // the keys, then died before its ledger said so.
    const { sim, plan, ctx } = await harness();
    await sim.break('admin-password-reset');
    const p = await plan('admin-password-reset');
    const removal = p.steps[1]!;
    expect(removal.kind).toBe('removeSecretKeys');
    expect(await runStep(ctx, removal)).toMatchObject({ status: 'done' });
    expect(sim.list(refs.secrets, ns, 'platform-medic.dev/backup-of=devtron-secret')).toHaveLength(1);

    // When: the next worker resumes the run at that step.
    const progress: StepProgress[] = [];
    const key = newSealingKey();
    const outcome = await runPlan({ ...ctx, seal: (plain) => seal(key.publicKey, plain) }, p, 1, { report: async (x) => void progress.push(x), ledger: killedIn(1) });

    // Then: the thread does not claim that nothing was backed up or removed, and the remedy goes on to restart
    // the identity server and reveal the new password, with no second backup.
    const said = progress.filter((x) => x.index === 1 && x.status !== 'started').map((x) => x.message).join('\n');
    expect(said).not.toMatch(/no backup made|no key removed/);
    expect(said).toMatch(/already gone/);
    expect(outcome).toMatchObject({ status: 'completed' });
    expect(sim.list(refs.secrets, ns, 'platform-medic.dev/backup-of=devtron-secret')).toHaveLength(1);
  });
});
