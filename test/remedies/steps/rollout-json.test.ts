import { describe, expect, it } from 'vitest';
import { findJsonBreak, unambiguousRepair } from '../../../src/remedies/steps/json-repair.js';
import { harness, linesOf, refs } from './support.js';

const ns = 'devtroncd';
const annotation = 'kubectl.kubernetes.io/last-applied-configuration';

describe('where a JSON document breaks, and when its repair is unambiguous', () => {
  it('gives line, column and an excerpt', () => {
    const text = '{\n  "a": 1,\n  "b": ,\n  "c": 3\n}';
    expect(findJsonBreak(text)).toMatchObject({ line: 3, column: 8, message: 'unexpected "," where a value should be', excerpt: '{⏎  "a": 1,⏎  "b": ⟨here⟩,⏎  "c": 3⏎}' });
    expect(findJsonBreak('{"a":[1,2]}')).toBeUndefined();
  });

  it('repairs a single trailing comma, and closing brackets missing at the very end', () => {
    expect(unambiguousRepair('{"a":{"b":1},}')).toEqual({ text: '{"a":{"b":1}}', does: 'remove the trailing comma at line 1, column 13' });
    expect(unambiguousRepair('{"a":[1,2,]}')).toEqual({ text: '{"a":[1,2]}', does: 'remove the trailing comma at line 1, column 10' });
    expect(unambiguousRepair('{"a":{"b":[1\n')).toEqual({ text: '{"a":{"b":[1]}}\n', does: 'append the missing "]" "}" "}" at the end' });
  });

  it('offers nothing for a lost value, a missing quote, two trailing commas, a dangling comma at the end, or an extra closer', () => {
    for (const text of ['{"a":,"b":1}', '{"a":"x,"b":1}', '{"a":[1,],"b":2,}', '{"a":1,', '{"a":1}}']) {
      expect(unambiguousRepair(text), text).toBeUndefined();
    }
    expect(unambiguousRepair('{"a":",}"}')).toBeUndefined(); // valid JSON: nothing to repair
    // A comma inside a string is not a trailing comma; the only break is the missing closer.
    expect(unambiguousRepair('{"a":"x,}"')).toEqual({ text: '{"a":"x,}"}', does: 'append the missing "}" at the end' });
  });
});

describe('rollout-invalid-json (entry 25)', () => {
  it('repairs a trailing comma in a rollout annotation with a merge patch, and the rollouts hold valid JSON', async () => {
    const { sim, plan, run } = await harness();
    await sim.break('rollout-invalid-json');
    expect(sim.symptoms()).toEqual(['rollout-invalid-json']);
    const p = await plan('rollout-invalid-json');
    expect(p.blocked).toBeUndefined();
    expect(p.steps[0]!.lines[0]).toMatch(/^Rollout `devtroncd\/payments-api`: invalid JSON at line 1, column \d+: a trailing comma before "}" — `.*⟨here⟩,}.*`; repair: remove the trailing comma at line 1, column \d+$/);
    const { outcome } = await run(p);
    expect(outcome.status).toBe('completed');
    const text = sim.get(refs.rollouts, ns, 'payments-api').metadata.annotations[annotation];
    expect(JSON.parse(text)).toMatchObject({ kind: 'Rollout', metadata: { name: 'payments-api' } });
    expect(sim.symptoms()).toEqual([]);
  });

  it('blocks with the exact location and the checklist when a break is ambiguous', async () => {
    const { sim, plan } = await harness();
    await sim.break('rollout-invalid-json', { ambiguous: true });
    const p = await plan('rollout-invalid-json');
    expect(p.blocked).toMatch(/^Fix by hand: orders-web \(line 1, column \d+\) — the JSON breaks in a way with more than one plausible repair\. See the checklist\.$/);
    expect(linesOf(p)).toMatch(/Rollout `devtroncd\/orders-web`: invalid JSON at line 1, column \d+: unexpected "," where a value should be — `.*"replicas":⟨here⟩,.*`; no unambiguous repair/);
    expect(linesOf(p)).toContain('☐ paste it into a JSON validator and fix it at the place shown');
  });

  it('stops when the annotation changed after the plan', async () => {
    const { sim, plan, run } = await harness();
    await sim.break('rollout-invalid-json');
    const p = await plan('rollout-invalid-json');
    const { CustomObjectsApi, PatchStrategy, setHeaderOptions } = await import('@kubernetes/client-node');
    sim.setPolicy(undefined);
    await sim.kubeConfig().makeApiClient(CustomObjectsApi).patchNamespacedCustomObject(
      { group: 'argoproj.io', version: 'v1alpha1', plural: 'rollouts', namespace: ns, name: 'payments-api', body: { metadata: { annotations: { [annotation]: '{"fixed":"by hand"' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const { outcome } = await run(p);
    expect(outcome.status).toBe('changed');
    expect(sim.get(refs.rollouts, ns, 'payments-api').metadata.annotations[annotation]).toBe('{"fixed":"by hand"');
  });
});
