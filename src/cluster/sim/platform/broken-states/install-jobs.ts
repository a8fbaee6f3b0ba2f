import { randomUUID } from 'node:crypto';
import { admitCreate } from '../../apiserver/admission.js';
import type { FaultEntry, SimView } from '../fault-model.js';
import { deleteCascading } from '../../apiserver/garbage-collector.js';
import { podFromTemplate, randomSuffix, runningStatus } from '../../apiserver/pods.js';
import type { PodTemplate } from '../../apiserver/pods.js';
import { apiVersionOf, kinds } from '../../apiserver/resources.js';
import type { KubeObject } from '../../apiserver/types.js';
import { kubeTime } from '../../apiserver/types.js';
import { jobFailed } from '../../apiserver/workload-status.js';
import { recordEvent } from '../../apiserver/kubelet-events.js';

/**
 * Entry 1: installer (migrator) jobs stuck at 0/1. A failed job (backoff limit reached, its pod in
 * Error) is the case to repair; with `running: 'also'` another job's pod is still running (the guide's
 * "wait"), and with `running: 'only'` that is the only incomplete job.
 */

const template = (name: string): PodTemplate => ({
  spec: { restartPolicy: 'OnFailure', containers: [{ name, image: 'quay.io/devtron/migrator:6687f572-133-2208', imagePullPolicy: 'IfNotPresent' }] },
});

function replaceJob({ store, names }: SimView, name: string, state: 'failed' | 'running'): void {
  const ns = names.platformNamespace;
  if (store.get(kinds.job, ns, name)) deleteCascading(store, kinds.job, ns, name, 'Background');
  const uid = randomUUID();
  const job: KubeObject = { metadata: { name, namespace: ns }, spec: { backoffLimit: 1, template: template(name) } };
  admitCreate(kinds.job, job, uid);
  const created = store.create(kinds.job, job, { uid });
  const pod = podFromTemplate((created['spec'] as { template: PodTemplate }).template, {
    name: `${name}-${randomSuffix()}`,
    namespace: ns,
    owner: { apiVersion: apiVersionOf(kinds.job), kind: 'Job', name, uid, controller: true, blockOwnerDeletion: true },
  });
  const at = kubeTime();
  if (state === 'running') {
    // Created already Running, so the simulated kubelet never finishes it: a migration that takes its time.
    pod['status'] = runningStatus(pod);
  } else {
    const container = (pod['spec'] as { containers: { name: string; image?: string }[] }).containers[0];
    pod['status'] = {
      phase: 'Failed',
      startTime: at,
      conditions: [{ type: 'Ready', status: 'False', reason: 'PodFailed', lastTransitionTime: at }],
      containerStatuses: [
        { name: container?.name, image: container?.image, ready: false, started: false, restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error', startedAt: at, finishedAt: at } } },
      ],
    };
  }
  store.create(kinds.pod, pod);
  const withStatus = store.get(kinds.job, ns, name);
  if (!withStatus) return;
  withStatus['status'] =
    state === 'running'
      ? { startTime: at, active: 1, ready: 1, succeeded: 0 }
      : {
          startTime: at,
          failed: 1,
          succeeded: 0,
          conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastTransitionTime: at }],
        };
  store.update(kinds.job, withStatus);
  // The job controller's events (pkg/controller/job/job_controller.go): the pod it created, and giving up.
  recordEvent(store, { kind: 'Job', apiVersion: 'batch/v1', object: withStatus }, { type: 'Normal', reason: 'SuccessfulCreate', message: `Created pod: ${pod.metadata.name ?? ''}` }, { component: 'job-controller' });
  if (state === 'failed') {
    recordEvent(store, { kind: 'Job', apiVersion: 'batch/v1', object: withStatus }, { type: 'Warning', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }, { component: 'job-controller' });
  }
}

export const installJobsFailed: FaultEntry = {
  entryId: 'install-jobs-failed',
  guideEntry: 1,
  breakState(view, options) {
    const running = options['running'];
    if (running !== undefined && running !== 'also' && running !== 'only') throw new Error(`install-jobs-failed running must be "also" or "only", not ${String(running)}`);
    const failed = running === 'only' ? [] : ['postgresql-migrate-devtron'];
    for (const name of failed) replaceJob(view, name, 'failed');
    if (running) replaceJob(view, 'postgresql-migrate-casbin', 'running');
    return failed;
  },
  // Present while a job has failed, or a failed migration has not run to completion since.
  present({ store, names }, memo) {
    const jobs = store.list(kinds.job, names.platformNamespace);
    const completed = (name: string) => jobs.some((j) => j.metadata.name === name && Number((j['status'] as { succeeded?: number } | undefined)?.succeeded ?? 0) >= 1);
    return jobs.some(jobFailed) || (memo as string[]).some((name) => !completed(name));
  },
};
