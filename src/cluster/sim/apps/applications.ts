import { randomUUID } from 'node:crypto';
import { admitCreate } from '../apiserver/admission.js';
import { ownerReference, type Controllers } from '../apiserver/controllers.js';
import type { PodRuntime } from '../apiserver/pod-runtime.js';
import { podFromTemplate, runningStatus, succeededStatus, type Container, type ContainerTrouble, type PodTemplate } from '../apiserver/pods.js';
import { kinds } from '../apiserver/resources.js';
import type { ObjectStore } from '../apiserver/store.js';
import type { JsonObject, KubeObject } from '../apiserver/types.js';
import { kubeTime } from '../apiserver/types.js';
import { templateHash } from '../apiserver/workload-status.js';
import { seedEventHistory, type DeployedApp, type RanJob } from './event-history.js';
import { seededRandom, type Random } from './random.js';

/**
 * The applications of a large install: teams' namespaces (one per team and environment), each with
 * the Deployments the platform deployed there (ReplicaSet, pods) and the Jobs their schedules ran,
 * in the states a busy cluster shows (most pods Running and Ready; a few crash-looping, failing their
 * readiness probe, or waiting on an image tag that does not exist; most jobs Complete, some Failed
 * with BackoffLimitExceeded, a few running), and days of events about them. Objects go straight into
 * the store (no HTTP), through the sim's own admission and Deployment controller, so a large cluster
 * is seeded in a moment; clients read it over the API as any other.
 */
export interface Applications {
  /** Pods added, the jobs' pods included. */
  readonly pods: number;
  /** Jobs added; default a quarter of `pods`. */
  readonly jobs?: number;
  /** Namespaces they spread over; default one per 40 pods. */
  readonly namespaces?: number;
  /** How many days of events the API server keeps (its --event-ttl raised from the 1 h default); default 30. */
  readonly eventDays?: number;
  /** Events per pod over those days; default 10. */
  readonly eventsPerPod?: number;
  /** The same seed grows the same cluster (names, states, times relative to now); default 1. */
  readonly seed?: number;
}

/** What was added, counted. */
export interface GrownApplications {
  readonly namespaces: number;
  readonly deployments: number;
  readonly pods: number;
  readonly jobs: number;
  /** The history's events; the kubelet adds its own about the troubled pods as they start. */
  readonly events: number;
}

/** What keeps an application's containers from being ready, by `namespace/app`: its replacement pods keep it. */
export type ApplicationTroubles = Map<string, ContainerTrouble>;

const appKey = (namespace: string, app: string) => `${namespace}/${app}`;

/** The platform's pods as they are, and the applications' pods with their own troubles (a missing tag, a crash, a failing probe). */
export function withApplications(platform: PodRuntime, troubles: ReadonlyMap<string, ContainerTrouble>): PodRuntime {
  return {
    preparePod: (pod, podsInNamespace) => platform.preparePod(pod, podsInNamespace),
    troubles(pod) {
      const own = troubles.get(appKey(pod.metadata.namespace ?? '', pod.metadata.labels?.['app'] ?? ''));
      const platformTroubles = platform.troubles(pod);
      return own ? [...platformTroubles, own] : platformTroubles;
    },
    logLines: (pod, now) => platform.logLines(pod, now),
  };
}

const day = 24 * 3600 * 1000;
const teams = ['payments', 'orders', 'catalog', 'search', 'identity', 'billing', 'shipping', 'inventory', 'analytics', 'notifications', 'media', 'support', 'growth'];
const envs = ['dev', 'qa', 'staging', 'prod'];
const roles = ['api', 'web', 'worker', 'consumer', 'gateway', 'scheduler', 'graphql', 'admin', 'exporter', 'reconciler', 'cache-warmer', 'webhooks'];
const schedules = ['nightly-report', 'db-backup', 'cleanup', 'sync-partners', 'export'];
/** The teams' images come from the cloud's registry, which the nodes' own role may pull from. */
const registry = '215937628856.dkr.ecr.eu-west-1.amazonaws.com';

/** `payments-dev`, `payments-qa`, …, then `payments-dev-2` once every team has every environment. */
function namespaceName(i: number): string {
  const team = teams[Math.floor(i / envs.length) % teams.length]!;
  const round = Math.floor(i / (envs.length * teams.length));
  return `${team}-${envs[i % envs.length]!}${round > 0 ? `-${round + 1}` : ''}`;
}

function appContainer(name: string, image: string, env: string, namespace: string): Container {
  const probe = (path: string, delay: number) => ({ httpGet: { path, port: 8080, scheme: 'HTTP' }, initialDelaySeconds: delay, periodSeconds: 10, timeoutSeconds: 1, successThreshold: 1, failureThreshold: 3 });
  return {
    name,
    image,
    imagePullPolicy: 'IfNotPresent',
    ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
    env: [
      { name: 'APP_ENV', value: env },
      { name: 'PORT', value: '8080' },
      { name: 'LOG_LEVEL', value: env === 'prod' ? 'info' : 'debug' },
      { name: 'DB_HOST', value: `${namespace.split('-')[0]}-db.${namespace}.svc.cluster.local` },
      { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
    ],
    envFrom: [{ configMapRef: { name: `${name}-cm` } }, { secretRef: { name: `${name}-secret` } }],
    resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } },
    readinessProbe: probe('/health/ready', 5),
    livenessProbe: probe('/health/live', 30),
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
  };
}

/** What admission adds to every pod: the service account token's volume and the default tolerations. */
function admitted(pod: KubeObject, random: Random): KubeObject {
  const spec = pod['spec'] as JsonObject & { containers: Container[] };
  const volume = `kube-api-access-${random.suffix()}`;
  spec['volumes'] = [
    {
      name: volume,
      projected: {
        defaultMode: 420,
        sources: [
          { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
          { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
        ],
      },
    },
  ];
  for (const c of spec.containers) c['volumeMounts'] = [{ name: volume, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }];
  spec['tolerations'] = ['not-ready', 'unreachable'].map((t) => ({ key: `node.kubernetes.io/${t}`, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }));
  spec['enableServiceLinks'] = true;
  spec['preemptionPolicy'] = 'PreemptLowerPriority';
  spec['priority'] = 0;
  return pod;
}

/** A new pod without its creation-time Pending status (whose startTime is now), to be given the status it reached. */
function unstarted(pod: KubeObject): KubeObject {
  pod['status'] = {};
  return pod;
}

/** A job's pod that ran and failed (exit 1), as the kubelet leaves it. */
function failedStatus(pod: KubeObject, at: Date): JsonObject {
  const done = succeededStatus(pod, at);
  const statuses = done['containerStatuses'] as Array<{ state: { terminated: JsonObject } }>;
  return {
    ...done,
    phase: 'Failed',
    conditions: (done['conditions'] as JsonObject[]).map((c) => (c['reason'] === 'PodCompleted' ? { ...c, reason: 'PodFailed' } : c)),
    containerStatuses: statuses.map((s) => ({ ...s, state: { terminated: { ...s.state.terminated, exitCode: 1, reason: 'Error' } } })),
  };
}

/** Adds the applications of a large install to the store; the controllers fill in workload status (settle before reading it). */
export function seedApplications(store: ObjectStore, controllers: Controllers, troubles: ApplicationTroubles, options: Applications, now = new Date()): GrownApplications {
  const random = seededRandom(options.seed ?? 1);
  const jobCount = Math.max(0, options.jobs ?? Math.round(options.pods / 4));
  const namespaceCount = Math.max(1, options.namespaces ?? Math.round(options.pods / 40));
  const eventDays = options.eventDays ?? 30;
  const namespaces = Array.from({ length: namespaceCount }, (_, i) => namespaceName(i));
  const apps: DeployedApp[] = [];
  const jobs: RanJob[] = [];
  let pods = 0;
  const createPod = (pod: KubeObject, status: JsonObject, at: Date) => {
    pod['status'] = status;
    store.seedTime = at;
    store.create(kinds.pod, admitted(pod, random));
    pods += 1;
  };
  try {
    for (const name of namespaces) {
      store.seedTime = new Date(now.getTime() - random.int(40, 400) * day);
      const uid = randomUUID();
      const ns = { metadata: { name, labels: { team: name.split('-')[0]!, 'app.kubernetes.io/managed-by': 'devtron' } } };
      admitCreate(kinds.namespace, ns, uid);
      store.create(kinds.namespace, ns, { uid });
    }

    // Jobs first: a failed job's two pods count against the budget before the Deployments share the rest.
    for (let i = 0; i < jobCount; i++) {
      const namespace = namespaces[i % namespaces.length]!;
      const state = random.weighted([['complete', 88], ['failed', 8], ['running', 4]] as const);
      const createdAt = new Date(now.getTime() - (state === 'running' ? random.int(60, 1800) * 1000 : random.next() * eventDays * day));
      const name = `${namespace.split('-')[0]}-${schedules[i % schedules.length]}-${Math.floor(createdAt.getTime() / 60_000) + i}`;
      const image = `${registry}/${namespace.split('-')[0]}/jobs:${random.hex(8)}`;
      const container = 'job';
      const uid = randomUUID();
      const job: KubeObject = {
        metadata: { name, namespace, labels: { app: name.replace(/-\d+$/, '') } },
        spec: { backoffLimit: 1, template: { spec: { restartPolicy: 'Never', containers: [{ name: container, image, imagePullPolicy: 'IfNotPresent', args: ['run'] }] } } },
      };
      admitCreate(kinds.job, job, uid);
      const took = random.int(20, 900) * 1000;
      const finished = kubeTime(new Date(createdAt.getTime() + took));
      const condition = (type: string, reason: string, message: string) => ({ type, status: 'True', reason, message, lastProbeTime: finished, lastTransitionTime: finished });
      job['status'] =
        state === 'complete'
          ? { startTime: kubeTime(createdAt), completionTime: finished, succeeded: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {}, conditions: [condition('SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods'), condition('Complete', 'CompletionsReached', 'Reached expected number of succeeded pods')] }
          : state === 'failed'
            ? { startTime: kubeTime(createdAt), failed: 2, ready: 0, terminating: 0, uncountedTerminatedPods: {}, conditions: [condition('FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit'), condition('Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit')] }
            : { startTime: kubeTime(createdAt), active: 1, ready: 1, terminating: 0, uncountedTerminatedPods: {} };
      store.seedTime = createdAt;
      const created = store.create(kinds.job, job, { uid });
      const template = (created['spec'] as { template: PodTemplate }).template;
      const podNames: string[] = [];
      for (let attempt = 0; attempt < (state === 'failed' ? 2 : 1); attempt++) {
        const started = new Date(createdAt.getTime() + attempt * took);
        const pod = unstarted(podFromTemplate(template, { name: `${name}-${random.suffix()}`, namespace, owner: ownerReference(kinds.job, created) }));
        podNames.push(pod.metadata.name ?? '');
        const status = state === 'complete' ? succeededStatus(pod, new Date(started.getTime() + took)) : state === 'failed' ? failedStatus(pod, new Date(started.getTime() + took / 2)) : runningStatus(pod, started);
        createPod(pod, status, started);
      }
      jobs.push({ namespace, name, uid, container, image, state, createdAt, pods: podNames });
    }

    for (let i = 0; pods < options.pods; i++) {
      const namespace = namespaces[i % namespaces.length]!;
      const [team, env = 'dev'] = namespace.split('-') as [string, string?];
      const role = roles[Math.floor(i / namespaces.length) % roles.length]!;
      const round = Math.floor(i / (namespaces.length * roles.length));
      const app = `${team}-${role}${round > 0 ? `-${round + 1}` : ''}`;
      const name = `${app}-${env}`;
      const wanted = random.weighted([[1, 30], [2, 35], [3, 20], [4, 8], [5, 4], [6, 3]] as const) * (env === 'prod' ? 2 : 1);
      const replicas = Math.min(wanted, 8, options.pods - pods);
      // A steady share of troubled applications at every size: 2% crash-looping, 1.5% on a missing tag, 3% unready.
      const trouble = i % 50 === 7 ? 'crash' : i % 67 === 13 ? 'image' : i % 33 === 20 ? 'unready' : 'none';
      const tag = `${random.hex(8)}-${random.int(10, 99)}-${random.int(100, 399)}`;
      const image = `${registry}/${team}/${role}:${trouble === 'image' ? `${tag}-rc` : tag}`;
      if (trouble !== 'none') {
        troubles.set(
          appKey(namespace, app),
          trouble === 'crash'
            ? { kind: 'crash-loop', exitCode: random.pick([1, 1, 2, 137]), restarts: random.int(3, 400) }
            : trouble === 'unready'
              ? { kind: 'unready', probeFailure: 'HTTP probe failed with statuscode: 503' }
              : { kind: 'image-pull', pullError: `rpc error: code = NotFound desc = failed to pull and unpack image "${image}": failed to resolve reference "${image}": ${image}: not found` },
        );
      }
      const labels = { app, appId: String(100 + i), envId: String(1 + envs.indexOf(env)), release: name, releaseVersion: String(random.int(1, 60)) };
      const selector = { app, release: name };
      const deployment: KubeObject = {
        metadata: { name, namespace, labels: { ...selector, 'app.kubernetes.io/managed-by': 'Helm' }, annotations: { 'meta.helm.sh/release-name': name, 'meta.helm.sh/release-namespace': namespace } },
        spec: {
          replicas,
          revisionHistoryLimit: 3,
          progressDeadlineSeconds: 600,
          selector: { matchLabels: selector },
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } },
          template: { metadata: { labels }, spec: { serviceAccountName: 'default', terminationGracePeriodSeconds: 30, containers: [appContainer(app, image, env, namespace)] } },
        },
      };
      const uid = randomUUID();
      admitCreate(kinds.deployment, deployment, uid);
      store.seedTime = new Date(now.getTime() - random.int(eventDays, eventDays * 6) * day);
      const created = store.create(kinds.deployment, deployment, { uid });
      // The last rollout: the Deployment controller makes its ReplicaSet then; its pods start a moment later.
      const rolledOutAt = new Date(now.getTime() - random.next() * eventDays * day);
      store.seedTime = rolledOutAt;
      controllers.reconcileNow(kinds.deployment, created);
      const rs = store.get(kinds.replicaSet, namespace, `${name}-${templateHash((deployment['spec'] as { template: PodTemplate }).template)}`);
      if (!rs) throw new Error(`the Deployment controller made no ReplicaSet for ${namespace}/${name}`);
      const template = (rs['spec'] as { template: PodTemplate }).template;
      const own = troubles.get(appKey(namespace, app));
      const podNames: string[] = [];
      for (let r = 0; r < replicas; r++) {
        const startedAt = new Date(rolledOutAt.getTime() + random.int(2, 40) * 1000);
        const pod = unstarted(podFromTemplate(template, { name: `${rs.metadata.name}-${random.suffix()}`, namespace, owner: ownerReference(kinds.replicaSet, rs) }));
        podNames.push(pod.metadata.name ?? '');
        createPod(pod, runningStatus(pod, startedAt, own ? [own] : []), startedAt);
      }
      apps.push({ namespace, name, uid: created.metadata.uid ?? '', replicaSet: rs.metadata.name ?? '', container: app, image, replicas, pods: podNames });
    }
    const events = seedEventHistory(store, random, { apps, jobs, eventDays, total: Math.round(pods * (options.eventsPerPod ?? 10)), now });
    return { namespaces: namespaces.length, deployments: apps.length, pods, jobs: jobs.length, events };
  } finally {
    store.seedTime = undefined;
  }
}
