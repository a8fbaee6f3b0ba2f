import { z } from 'zod';
import type { WaitStep } from '../../catalogue/model.js';
import type { StepKind } from './context.js';

const schema = z.object({ seconds: z.number().min(0), guideMinutes: z.number(), reason: z.string() });

function duration(seconds: number): string {
  return seconds >= 60 && seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} s`;
}

/** A wait of the guide: the run ends here and continues later as a delayed job; no worker sleeps. */
export const wait: StepKind<WaitStep, z.infer<typeof schema>> = {
  kind: 'wait',
  schema,
  permissions: () => [],
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
};
