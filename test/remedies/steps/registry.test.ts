import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { catalogue, findEntry } from '../../../src/catalogue/index.js';
import type { CatalogueEntry } from '../../../src/catalogue/model.js';
import { ClusterGateway } from '../../../src/cluster/gateway.js';
import { defaultPlatformNames } from '../../../src/platform-names.js';
import type { StepContext } from '../../../src/remedies/steps/context.js';
import { defineStep } from '../../../src/remedies/steps/kind.js';
import { stepKinds, stepProblems } from '../../../src/remedies/steps/index.js';
import type { EntrySteps } from '../../../src/remedies/steps/registry.js';
import { stepBase, type StepBase } from '../../../src/remedies/steps/step.js';

const stepsDir = fileURLToPath(new URL('../../../src/remedies/steps/', import.meta.url));

/** The entry with its first stage's steps replaced: what a definition with a mistake in a step looks like. */
function withSteps(id: string, steps: StepBase[], params?: CatalogueEntry['params']): EntrySteps {
  const entry = findEntry(id)!;
  return { id: entry.id, params: params ?? entry.params ?? [], stages: [{ id: entry.stages[0]!.id, steps }] };
}

/** A step context on a cluster nobody answers at: for steps that never call it. */
function contextWith(params: Record<string, string>): StepContext {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: 'unused', server: 'http://127.0.0.1:9', skipTLSVerify: true }, { name: 'u', token: 't' });
  return { gateway: new ClusterGateway(kc), names: defaultPlatformNames, pollMs: 10, now: () => new Date(), params };
}

describe('the step kinds', () => {
  it('are exactly the kinds the catalogue uses, each filed under its own name', () => {
    const used = new Set(catalogue.flatMap((e) => e.stages.flatMap((s) => s.steps.map((step) => step.kind))));
    expect(Object.keys(stepKinds).sort()).toEqual([...used].sort());
    for (const [name, kind] of Object.entries(stepKinds)) expect(kind.kind).toBe(name);
  });

  it('are each declared in one file of src/remedies/steps, and every declared kind is registered', () => {
    const declaredIn = new Map<string, string[]>();
    for (const file of readdirSync(stepsDir).filter((f) => f.endsWith('.ts'))) {
      for (const m of readFileSync(stepsDir + file, 'utf8').matchAll(/defineStep\(\{\s*kind: '(\w+)'/g)) declaredIn.set(m[1]!, [...(declaredIn.get(m[1]!) ?? []), file]);
    }
    expect([...declaredIn.keys()].sort()).toEqual(Object.keys(stepKinds).sort());
    for (const [kind, files] of declaredIn) expect({ kind, files: files.length }).toEqual({ kind, files: 1 });
  });

  it("accept every step of the catalogue: each fits its kind's schema and reads only parameters its entry declares", () => {
    expect(stepProblems(catalogue)).toEqual([]);
  });

  it('refuse a step that reads a parameter its entry does not declare', () => {
    const grow = findEntry('git-sensor-volume-full')!.stages.flatMap((s) => s.steps).find((s) => s.kind === 'growClaim')!;
    const misnamed = { ...grow, sizeParam: 'newSize' };
    expect(stepProblems([withSteps('git-sensor-volume-full', [misnamed])])).toEqual([
      'git-sensor-volume-full/grow-claim: a step of kind growClaim uses parameter newSize that the entry does not declare',
    ]);
    // The annotation's value names its parameter inside a nested object; the kind says so, not a pattern over the text.
    const annotate = findEntry('upload-too-large')!.stages[0]!.steps[0]!;
    expect(stepProblems([withSteps('upload-too-large', [annotate], [])])).toEqual([
      'upload-too-large/raise-body-size: a step of kind annotate uses parameter size that the entry does not declare',
    ]);
  });

  it("refuse a step its kind's schema refuses, and a kind no file declares", () => {
    const restart = { kind: 'deletePods', does: 'Restart', risk: 'read-only' as const, targets: [{ by: 'label', namespace: 'platformNamespace', label: 'mainPodLabel' }], verifyWithinSeconds: 60 };
    const problems = stepProblems([withSteps('git-sensor-stuck', [restart, { kind: 'rebootNode', does: 'Reboot', risk: 'restart' }])]);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^git-sensor-stuck\/\S+: a step of kind deletePods is not valid: risk: /);
    expect(problems[1]).toMatch(/: no step kind is named "rebootNode"$/);
  });

  it('let a step read only the parameters its kind declares', async () => {
    const echoStep = z.strictObject({ ...stepBase, kind: z.literal('echo') });
    const echo = defineStep({
      kind: 'echo',
      step: echoStep,
      data: z.object({}),
      permissions: () => [],
      parameters: () => ['size'],
      plan: async (ctx) => ({ lines: Object.entries(ctx.params ?? {}).map(([k, v]) => `${k}=${v}`), targets: [], data: {} }),
      run: async () => ({ status: 'done', message: 'echoed' }),
    });
    const ctx = contextWith({ size: '20Gi', database: 'orchestrator' });
    const planned = await echo.plan(ctx, { kind: 'echo', does: 'Echo', risk: 'read-only' });
    expect(planned.lines).toEqual(['size=20Gi']);
  });

  it('fail a run whose planned data does not fit the kind', async () => {
    const ctx = contextWith({});
    const planned = { index: 1, kind: 'wait', does: 'Wait', risk: 'read-only' as const, approval: 'none' as const, lines: [], targets: [], data: { minutes: 'five' } };
    await expect(stepKinds.wait.run(ctx, planned)).resolves.toMatchObject({ status: 'failed', message: expect.stringMatching(/^The planned data of step 2 is not valid/) });
  });
});
