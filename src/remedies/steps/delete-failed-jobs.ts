import { z } from 'zod';
import { targetSchema } from '../plan.js';
import { completionsOf, incompleteJobs } from './incomplete-jobs.js';
import { defineStep } from './kind.js';
import { namespaceName, stepBase } from './step.js';
import { code, pollFor } from './support.js';

/** Entry 1: installer jobs at 0/1 completions whose pods are not running, deleted (pods with them). */
const deleteFailedJobsStep = z.strictObject({ ...stepBase, kind: z.literal('deleteFailedJobs'), namespace: namespaceName });
export type DeleteFailedJobsStep = z.infer<typeof deleteFailedJobsStep>;

/** How long the deleted jobs may take to disappear. */
const goneWithinSeconds = 60;

/**
 * Entry 1: deletes the installer jobs at 0/1 completions whose pods no longer run, with their pods
 * (propagation Background: batch/v1 would otherwise keep the failed pods). Jobs whose pods still run
 * are shown as "still running — wait" and left alone; when every incomplete job still runs, the plan
 * is blocked: the guide says to wait.
 */
export const deleteFailedJobs = defineStep({
  kind: 'deleteFailedJobs',
  step: deleteFailedJobsStep,
  data: z.object({ namespace: z.string(), jobs: z.array(targetSchema) }),
  parameters: () => [],
  permissions: (step) => [
    { apiGroup: 'batch', resource: 'jobs', verbs: ['get', 'list', 'delete'], scope: step.namespace },
    { apiGroup: '', resource: 'pods', verbs: ['list'], scope: step.namespace },
  ],
  async plan(ctx, step) {
    const namespace = ctx.names[step.namespace];
    const incomplete = await incompleteJobs(ctx, namespace);
    const failed = incomplete.filter((i) => !i.stillRunning);
    const running = incomplete.filter((i) => i.stillRunning);
    const lines = [
      ...failed.map((i) => `delete Job ${code(`${namespace}/${i.job.name}`)} (${completionsOf(i.job)} completions, ${i.pods}) and its pods`),
      ...running.map((i) => `Job ${code(`${namespace}/${i.job.name}`)} (${completionsOf(i.job)}, ${i.pods}): still running — wait; left alone`),
    ];
    const jobs = failed.map((i) => ({ kind: 'Job', namespace, name: i.job.name, uid: i.job.uid, state: `${completionsOf(i.job)} completions, ${i.pods}`, pin: `${completionsOf(i.job)} not running` }));
    const data = { namespace, jobs };
    if (incomplete.length === 0) return { lines: [`no job in ${code(namespace)} is short of its completions; nothing to delete`], targets: [], data };
    if (failed.length === 0) {
      return { lines, targets: [], data, blocked: `Every incomplete job in ${namespace} still has a running pod (${running.map((i) => i.job.name).join(', ')}): wait for them to finish, then plan again.` };
    }
    return { lines, targets: jobs, data };
  },
  async run(ctx, planned) {
    const { namespace, jobs } = planned.data;
    if (jobs.length === 0) return { status: 'skipped', message: `No failed job in ${namespace}; nothing deleted.` };
    const details: string[] = [];
    for (const j of jobs) {
      const r = await ctx.gateway.jobs.delete(namespace, j.name, j.uid);
      details.push(r === 'deleted' ? `deleted job ${j.name} (its pods go with it)` : `job ${j.name} was already gone`);
    }
    const gone = await pollFor(ctx, goneWithinSeconds, async () => {
      for (const j of jobs) if ((await ctx.gateway.jobs.get(namespace, j.name))?.uid === j.uid) return undefined;
      return true;
    });
    if (!gone) return { status: 'failed', message: `Deleted ${jobs.length} job(s), but some still exist after ${goneWithinSeconds} s.`, details };
    return { status: 'done', message: `Deleted ${jobs.length} failed job(s) and their pods.`, details };
  },
});
