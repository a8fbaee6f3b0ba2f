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

/** Where such a symptom shows, in words ("it shows in the browser"); one for each place the enum names. */
export const whereItShows: Readonly<Record<NotObservableDetector['where'], string>> = {
  browser: 'in the browser',
  workstation: 'on the workstation that runs the upgrade',
  'chart-values': "in the chart's values",
  'cloud-console': 'in the cloud console',
  'platform-ui': "in the platform's dashboard",
};

export const notObservable = defineDetector({
  kind: 'notObservable',
  detector: notObservableDetector,
  reads: () => [],
  detect: (d) => ({ state: 'not-observable', check: d.check }),
});
