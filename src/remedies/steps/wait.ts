import { z } from 'zod';
import { defineStep } from './kind.js';
import { stepBase } from './step.js';

/** A wait of the guide ("wait 5 minutes"): a delayed continuation of the run, never a sleeping worker. */
const waitStep = z.strictObject({ ...stepBase, kind: z.literal('wait'), risk: z.literal('read-only'), minutes: z.number().positive(), reason: z.string() });
export type WaitStep = z.infer<typeof waitStep>;

function duration(seconds: number): string {
  return seconds >= 60 && seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} s`;
}

/** A wait of the guide: the run ends here and continues later as a delayed job; no worker sleeps. */
export const wait = defineStep({
  kind: 'wait',
  step: waitStep,
  data: z.object({ seconds: z.number().min(0), guideMinutes: z.number(), reason: z.string() }),
  permissions: () => [],
  parameters: () => [],
  async plan(ctx, step) {
    const seconds = ctx.waitOverrideSeconds ?? step.minutes * 60;
    const shown = seconds === step.minutes * 60 ? `${step.minutes} min` : `${seconds} s (guide: ${step.minutes} min)`;
    return { lines: [`wait ${shown} — ${step.reason}`], targets: [], data: { seconds, guideMinutes: step.minutes, reason: step.reason } };
  },
  async run(_ctx, planned) {
    const { seconds, guideMinutes, reason } = planned.data;
    const shortened = seconds !== guideMinutes * 60 ? ` (the guide's ${guideMinutes} minutes, shortened by configuration)` : '';
    return { status: 'waiting', seconds, message: `Waiting ${duration(seconds)}${shortened}: ${reason}.` };
  },
});
