import { z } from 'zod';
import type { ManualStep } from '../../catalogue/model.js';
import type { StepKind } from './context.js';

const schema = z.object({ items: z.array(z.string()) });

/** A person's action (browser, dashboard, cloud console): planned as its checklist, nothing automated. */
export const manual: StepKind<ManualStep, z.infer<typeof schema>> = {
  kind: 'manual',
  schema,
  permissions: () => [],
  async plan(_ctx, step) {
    return { lines: step.items.map((i) => `☐ ${i}`), targets: [], data: { items: [...step.items] } };
  },
  async run(_ctx, planned) {
    return { status: 'done', message: `Your turn: ${planned.does}.`, details: planned.data.items };
  },
};
