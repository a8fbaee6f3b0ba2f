import { nodeName } from '../apiserver/pods.js';
import { kinds } from '../apiserver/resources.js';
import type { ObjectStore } from '../apiserver/store.js';
import { kubeTime } from '../apiserver/types.js';
import type { Random } from './random.js';

/** An application as seeded: what its events name. */
export interface DeployedApp {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly replicaSet: string;
  readonly container: string;
  readonly image: string;
  readonly replicas: number;
  /** Its pods now; most events are about pods earlier rollouts replaced. */
  readonly pods: readonly string[];
}

/** A job as seeded. */
export interface RanJob {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly container: string;
  readonly image: string;
  readonly state: 'complete' | 'failed' | 'running';
  readonly createdAt: Date;
  readonly pods: readonly string[];
}

type Involved = { kind: 'Pod' | 'ReplicaSet' | 'Deployment' | 'Job'; apiVersion: string; name: string; fieldPath?: string };
type Said = { type: 'Normal' | 'Warning'; reason: string; message: string; component: string; involved: Involved; repeats?: number };

const day = 24 * 3600 * 1000;

/** Texts as the components write them (kubelet, scheduler, the Deployment, ReplicaSet and Job controllers). */
function appEvent(app: DeployedApp, random: Random, oldReplicaSets: readonly string[]): Said {
  const rs = random.next() < 0.25 ? app.replicaSet : random.pick(oldReplicaSets);
  const pod = rs === app.replicaSet && app.pods.length > 0 && random.next() < 0.5 ? random.pick(app.pods) : `${rs}-${random.suffix()}`;
  const c = app.container;
  const onPod = (fieldPath = true): Involved => ({ kind: 'Pod', apiVersion: 'v1', name: pod, ...(fieldPath ? { fieldPath: `spec.containers{${c}}` } : {}) });
  const kubelet = (type: Said['type'], reason: string, message: string, repeats?: number): Said => ({ type, reason, message, component: 'kubelet', involved: onPod(), ...(repeats ? { repeats } : {}) });
  const what = random.weighted([
    ['scheduled', 10], ['pulling', 8], ['pulled', 8], ['created', 10], ['started', 10], ['killing', 8], ['rs-created', 8], ['scaled', 6],
    ['readiness', 8], ['liveness', 3], ['backoff', 5], ['scheduling', 3], ['mount', 2], ['pull', 2], ['evicted', 1],
  ] as const);
  switch (what) {
    case 'scheduled':
      return { type: 'Normal', reason: 'Scheduled', message: `Successfully assigned ${app.namespace}/${pod} to ${nodeName}`, component: 'default-scheduler', involved: onPod(false) };
    case 'pulling':
      return kubelet('Normal', 'Pulling', `Pulling image "${app.image}"`);
    case 'pulled': {
      const s = (random.int(300, 9000) / 1000).toFixed(3);
      return kubelet('Normal', 'Pulled', `Successfully pulled image "${app.image}" in ${s}s (${s}s including waiting). Image size: ${random.int(20, 400) * 1048576 + random.int(0, 999999)} bytes.`);
    }
    case 'created':
      return kubelet('Normal', 'Created', `Created container ${c}`);
    case 'started':
      return kubelet('Normal', 'Started', `Started container ${c}`);
    case 'killing':
      return kubelet('Normal', 'Killing', `Stopping container ${c}`);
    case 'rs-created':
      return { type: 'Normal', reason: 'SuccessfulCreate', message: `Created pod: ${pod}`, component: 'replicaset-controller', involved: { kind: 'ReplicaSet', apiVersion: 'apps/v1', name: rs } };
    case 'scaled': {
      const up = random.next() < 0.5;
      return {
        type: 'Normal',
        reason: 'ScalingReplicaSet',
        message: up ? `Scaled up replica set ${rs} to ${app.replicas}` : `Scaled down replica set ${rs} to 0 from ${app.replicas}`,
        component: 'deployment-controller',
        involved: { kind: 'Deployment', apiVersion: 'apps/v1', name: app.name },
      };
    }
    case 'readiness':
      return kubelet('Warning', 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', random.int(1, 120));
    case 'liveness':
      return kubelet('Warning', 'Unhealthy', `Liveness probe failed: Get "http://10.244.${random.int(0, 3)}.${random.int(2, 254)}:8080/health/live": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`, random.int(1, 20));
    case 'backoff':
      return kubelet('Warning', 'BackOff', `Back-off restarting failed container ${c} in pod ${pod}_${app.namespace}(${randomUid(random)})`, random.int(1, 300));
    case 'scheduling':
      return {
        type: 'Warning',
        reason: 'FailedScheduling',
        message: `0/12 nodes are available: ${random.int(1, 6)} Insufficient memory, 3 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/12 nodes are available: 12 No preemption victims found for incoming pod.`,
        component: 'default-scheduler',
        involved: onPod(false),
        repeats: random.int(1, 30),
      };
    case 'mount':
      return { ...kubelet('Warning', 'FailedMount', `MountVolume.SetUp failed for volume "config" : configmap "${c}-cm" not found`, random.int(1, 15)), involved: onPod(false) };
    case 'pull':
      return kubelet('Warning', 'Failed', `Failed to pull image "${app.image}": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 10.96.0.12:443: i/o timeout"`, random.int(1, 6));
    case 'evicted':
      return { type: 'Warning', reason: 'Evicted', message: `The node was low on resource: memory. Threshold quantity: 100Mi, available: ${random.int(50_000, 99_000)}Ki. Container ${c} was using ${random.int(400_000, 520_000)}Ki, request is 256Mi, has larger consumption of memory.`, component: 'kubelet', involved: onPod(false) };
  }
}

function jobEvent(job: RanJob, random: Random): Said {
  const pod = job.pods.length > 0 ? random.pick(job.pods) : `${job.name}-${random.suffix()}`;
  const onJob = { kind: 'Job' as const, apiVersion: 'batch/v1', name: job.name };
  const onPod = { kind: 'Pod' as const, apiVersion: 'v1', name: pod, fieldPath: `spec.containers{${job.container}}` };
  const what = random.weighted([['created', 3], ['finished', 3], ['pulled', 2], ['started', 2]] as const);
  if (what === 'created') return { type: 'Normal', reason: 'SuccessfulCreate', message: `Created pod: ${pod}`, component: 'job-controller', involved: onJob };
  if (what === 'finished' && job.state === 'complete') return { type: 'Normal', reason: 'Completed', message: 'Job completed', component: 'job-controller', involved: onJob };
  if (what === 'finished' && job.state === 'failed') return { type: 'Warning', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', component: 'job-controller', involved: onJob };
  if (what === 'pulled') return { type: 'Normal', reason: 'Pulled', message: `Container image "${job.image}" already present on machine`, component: 'kubelet', involved: onPod };
  return { type: 'Normal', reason: 'Started', message: `Started container ${job.container}`, component: 'kubelet', involved: onPod };
}

function randomUid(random: Random): string {
  const h = random.hex(32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * `total` events spread over the last `eventDays` days, as client-go's recorder writes them (one Event
 * per object, reason and message; a repeated warning counted, its lastTimestamp later): mostly the
 * routine traffic of rollouts and scheduled jobs, about a quarter warnings. Returns how many were added.
 */
export function seedEventHistory(
  store: ObjectStore,
  random: Random,
  options: { apps: readonly DeployedApp[]; jobs: readonly RanJob[]; eventDays: number; total: number; now: Date },
): number {
  const { apps, jobs, now } = options;
  if (apps.length === 0 && jobs.length === 0) return 0;
  const oldReplicaSets = new Map<string, string[]>();
  for (let n = 0; n < options.total; n++) {
    const onJob = jobs.length > 0 && (apps.length === 0 || random.next() < 0.2);
    let said: Said;
    let namespace: string;
    let first: Date;
    if (onJob) {
      const job = random.pick(jobs);
      said = jobEvent(job, random);
      namespace = job.namespace;
      first = new Date(Math.min(now.getTime(), job.createdAt.getTime() + random.int(0, 600) * 1000));
    } else {
      const app = random.pick(apps);
      let old = oldReplicaSets.get(app.uid);
      if (!old) oldReplicaSets.set(app.uid, (old = Array.from({ length: 4 }, () => `${app.name}-${random.suffix(10)}`)));
      said = appEvent(app, random, old);
      namespace = app.namespace;
      first = new Date(now.getTime() - random.next() * options.eventDays * day);
    }
    const count = said.repeats ?? 1;
    const last = new Date(Math.min(now.getTime(), first.getTime() + (count - 1) * random.int(10, 300) * 1000));
    const at = kubeTime(first);
    store.create(
      kinds.event,
      {
        metadata: { name: `${said.involved.name}.${(BigInt(first.getTime()) * 1_000_000n + BigInt(n)).toString(16)}`, namespace, creationTimestamp: at },
        involvedObject: { kind: said.involved.kind, namespace, name: said.involved.name, uid: randomUid(random), apiVersion: said.involved.apiVersion, ...(said.involved.fieldPath ? { fieldPath: said.involved.fieldPath } : {}) },
        reason: said.reason,
        message: said.message,
        source: { component: said.component, ...(said.component === 'kubelet' ? { host: nodeName } : {}) },
        firstTimestamp: at,
        lastTimestamp: kubeTime(last),
        count,
        type: said.type,
        eventTime: null,
        reportingComponent: said.component,
        reportingInstance: said.component === 'kubelet' ? nodeName : '',
      },
      { keepCreationTimestamp: true },
    );
  }
  return options.total;
}
