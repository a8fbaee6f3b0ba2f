import { createHash } from 'node:crypto';
import { z } from 'zod';
import { customKinds, type CustomObject } from '../../cluster/gateway.js';
import { findJsonBreak, unambiguousRepair } from './json-repair.js';
import { defineStep } from './kind.js';
import { rolloutsAbsent } from './resource-types.js';
import { stepBase } from './step.js';
import { code, writeWithOneRetry } from './support.js';

export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

const repair = z.object({ name: z.string(), uid: z.string(), sha256: z.string(), text: z.string() });
const schema = z.object({ namespace: z.string(), repairs: z.array(repair) });

/** Entry 25: check the last-applied-configuration JSON of the rollouts; repair only when unambiguous. */
const checkLastAppliedStep = z.strictObject({ ...stepBase, kind: z.literal('checkLastAppliedJson') });
export type CheckLastAppliedStep = z.infer<typeof checkLastAppliedStep>;

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const annotationOf = (r: CustomObject | undefined) => r?.metadata.annotations?.[lastAppliedAnnotation];

/** What a person does when the break has more than one plausible fix. */
const checklist = [
  `copy the annotation: kubectl get rollout <name> -n <namespace> -o jsonpath='{.metadata.annotations.kubectl\\.kubernetes\\.io/last-applied-configuration}'`,
  'paste it into a JSON validator and fix it at the place shown',
  `write it back: kubectl annotate rollout <name> -n <namespace> --overwrite ${lastAppliedAnnotation}='<fixed JSON>'`,
  'check the rollout syncs again in the dashboard',
];

/**
 * Entry 25: reads the last-applied-configuration of every rollout in the platform namespace, says
 * exactly where each broken one breaks, and repairs it (a merge patch of the annotation) only when the
 * repair is unambiguous (see unambiguousRepair). Any other break blocks the plan with its location and
 * the checklist to fix it by hand. Only the platform namespace: listing and patching rollouts in every
 * namespace would need cluster-wide rights over every application.
 */
export const checkLastAppliedJson = defineStep({
  kind: 'checkLastAppliedJson',
  step: checkLastAppliedStep,
  data: schema,
  parameters: () => [],
  permissions: () => [{ apiGroup: 'argoproj.io', resource: 'rollouts', verbs: ['list', 'patch'], scope: 'platformNamespace' }],
  needsType: () => ({ kind: customKinds.rollout, meaning: `${rolloutsAbsent}, so no rollout can carry the broken annotation on this cluster` }),
  async plan(ctx) {
    const namespace = ctx.names.platformNamespace;
    const rollouts = await ctx.gateway.custom.list(customKinds.rollout, namespace);
    const lines: string[] = [];
    const repairs: z.infer<typeof repair>[] = [];
    const byHand: string[] = [];
    for (const r of rollouts) {
      const text = annotationOf(r);
      const shown = `Rollout ${code(`${namespace}/${r.metadata.name}`)}`;
      if (text === undefined) continue;
      const broken = findJsonBreak(text);
      if (!broken) {
        lines.push(`${shown}: last-applied-configuration is valid JSON`);
        continue;
      }
      const where = `line ${broken.line}, column ${broken.column}: ${broken.message} — ${code(broken.excerpt)}`;
      const fix = unambiguousRepair(text);
      if (fix) {
        lines.push(`${shown}: invalid JSON at ${where}; repair: ${fix.does}`);
        repairs.push({ name: r.metadata.name, uid: r.metadata.uid ?? '', sha256: sha(text), text: fix.text });
      } else {
        lines.push(`${shown}: invalid JSON at ${where}; no unambiguous repair`);
        byHand.push(`${r.metadata.name} (line ${broken.line}, column ${broken.column})`);
      }
    }
    if (lines.length === 0) lines.push(`no rollout in ${code(namespace)} carries a last-applied-configuration`);
    const targets = repairs.map((x) => ({ kind: 'Rollout', namespace, name: x.name, uid: x.uid, state: 'invalid last-applied-configuration', pin: `sha256=${x.sha256.slice(0, 16)}` }));
    const data = { namespace, repairs };
    if (byHand.length > 0) {
      lines.push(...checklist.map((c) => `☐ ${c}`));
      return { lines, targets, data, blocked: `Fix by hand: ${byHand.join('; ')} — the JSON breaks in a way with more than one plausible repair. See the checklist.` };
    }
    for (const x of repairs) await ctx.gateway.custom.mergePatch(customKinds.rollout, namespace, x.name, { metadata: { annotations: { [lastAppliedAnnotation]: x.text } } }, true);
    return { lines, targets, data };
  },
  async run(ctx, planned) {
    const { namespace, repairs } = planned.data;
    if (repairs.length === 0) return { status: 'skipped', message: 'Every rollout carries valid JSON; nothing repaired.' };
    const find = async (name: string) => (await ctx.gateway.custom.list(customKinds.rollout, namespace)).find((r) => r.metadata.name === name);
    const holds = (r: CustomObject | undefined, x: z.infer<typeof repair>) => r !== undefined && r.metadata.uid === x.uid && sha(annotationOf(r) ?? '') === x.sha256;
    const details: string[] = [];
    for (const x of repairs) {
      const r = await find(x.name);
      if (!holds(r, x)) return { status: 'changed', message: `Rollout ${namespace}/${x.name} changed since the plan; not repaired.`, details };
      const written = await writeWithOneRetry(
        r?.metadata.resourceVersion ?? '',
        (rv) => ctx.gateway.custom.mergePatch(customKinds.rollout, namespace, x.name, { metadata: { resourceVersion: rv, annotations: { [lastAppliedAnnotation]: x.text } } }),
        async () => {
          const again = await find(x.name);
          return holds(again, x) ? again?.metadata.resourceVersion : undefined;
        },
      );
      if (!written.ok) return { status: 'changed', message: `Rollout ${namespace}/${x.name} was changed by someone else meanwhile; not repaired.`, details };
      if (findJsonBreak(annotationOf(written.value) ?? '')) return { status: 'failed', message: `Rollout ${x.name} still carries invalid JSON after the repair.`, details };
      details.push(`repaired the last-applied-configuration of ${x.name}`);
    }
    return { status: 'done', message: `Repaired ${repairs.length} rollout annotation(s); the rollouts sync again on their next refresh.`, details };
  },
});
