import { z } from 'zod';
import { labelName, namespaceName } from '../../remedies/steps/step.js';
import { ago, defineDetector, objectName, type Evidence, type LogSource, type Read } from './detector.js';
import { clip } from './shown-text.js';

const logSource = z.union([z.strictObject({ label: labelName }), z.strictObject({ pod: z.enum(['databasePod', 'gitSensorPod']) })]);

/**
 * The tails of the logs of named platform components showing one of the lines their code writes when
 * the symptom is there (literal, case-insensitive). With `whileRunning`, only while a pod runs in that
 * namespace (entry 4: a build pod runs in the CI namespace while its logs never arrive).
 */
const logLinesDetector = z.strictObject({
  kind: z.literal('logLines'),
  namespace: namespaceName,
  sources: z.array(logSource).min(1),
  /** Texts the components write, e.g. `Nats Connection got disconnected!`; any one is evidence. */
  lines: z.array(z.string().min(3)).min(1),
  /**
   * Texts that, anywhere in the same tail, explain the lines by another entry's cause: that tail is not
   * evidence (entry 23's `exit status 128` is entry 24's when git also says `No space left on device`).
   */
  unlessAny: z.array(z.string().min(3)).min(1).optional(),
  tailLines: z.number().int().positive().max(1000).default(200),
  whileRunning: z.strictObject({ namespace: namespaceName, what: z.string().min(1) }).optional(),
});
export type LogLinesDetector = z.input<typeof logLinesDetector>;

const shortLine = (line: string) => clip(line, 160);

export const logLines = defineDetector({
  kind: 'logLines',
  detector: logLinesDetector as z.ZodType<LogLinesDetector>,
  reads(d) {
    const reads: Read[] = d.sources.map((s): Read => ({ logs: s as LogSource, in: d.namespace, tailLines: d.tailLines ?? 200 }));
    if (d.whileRunning) reads.push({ list: 'pods', in: d.whileRunning.namespace });
    return reads;
  },
  detect(d, snap) {
    const wanted = d.lines.map((l) => l.toLowerCase());
    const unless = (d.unlessAny ?? []).map((l) => l.toLowerCase());
    const evidence: Evidence[] = [];
    for (const source of d.sources) {
      for (const tail of snap.logs(source as LogSource, d.namespace)) {
        if (unless.length > 0 && tail.lines.some((l) => unless.some((u) => l.toLowerCase().includes(u)))) continue;
        const hits = tail.lines.filter((l) => wanted.some((w) => l.toLowerCase().includes(w)));
        if (hits.length === 0) continue;
        const last = hits[hits.length - 1] ?? '';
        evidence.push({ object: objectName('pod', tail.pod.namespace, tail.pod.name), detail: `${hits.length} of the last ${tail.lines.length} log lines of ${tail.container}, latest: ${shortLine(last)}` });
      }
    }
    if (evidence.length === 0) return { state: 'absent', evidence: [] };
    if (d.whileRunning) {
      const ns = snap.names[d.whileRunning.namespace];
      const running = snap.pods(d.whileRunning.namespace).filter((p) => p.namespace === ns && p.phase === 'Running');
      if (running.length === 0) return { state: 'absent', evidence: [...evidence, { object: `namespace/${ns}`, detail: `no ${d.whileRunning.what} running` }] };
      const newest = running.reduce((a, b) => (a.createdAt > b.createdAt ? a : b));
      evidence.push({ object: objectName('pod', ns, newest.name), detail: `${d.whileRunning.what} running for ${ago(newest.createdAt, snap.now)}${running.length > 1 ? ` (and ${running.length - 1} more)` : ''}` });
    }
    return { state: 'present', evidence };
  },
});
