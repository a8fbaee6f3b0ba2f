import { z } from 'zod';
import { defineDetector } from './detector.js';

/**
 * For a symptom that lives where the worker cannot look (a browser's cookies, a cloud console, a
 * chart's values, the person's own machine): no reads, and the check a person makes instead.
 */
const notObservableDetector = z.strictObject({
  kind: z.literal('notObservable'),
  /** Where the symptom lives. */
  where: z.enum(['browser', 'cloud-console', 'chart-values', 'platform-ui', 'workstation']),
  /** What the person should check instead, in the guide's words. */
  check: z.string().min(1),
});
export type NotObservableDetector = z.infer<typeof notObservableDetector>;

export const notObservable = defineDetector({
  kind: 'notObservable',
  detector: notObservableDetector,
  reads: () => [],
  detect: (d) => ({ state: 'not-observable', check: d.check }),
});
