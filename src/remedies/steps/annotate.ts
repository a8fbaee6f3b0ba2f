import { z } from 'zod';
import { metaResources, type ObjectMetaSummary } from '../../cluster/gateway.js';
import { shownBack } from '../../redact.js';
import { targetSchema } from '../plan.js';
import type { StepContext } from './context.js';
import { defineStep } from './kind.js';
import { platformObjects } from './platform-objects.js';
import { namespaceName, parameterName, stepBase, type Permission } from './step.js';
import { code, paramOf, writeWithOneRetry } from './support.js';

const resource = z.enum(['ingresses', 'services']);

/** Entries 12 and 21: set annotations on an ingress or a service of the platform. */
const annotateStep = z.strictObject({
  ...stepBase,
  kind: z.literal('annotate'),
  resource,
  namespace: namespaceName,
  /** Which object: by the main label's app name, e.g. the platform's ingress and service. */
  select: z.literal('platform'),
  /** Annotation → value, or the parameter whose value it takes (`{}` in the template stands for it). */
  annotations: z.record(z.string(), z.union([z.string(), z.strictObject({ param: parameterName, template: z.string().optional() })])),
});
export type AnnotateStep = z.infer<typeof annotateStep>;

const schema = z.object({ resource, namespace: z.string(), annotations: z.record(z.string(), z.string()), objects: z.array(targetSchema) });
type Data = z.infer<typeof schema>;

/** Checks of the values the guide describes (section 2.3); a message when a value is not valid. */
function invalid(key: string, value: string): string | undefined {
  if (key.endsWith('/proxy-body-size') && !/^[1-9]\d*m$/.test(value)) return `${key} must be an integer followed by m (MiB), e.g. 100m; got "${shownBack(value, 40)}"`;
  if (key === 'cloud.google.com/backend-config') {
    try {
      const parsed = JSON.parse(value) as unknown;
      const name = (parsed as { default?: unknown } | null)?.default;
      if (typeof name !== 'string' || name === '') return `${key} must be a JSON object whose "default" names a backend configuration; got ${shownBack(value)}`;
    } catch {
      return `${key} must be valid JSON; got ${shownBack(value)}`;
    }
  }
  return undefined;
}

/** The annotation values, with parameters and templates filled in (`{"default":"{}"}` → `{"default":"devtron-backendconfig"}`). */
function values(ctx: StepContext, step: AnnotateStep): Record<string, string> | { problem: string } {
  const out: Record<string, string> = {};
  for (const [key, spec] of Object.entries(step.annotations)) {
    let value: string;
    if (typeof spec === 'string') value = spec;
    else {
      const given = paramOf(ctx, spec.param);
      if (given === undefined) return { problem: `give the value of ${spec.param} (parameter ${spec.param}=…)` };
      value = spec.template ? spec.template.replace('{}', given) : given;
    }
    const why = invalid(key, value);
    if (why) return { problem: why };
    out[key] = value;
  }
  return out;
}

/** What the run replaces: the annotations' current values (absent shown as "(none)"). */
const pinOf = (o: ObjectMetaSummary, keys: readonly string[]) => keys.map((k) => `${k}=${o.annotations[k] ?? '(none)'}`).join(';');

/**
 * Entries 12 and 21: sets annotations on the platform's ingress or service (see platformObjects for
 * which ones), showing each value before → after and pinning the values it replaces.
 */
export const annotate = defineStep({
  kind: 'annotate',
  step: annotateStep,
  data: schema,
  parameters: (step) => Object.values(step.annotations).flatMap((spec) => (typeof spec === 'string' ? [] : [spec.param])),
  permissions(step): Permission[] {
    const { apiGroup } = metaResources[step.resource];
    // Finding the platform's ingress means finding the services that route to the main pods first.
    const services: Permission[] = step.resource === 'ingresses' ? [{ apiGroup: '', resource: 'services', verbs: ['list'], scope: step.namespace }] : [];
    return [{ apiGroup, resource: step.resource, verbs: ['list', 'patch'], scope: step.namespace }, ...services];
  },
  async plan(ctx, step) {
    const namespace = ctx.names[step.namespace];
    const kind = metaResources[step.resource].kind;
    const wanted = values(ctx, step);
    const empty: Data = { resource: step.resource, namespace, annotations: {}, objects: [] };
    if ('problem' in wanted) return { lines: [step.does], targets: [], data: empty, blocked: `Cannot set the annotation: ${wanted.problem}.` };
    const objects = await platformObjects(ctx, step.resource, namespace);
    if (objects.length === 0) {
      return { lines: [step.does], targets: [], data: empty, blocked: `No ${kind} in ${namespace} routes to the main platform pods (${ctx.names.mainPodLabel}); nothing to annotate.` };
    }
    const keys = Object.keys(wanted);
    const lines: string[] = [];
    const targets = [];
    for (const o of objects) {
      for (const key of keys) {
        const before = o.annotations[key];
        const shown = `${kind} ${code(`${namespace}/${o.name}`)}: annotation ${code(key)}`;
        lines.push(before === wanted[key] ? `${shown}: already ${code(before ?? "")}` : `${shown}: ${before === undefined ? '(none)' : code(before)} → ${code(wanted[key]!)}`);
      }
      if (keys.every((k) => o.annotations[k] === wanted[k])) continue;
      await ctx.gateway.metadata.patch(step.resource, namespace, o.name, { annotations: wanted }, o.resourceVersion, true);
      targets.push({ kind, namespace, name: o.name, uid: o.uid, state: `${Object.keys(o.annotations).length} annotation(s)`, pin: pinOf(o, keys) });
    }
    return { lines, targets, data: { resource: step.resource, namespace, annotations: wanted, objects: targets } };
  },
  async run(ctx, planned) {
    const { resource, namespace, annotations, objects } = planned.data;
    if (objects.length === 0) return { status: 'skipped', message: 'The annotations were already set.' };
    const keys = Object.keys(annotations);
    const current = async (t: { name: string }) => (await ctx.gateway.metadata.list(resource, namespace)).find((x) => x.name === t.name);
    const find = async (t: { name: string; uid: string; pin?: string | undefined }) => {
      const o = await current(t);
      return o && o.uid === t.uid && pinOf(o, keys) === t.pin ? o : undefined;
    };
    const details: string[] = [];
    for (const t of objects) {
      // A run resumed after a worker died between its patch and its ledger finds the planned object already
      // annotated: done, not a change by someone else with nothing annotated.
      const was = await current(t);
      if (was && was.uid === t.uid && keys.every((k) => was.annotations[k] === annotations[k])) {
        details.push(`${t.kind} ${t.name}: already ${keys.map((k) => `${k}=${annotations[k]}`).join(', ')}`);
        continue;
      }
      const o = await find(t);
      if (!o) return { status: 'changed', message: `${t.kind} ${namespace}/${t.name} changed since the plan; not annotated.`, details };
      const written = await writeWithOneRetry(
        o.resourceVersion,
        (rv) => ctx.gateway.metadata.patch(resource, namespace, t.name, { annotations }, rv),
        async () => (await find(t))?.resourceVersion,
      );
      if (!written.ok) return { status: 'changed', message: `${t.kind} ${namespace}/${t.name} was changed by someone else meanwhile; not annotated.`, details };
      const wrong = keys.filter((k) => written.value.annotations[k] !== annotations[k]);
      if (wrong.length > 0) return { status: 'failed', message: `${t.kind} ${t.name} does not show ${wrong.join(', ')} after the patch.`, details };
      details.push(`${t.kind} ${t.name}: ${keys.map((k) => `${k}=${annotations[k]}`).join(', ')}`);
    }
    return { status: 'done', message: `Annotated ${objects.length} object(s).`, details };
  },
});
