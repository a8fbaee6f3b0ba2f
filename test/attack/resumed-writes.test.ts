import { describe, expect, it } from 'vitest';
import { runStep } from '../../src/remedies/steps/index.js';
import { harness } from '../remedies/steps/support.js';

/**
 * A worker killed after a step's write but before its ledger recorded the step done: the next worker runs
 * that step again (runner.ts, runPlan), which must find its own write done, not take it for someone else's
 * change, tell the thread that nothing was touched, and stop the remedy.
 */
describe('a step run again after its worker died between its write and its ledger', () => {
  const cases: { entry: string; kind: string; params: Record<string, string> }[] = [
    { entry: 'database-image-pull', kind: 'patchStatefulSetImages', params: {} },
    { entry: 'git-sensor-volume-full', kind: 'growClaim', params: { size: '20Gi' } },
    { entry: 'upload-too-large', kind: 'annotate', params: { size: '200m' } },
    { entry: 'upgrade-cannot-patch-database', kind: 'labelForChartManager', params: {} },
  ];
  for (const c of cases) {
    it(`${c.kind} (${c.entry}): finds its change made and says so, not "changed since the plan … not touched"`, async () => {
      // Given: the stage planned, and its steps up to and including this one carried out once.
      const { sim, plan, ctx } = await harness({ volumeResizeMs: 50 });
      await sim.break(c.entry);
      const p = await plan(c.entry, c.params);
      const at = p.steps.findIndex((s) => s.kind === c.kind);
      for (const s of p.steps.slice(0, at + 1)) expect((await runStep(ctx, s)).status).not.toMatch(/failed|changed/);

      // When: the next worker runs the interrupted step again.
      const again = await runStep(ctx, p.steps[at]!);

      // Then: it is not reported as a change by someone else with nothing done, and the remedy may go on.
      expect(again.message).not.toMatch(/not touched|not annotated|changed since the plan|stopped there/);
      expect(again.status).toMatch(/done|skipped/);
    });
  }
});
