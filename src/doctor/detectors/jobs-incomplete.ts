import { z } from 'zod';
import { namespaceName } from '../../remedies/steps/step.js';
import { ago, defineDetector, objectName, type Evidence } from './detector.js';

/**
 * Guide 7.1's `kubectl get jobs`: jobs of a namespace short of their completions (0/1) whose pods no
 * longer run: the job controller gave up (Failed, e.g. BackoffLimitExceeded) or none of its pods is
 * Running or Pending. A job whose pod still runs is the guide's "wait", not the symptom.
 */
const jobsIncompleteDetector = z.strictObject({
  kind: z.literal('jobsIncomplete'),
  namespace: namespaceName,
});
export type JobsIncompleteDetector = z.infer<typeof jobsIncompleteDetector>;

export const jobsIncomplete = defineDetector({
  kind: 'jobsIncomplete',
  detector: jobsIncompleteDetector,
  reads: (d) => [
    { list: 'jobs', in: d.namespace },
    { list: 'pods', in: d.namespace },
  ],
  detect(d, snap) {
    const ns = snap.names[d.namespace];
    const pods = snap.pods(d.namespace).filter((p) => p.namespace === ns && p.owner?.kind === 'Job');
    const evidence: Evidence[] = [];
    const waiting: string[] = [];
    for (const job of snap.jobs(d.namespace).filter((j) => j.namespace === ns && j.succeeded < j.completions)) {
      const own = pods.filter((p) => p.owner?.uid === job.uid);
      const running = own.some((p) => p.phase === 'Running' || p.phase === 'Pending');
      if (!job.failed && running) {
        waiting.push(job.name);
        continue;
      }
      const podText = own.length === 0 ? 'no pods' : own.map((p) => `pod ${p.name} ${p.phase}${reasonOf(p.containers)}`).join(', ');
      const why = job.failed ? `${job.failed.reason} ${ago(job.failed.since, snap.now)} ago` : `created ${ago(job.createdAt, snap.now)} ago`;
      evidence.push({ object: objectName('job', ns, job.name), detail: `${job.succeeded}/${job.completions} completions, ${why}; ${podText}` });
    }
    if (evidence.length > 0) return { state: 'present', evidence };
    return { state: 'absent', evidence: waiting.map((name) => ({ object: objectName('job', ns, name), detail: 'still running: the guide waits for it' })) };
  },
});

function reasonOf(containers: readonly { waiting?: { reason: string }; terminated?: { reason: string; exitCode: number } }[]): string {
  const c = containers.find((x) => x.waiting || x.terminated);
  if (c?.waiting) return ` (${c.waiting.reason})`;
  if (c?.terminated) return ` (${c.terminated.reason}, exit ${c.terminated.exitCode})`;
  return '';
}
