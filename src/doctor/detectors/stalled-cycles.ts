import { z } from 'zod';
import { namespaceName } from '../../remedies/steps/step.js';
import { ago, defineDetector, objectName, type Evidence, type LogSource } from './detector.js';

/**
 * A component's periodic work that starts and no longer ends: in the tail of its log, the line its
 * code writes when a cycle starts has come `startedSinceEnd` times or more since the line written when
 * one ends (entry 10: git-sensor's Watch() logs "starting git watch thread" every poll and "stop git
 * watch thread" when the poll's fetches are done; a hung fetch holds the repository's lock, so every
 * later poll starts and none ends).
 */
const stalledCyclesDetector = z.strictObject({
  kind: z.literal('stalledCycles'),
  namespace: namespaceName,
  source: z.strictObject({ pod: z.enum(['databasePod', 'gitSensorPod']) }),
  starts: z.string().min(3),
  ends: z.string().min(3),
  startedSinceEnd: z.number().int().min(2).default(3),
  tailLines: z.number().int().positive().max(1000).default(200),
});
export type StalledCyclesDetector = z.input<typeof stalledCyclesDetector>;

/** The time of a zap JSON line (`"ts": seconds since the epoch`), when it has one. */
function timeOf(line: string): string | undefined {
  const ts = /"ts":\s*([\d.]+)/.exec(line)?.[1];
  return ts === undefined ? undefined : new Date(Number(ts) * 1000).toISOString();
}

export const stalledCycles = defineDetector({
  kind: 'stalledCycles',
  detector: stalledCyclesDetector as z.ZodType<StalledCyclesDetector>,
  reads: (d) => [{ logs: d.source as LogSource, in: d.namespace, tailLines: d.tailLines ?? 200 }],
  detect(d, snap) {
    const starts = d.starts.toLowerCase();
    const ends = d.ends.toLowerCase();
    const evidence: Evidence[] = [];
    for (const tail of snap.logs(d.source as LogSource, d.namespace)) {
      const lower = tail.lines.map((l) => l.toLowerCase());
      const lastEnd = lower.map((l) => l.includes(ends)).lastIndexOf(true);
      const since = lower.slice(lastEnd + 1).filter((l) => l.includes(starts)).length;
      if (since < (d.startedSinceEnd ?? 3)) continue;
      const endedAt = lastEnd >= 0 ? timeOf(tail.lines[lastEnd] ?? '') : undefined;
      const firstStuck = timeOf(tail.lines.slice(lastEnd + 1).find((l) => l.toLowerCase().includes(starts)) ?? '');
      const when = endedAt ? `the last ended ${ago(endedAt, snap.now)} ago` : `none ended in the last ${tail.lines.length} log lines`;
      evidence.push({
        object: objectName('pod', tail.pod.namespace, tail.pod.name),
        detail: `${since} cycles started ("${d.starts}") and ${when}${firstStuck ? `; stuck since ${firstStuck}` : ''}`,
      });
    }
    return { state: evidence.length > 0 ? 'present' : 'absent', evidence };
  },
});
