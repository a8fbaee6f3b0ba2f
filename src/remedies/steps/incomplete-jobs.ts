import type { JobSummary } from '../../cluster/gateway.js';
import type { StepContext } from './context.js';

/** An installer job short of its completions, and whether a pod of it still runs. */
export interface IncompleteJob {
  readonly job: JobSummary;
  readonly stillRunning: boolean;
  /** The state of its pods, for the card: `pod x Failed`. */
  readonly pods: string;
}

/**
 * Entry 1's reading of `kubectl get jobs`: the jobs of a namespace at fewer completions than wanted
 * (0/1), and whether each still has a pod running (or about to: Pending), in which case the guide waits.
 */
export async function incompleteJobs(ctx: StepContext, namespace: string): Promise<IncompleteJob[]> {
  const jobs = (await ctx.gateway.jobs.list(namespace)).filter((j) => j.succeeded < j.completions);
  const out: IncompleteJob[] = [];
  for (const job of jobs) {
    const pods = (await ctx.gateway.listPods(namespace, `job-name=${job.name}`)).filter((p) => p.ownerUid === undefined || p.ownerUid === job.uid);
    const stillRunning = !job.failed && pods.some((p) => !p.terminating && (p.phase === 'Running' || p.phase === 'Pending'));
    const shown = pods.length === 0 ? 'no pods' : pods.map((p) => `pod ${p.name} ${p.phase}${p.waiting ? ` (${p.waiting})` : ''}`).join(', ');
    out.push({ job, stillRunning, pods: shown });
  }
  return out;
}

export const completionsOf = (j: JobSummary): string => `${j.succeeded}/${j.completions}`;
