import { describe, expect, it } from 'vitest';
import { runPlan, type StepProgress } from '../../src/remedies/runner.js';
import { generatedPolicy, harness } from '../remedies/steps/support.js';
import { defaultPlatformNames } from '../../src/platform-names.js';

describe('a step that deletes several pods, refused on the second', () => {
  it('says which pods it deleted before the refusal, not only the refusal', async () => {
    // Given: the brokers' restart planned, and a cluster whose RBAC lets the worker delete only the first broker.
    const { sim, plan, ctx } = await harness();
    const p = await plan('build-logs', {}, 'restart-brokers');
    const step = p.steps.find((s) => s.kind === 'deletePods')!;
    expect(step.targets.map((t) => t.name)).toEqual(['devtron-nats-0', 'devtron-stan-0']);
    const policy = generatedPolicy(defaultPlatformNames);
    const rules = policy.namespaceRules['devtroncd']!.map((r) =>
      r.resources.includes('pods') && r.verbs.includes('delete') ? { ...r, verbs: r.verbs.filter((v) => v !== 'delete') } : r,
    );
    sim.setPolicy({ ...policy, namespaceRules: { ...policy.namespaceRules, devtroncd: [...rules, { apiGroups: [''], resources: ['pods'], verbs: ['delete'], resourceNames: ['devtron-nats-0'] }] } });

    // When: the run deletes them.
    const progress: StepProgress[] = [];
    const outcome = await runPlan(ctx, p, 0, async (x) => void progress.push(x));

    // Then: the step fails, saying that devtron-nats-0 was deleted and why devtron-stan-0 was not.
    expect(outcome).toMatchObject({ status: 'failed', step: step.index });
    const said = progress.filter((x) => x.index === step.index && x.status === 'failed');
    expect(said).toHaveLength(1);
    expect(said[0]!.message).toMatch(/Deleted 1 of 2 pod\(s\).*Permission missing for delete pod devtroncd\/devtron-stan-0/);
    expect(said[0]!.details).toEqual(['deleted pod devtron-nats-0']);
  });
});
