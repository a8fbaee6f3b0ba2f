import type { z } from 'zod';
import type { PlannedStep } from '../plan.js';
import type { StepContext, StepPlan, StepResult } from './context.js';
import type { ResourceTypeNeed } from './resource-types.js';
import type { Permission, StepBase } from './step.js';

/**
 * One kind of step as its file declares it (see defineStep): what its steps look like in the
 * catalogue, what its plan hands its run, the permissions and parameters it needs, how it plans
 * (read-only) and how it runs exactly what it planned.
 */
export interface StepDeclaration<S extends StepBase, D> {
  readonly kind: S['kind'];
  /** A step of this kind as the catalogue writes it; the catalogue's steps are checked against it. */
  readonly step: z.ZodType<S>;
  /** What the run needs beyond the pinned targets; validated again by the worker before it runs. */
  readonly data: z.ZodType<D>;
  /** The Kubernetes permissions the step needs; the worker's RBAC is generated from these. */
  permissions(step: S): Permission[];
  /**
   * The names of the entry's parameters the step reads. The entry must declare each one, and the
   * step sees only these while planning.
   */
  parameters(step: S): string[];
  /**
   * The custom resource type the step cannot plan without, if any: the registry checks the cluster
   * serves it before planning, and blocks the plan with what its absence means otherwise.
   */
  needsType?(step: S): ResourceTypeNeed | undefined;
  plan(ctx: StepContext, step: S): Promise<StepPlan<D>>;
  run(ctx: StepContext, planned: PlannedStep & { data: D }): Promise<StepResult>;
}

/**
 * One kind of step as the registry holds it: the type of its planned data stays inside the kind,
 * which checks the data a run job carries against its own schema.
 */
export interface StepKind<S extends StepBase> {
  readonly kind: S['kind'];
  readonly step: z.ZodType<S>;
  permissions(step: S): Permission[];
  parameters(step: S): string[];
  needsType(step: S): ResourceTypeNeed | undefined;
  plan(ctx: StepContext, step: S): Promise<StepPlan<unknown>>;
  /** Runs a planned step of this kind; data that does not fit the kind's schema fails the step. */
  run(ctx: StepContext, planned: PlannedStep): Promise<StepResult>;
  /** Whether a step (e.g. an earlier one of the stage) is of this kind, checked against the schema. */
  is(step: StepBase): step is S;
}

/** The step type of a kind. */
export type StepOf<T> = T extends StepKind<infer S> ? S : never;

/** Only the parameters a step declares: what it does not declare, it cannot read. */
function onlyDeclared(ctx: StepContext, names: readonly string[]): StepContext {
  const given = ctx.params ?? {};
  const params: Record<string, string> = {};
  for (const name of names) if (Object.hasOwn(given, name)) params[name] = given[name]!;
  return { ...ctx, params };
}

/** Declares a step kind: its step and data types come from its two schemas. */
export function defineStep<S extends StepBase, D>(declared: StepDeclaration<S, D>): StepKind<S> {
  return {
    kind: declared.kind,
    step: declared.step,
    permissions: (step) => declared.permissions(step),
    parameters: (step) => declared.parameters(step),
    needsType: (step) => declared.needsType?.(step),
    plan: (ctx, step) => declared.plan(onlyDeclared(ctx, declared.parameters(step)), step),
    async run(ctx, planned) {
      const data = declared.data.safeParse(planned.data);
      if (!data.success) return { status: 'failed', message: `The planned data of step ${planned.index + 1} is not valid: ${data.error.issues[0]?.message}` };
      return declared.run(ctx, { ...planned, data: data.data });
    },
    is: (step): step is S => step.kind === declared.kind && declared.step.safeParse(step).success,
  };
}
