import { catalogue } from '../../catalogue/index.js';
import { stepProblems } from './registry.js';

/**
 * The step kinds as the rest of the bot uses them (the planner, the runner, the worker's RBAC).
 *
 * The catalogue checks its own structure when it loads; its steps are checked against their kinds
 * here, where the kinds are loaded anyway. Checking them when the catalogue loads would load every
 * kind's cluster, database and dashboard code into each `match` and `explain` of the CLI. Whatever
 * plans or runs a remedy loads this module, so a step its kind refuses still stops the worker at
 * start-up rather than in the middle of a repair.
 */
const problems = stepProblems(catalogue);
if (problems.length > 0) throw new Error(`The catalogue's steps are inconsistent:\n${problems.join('\n')}`);

export { permissionsOf, planStep, runStep, stepKinds, stepProblems, type Step } from './registry.js';
export type { StepContext, StepResult } from './context.js';
