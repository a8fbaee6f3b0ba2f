import { z } from 'zod';
import { ClusterError } from '../../cluster/errors.js';
import { customKinds, type CustomObject } from '../../cluster/gateway.js';
import { shownBack } from '../../redact.js';
import { defineStep } from './kind.js';
import { namespaceName, parameterName, stepBase } from './step.js';
import { code, paramOf, writeWithOneRetry } from './support.js';

/** Entry 21: create the cloud load balancer's backend configuration with a longer timeoutSec. */
const createBackendConfigStep = z.strictObject({
  ...stepBase,
  kind: z.literal('createBackendConfig'),
  namespace: namespaceName,
  nameParam: parameterName,
  timeoutParam: parameterName,
});
export type CreateBackendConfigStep = z.infer<typeof createBackendConfigStep>;

const schema = z.object({ namespace: z.string(), name: z.string(), timeoutSec: z.number().int().positive(), uid: z.string(), before: z.number().nullable() });

const timeoutOf = (bc: CustomObject | undefined): number | null => {
  const t = bc?.spec?.['timeoutSec'];
  return typeof t === 'number' ? t : null;
};

/**
 * Entry 21: the cloud load balancer's backend configuration (`cloud.google.com/v1` BackendConfig) with
 * spec.timeoutSec from the parameter (the default 30 s drops terminals). Created, or, when it exists,
 * updated with its timeout shown before → after and its other settings kept.
 */
export const createBackendConfig = defineStep({
  kind: 'createBackendConfig',
  step: createBackendConfigStep,
  data: schema,
  parameters: (step) => [step.nameParam, step.timeoutParam],
  permissions: (step) => [{ apiGroup: 'cloud.google.com', resource: 'backendconfigs', verbs: ['get', 'create', 'update'], scope: step.namespace }],
  needsType: () => ({
    kind: customKinds.backendConfig,
    meaning: 'a BackendConfig configures the load balancer of GKE ingresses, so this remedy applies to GKE ingresses only',
  }),
  async plan(ctx, step) {
    const namespace = ctx.names[step.namespace];
    const name = paramOf(ctx, step.nameParam) ?? '';
    const timeoutText = paramOf(ctx, step.timeoutParam) ?? '';
    const timeoutSec = /^[1-9]\d{0,5}$/.test(timeoutText) ? Number(timeoutText) : NaN;
    const empty = { namespace, name, timeoutSec: 1, uid: '', before: null };
    if (!name) return { lines: [step.does], targets: [], data: empty, blocked: `Give the backend configuration's name: ${step.nameParam}=<name>.` };
    if (Number.isNaN(timeoutSec)) return { lines: [step.does], targets: [], data: empty, blocked: `${step.timeoutParam} must be a whole number of seconds, e.g. 1800; got "${shownBack(timeoutText, 20)}".` };
    const existing = await ctx.gateway.custom.get(customKinds.backendConfig, namespace, name);
    const shown = `BackendConfig ${code(`${namespace}/${name}`)} (cloud.google.com/v1)`;
    if (!existing) {
      await ctx.gateway.custom.create(customKinds.backendConfig, namespace, bodyOf(namespace, name, timeoutSec), true);
      return {
        lines: [`create ${shown} with spec.timeoutSec ${code(String(timeoutSec))} (the load balancer's default is 30)`],
        targets: [{ kind: 'BackendConfig', namespace, name, uid: 'absent', state: 'does not exist', pin: 'timeoutSec=absent' }],
        data: { namespace, name, timeoutSec, uid: 'absent', before: null },
      };
    }
    const before = timeoutOf(existing);
    const uid = existing.metadata.uid ?? '';
    if (before === timeoutSec) return { lines: [`${shown}: spec.timeoutSec already ${code(String(before))}`], targets: [], data: { namespace, name, timeoutSec, uid, before } };
    await ctx.gateway.custom.replace(customKinds.backendConfig, namespace, withTimeout(existing, timeoutSec), true);
    return {
      lines: [`${shown}: spec.timeoutSec ${code(String(before ?? '(unset)'))} → ${code(String(timeoutSec))}`],
      targets: [{ kind: 'BackendConfig', namespace, name, uid, state: `timeoutSec ${before ?? 'unset'}`, pin: `timeoutSec=${before ?? 'unset'}` }],
      data: { namespace, name, timeoutSec, uid, before },
    };
  },
  async run(ctx, planned) {
    const { namespace, name, timeoutSec, uid, before } = planned.data;
    const current = await ctx.gateway.custom.get(customKinds.backendConfig, namespace, name);
    if (uid !== 'absent' && before === timeoutSec) return { status: 'skipped', message: `BackendConfig ${name} already has timeoutSec ${timeoutSec}.` };
    if (uid === 'absent') {
      if (current) return { status: 'changed', message: `BackendConfig ${namespace}/${name} appeared since the plan; not touched.` };
      try {
        await ctx.gateway.custom.create(customKinds.backendConfig, namespace, bodyOf(namespace, name, timeoutSec));
      } catch (err) {
        if (err instanceof ClusterError && err.code === 'already-exists') return { status: 'changed', message: `BackendConfig ${namespace}/${name} appeared since the plan; not touched.` };
        throw err;
      }
      return { status: 'done', message: `Created BackendConfig ${name} with timeoutSec ${timeoutSec}.` };
    }
    const holds = (bc: CustomObject | undefined) => bc !== undefined && bc.metadata.uid === uid && timeoutOf(bc) === before;
    if (!holds(current) || !current) return { status: 'changed', message: `BackendConfig ${namespace}/${name} changed since the plan; not touched.` };
    const written = await writeWithOneRetry(
      current.metadata.resourceVersion ?? '',
      async (rv) => {
        const latest = (await ctx.gateway.custom.get(customKinds.backendConfig, namespace, name)) ?? current;
        return ctx.gateway.custom.replace(customKinds.backendConfig, namespace, withTimeout({ ...latest, metadata: { ...latest.metadata, resourceVersion: rv } }, timeoutSec));
      },
      async () => {
        const again = await ctx.gateway.custom.get(customKinds.backendConfig, namespace, name);
        return holds(again) ? again?.metadata.resourceVersion : undefined;
      },
    );
    if (!written.ok) return { status: 'changed', message: `BackendConfig ${namespace}/${name} was changed by someone else meanwhile; not touched.` };
    return { status: 'done', message: `BackendConfig ${name}: timeoutSec ${before ?? 'unset'} → ${timeoutSec}.` };
  },
});

function bodyOf(namespace: string, name: string, timeoutSec: number): CustomObject {
  return { apiVersion: 'cloud.google.com/v1', kind: 'BackendConfig', metadata: { name, namespace }, spec: { timeoutSec } };
}

/** The object with only spec.timeoutSec changed; its resourceVersion makes the replace conditional. */
function withTimeout(bc: CustomObject, timeoutSec: number): CustomObject {
  return { ...bc, spec: { ...(bc.spec ?? {}), timeoutSec } };
}
