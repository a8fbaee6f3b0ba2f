import { z } from 'zod';
import { defineStep } from './kind.js';
import { forAPerson } from './for-a-person.js';
import { stepBase } from './step.js';

export { forAPerson };

/** Something only a person can do (in a browser, a dashboard, a cloud console): a checklist. */
const manualStep = z.strictObject({ ...stepBase, kind: z.literal('manual'), risk: z.literal('read-only'), items: z.array(z.string()) });
export type ManualStep = z.infer<typeof manualStep>;

/** A person's action (browser, dashboard, cloud console): planned as its checklist, nothing automated. */
export const manual = defineStep({
  kind: 'manual',
  step: manualStep,
  data: z.object({ items: z.array(z.string()) }),
  permissions: () => [],
  parameters: () => [],
  async plan(_ctx, step) {
    const items = step.items.map(forAPerson);
    return { lines: items.map((i) => `☐ ${i}`), targets: [], data: { items } };
  },
  async run(_ctx, planned) {
    return { status: 'done', message: `Your turn: ${planned.does}.`, details: planned.data.items };
  },
});
