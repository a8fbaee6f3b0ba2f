import { randomUUID } from 'node:crypto';
import type { PlatformNames } from '../../../platform-names.js';
import { admitCreate } from '../apiserver/admission.js';
import type { Controllers } from '../apiserver/controllers.js';
import { hostIP, nodeName, podFromTemplate, randomSuffix, runningStatus, succeededStatus } from '../apiserver/pods.js';
import type { Container, PodTemplate } from '../apiserver/pods.js';
import type { ResourceKind } from '../apiserver/resources.js';
import { crdOf, customKinds } from './custom-kinds.js';
import { seedAddons } from './cluster-addons.js';
import { rolloutCrd } from './rollout-crd.js';
import { b64, bcryptLike, gitopsServerTls, newPassword } from './secret-material.js';
import { kinds } from '../apiserver/resources.js';
import { labelsOf } from '../apiserver/selectors.js';
import type { ObjectStore } from '../apiserver/store.js';
import type { JsonObject, KubeObject } from '../apiserver/types.js';
import { kubeTime } from '../apiserver/types.js';

/** What the standard install is built from. */
export interface SeedOptions {
  names: PlatformNames;
  /** The `LTAG=` of the installer object, e.g. v0.6.29. */
  platformVersion: string;
  /** The metrics dashboard's admin password, under the cluster's dashboard password key. */
  dashboardPassword: string;
  /** The platform database's password, under the cluster's database password key (entry 16 reads it). */
  databasePassword: string;
}

const day = 24 * 3600 * 1000;

const password = newPassword;

/** The platform's service and ingress, as a standard install names them. */
export const platformServiceName = 'devtron-service';
export const platformIngressName = 'devtron-ingress';

/** `devtron-nats-0` → `devtron-nats`: a stateful set's name from one of its pods. */
export function statefulSetOf(podName: string): string {
  return podName.replace(/-\d+$/, '');
}

/** The name part of a `key=value` label, which the standard install also uses as the workload's name. */
function labelValue(selector: string): string {
  return Object.values(labelsOf(selector))[0] ?? selector;
}

function template(labels: Record<string, string>, containers: Container[], extra: JsonObject = {}): PodTemplate {
  return { metadata: { labels }, spec: { containers, ...extra } };
}

function container(name: string, image: string, port?: number): Container {
  return { name, image, imagePullPolicy: 'IfNotPresent', ...(port ? { ports: [{ containerPort: port, name: 'http', protocol: 'TCP' }] } : {}) };
}

/**
 * Builds the standard install of the platform: the platform namespace's workloads, services, secrets,
 * completed migrator jobs and installer object, and a few finished build pods in the CI namespace. All
 * workload pods are Running and Ready; everything is dated a few days back, as on a cluster in use.
 */
export function seedStandardInstall(store: ObjectStore, controllers: Controllers, options: SeedOptions): void {
  const n = options.names;
  const ns = n.platformNamespace;
  const installedAt = new Date(Date.now() - 3 * day);
  const tag = options.platformVersion;
  store.seedTime = installedAt;
  try {
    const add = (kind: ResourceKind, obj: KubeObject) => {
      const uid = randomUUID();
      admitCreate(kind, obj, uid);
      const created = store.create(kind, obj, { uid });
      controllers.reconcileNow(kind, created);
      return created;
    };

    for (const name of ['default', 'kube-system', 'kube-public', ns, n.ciNamespace]) add(kinds.namespace, { metadata: { name } });
    store.create(kinds.node, {
      metadata: { name: nodeName, labels: { 'kubernetes.io/hostname': nodeName, 'kubernetes.io/os': 'linux' } },
      spec: {},
      status: {
        addresses: [{ type: 'InternalIP', address: hostIP }],
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }],
        nodeInfo: { kubeletVersion: 'v1.32.0', osImage: 'simulated', containerRuntimeVersion: 'containerd://1.7.0', architecture: 'amd64', operatingSystem: 'linux' },
      },
    });
    store.create(kinds.storageClass, {
      metadata: { name: 'standard', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'kubernetes.io/gce-pd',
      parameters: { type: 'pd-standard' },
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'Immediate',
      allowVolumeExpansion: false,
    });

    const deployment = (name: string, labelSelector: string, image: string, port: number) => {
      const labels = labelsOf(labelSelector);
      add(kinds.deployment, {
        metadata: { name, namespace: ns, labels },
        spec: { replicas: 1, selector: { matchLabels: labels }, strategy: { type: 'RollingUpdate' }, template: template(labels, [container(name, image, port)]) },
      });
    };
    deployment(labelValue(n.mainPodLabel), n.mainPodLabel, `quay.io/devtron/devtron:${tag}`, 8080);
    deployment(labelValue(n.eventWatcherLabel), n.eventWatcherLabel, `quay.io/devtron/kubewatch:${tag}`, 8080);
    deployment(labelValue(n.dexServerLabel), n.dexServerLabel, 'ghcr.io/dexidp/dex:v2.30.2', 5556);
    deployment(labelValue(n.gitopsServerLabel), n.gitopsServerLabel, 'quay.io/argoproj/argocd:v2.4.0', 8080);
    deployment('devtron-grafana', 'app.kubernetes.io/name=grafana', 'quay.io/devtron/grafana:7.3.1', 3000);

    const statefulSet = (name: string, labels: Record<string, string>, podTemplate: PodTemplate, claims: KubeObject[] = []) =>
      add(kinds.statefulSet, {
        metadata: { name, namespace: ns, labels },
        spec: {
          replicas: 1,
          serviceName: name,
          podManagementPolicy: 'OrderedReady',
          updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
          selector: { matchLabels: labels },
          template: podTemplate,
          volumeClaimTemplates: claims,
        },
      });
    const claim = (name: string, size: string): KubeObject => ({
      metadata: { name },
      spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: size } }, volumeMode: 'Filesystem' },
    });
    for (const pod of n.brokerPods) {
      const name = statefulSetOf(pod);
      const labels = { app: name };
      const image = name.includes('stan') ? 'nats-streaming:0.22.0' : 'nats:2.9.3-alpine';
      statefulSet(name, labels, template(labels, [container(name.includes('stan') ? 'stan' : 'nats', image, 4222)]));
    }
    const dbLabels = { app: 'postgresql', release: 'devtron' };
    statefulSet(
      n.databaseStatefulSet,
      dbLabels,
      template(dbLabels, [container(n.databaseContainer, 'docker.io/bitnami/postgresql:11.3.0-debian-9-r28', 5432)], {
        initContainers: [{ name: n.databaseInitContainer, image: 'docker.io/bitnami/minideb:latest', command: ['sh', '-c', 'chown -R 1001:1001 /bitnami'] }],
      }),
      [claim('data', '20Gi')],
    );
    const gitSensorLabels = labelsOf(n.gitSensorLabel);
    const gitSensorSet = statefulSetOf(n.gitSensorPod);
    // The claim template is named so that `<template>-<pod>` gives the configured claim name.
    const claimSuffix = `-${n.gitSensorPod}`;
    const claimTemplate = n.gitSensorClaim.endsWith(claimSuffix) ? n.gitSensorClaim.slice(0, -claimSuffix.length) : 'git-volume';
    statefulSet(gitSensorSet, gitSensorLabels, template(gitSensorLabels, [container(gitSensorSet, `quay.io/devtron/git-sensor:${tag}`, 8080)]), [claim(claimTemplate, '10Gi')]);
    if (!n.gitSensorClaim.endsWith(claimSuffix)) {
      add(kinds.pvc, { metadata: { name: n.gitSensorClaim, namespace: ns, labels: gitSensorLabels }, spec: claim('x', '10Gi')['spec'] });
    }

    const service = (name: string, selector: Record<string, string>, port: number, targetPort: number) =>
      add(kinds.service, { metadata: { name, namespace: ns }, spec: { selector, ports: [{ name: 'http', port, targetPort, protocol: 'TCP' }] } });
    service(platformServiceName, labelsOf(n.mainPodLabel), 80, 8080);
    service('devtron-grafana', { 'app.kubernetes.io/name': 'grafana' }, 80, 3000);
    service(labelValue(n.gitopsServerLabel), labelsOf(n.gitopsServerLabel), 80, 8080);
    service(labelValue(n.dexServerLabel), labelsOf(n.dexServerLabel), 5556, 5556);
    service(n.databaseStatefulSet, dbLabels, 5432, 5432);
    service('git-sensor-service', gitSensorLabels, 80, 8080);

    const backend = (path: string, svc: string) => ({ path, pathType: 'Prefix', backend: { service: { name: svc, port: { number: 80 } } } });
    add(kinds.ingress, {
      // The platform's chart sets a body-size limit above the controller's 1m default (entry 12's broken state removes it).
      metadata: { name: platformIngressName, namespace: ns, annotations: { 'nginx.ingress.kubernetes.io/proxy-body-size': '100m' } },
      spec: {
        ingressClassName: 'nginx',
        rules: [{ http: { paths: [backend('/orchestrator', platformServiceName), backend('/dashboard', platformServiceName), backend('/grafana', 'devtron-grafana'), backend('/', platformServiceName)] } }],
      },
    });

    const mtime = kubeTime(installedAt);
    add(kinds.secret, {
      metadata: { name: n.platformSecret, namespace: ns },
      type: 'Opaque',
      data: {
        ADMIN_PASSWORD: b64(password()),
        'admin.password': b64(bcryptLike()),
        'admin.passwordMtime': b64(mtime),
        ACD_PASSWORD: b64(password()),
        [n.dashboardPasswordKey]: b64(options.dashboardPassword),
        [n.databasePasswordKey]: b64(options.databasePassword),
      },
    });
    add(kinds.secret, {
      metadata: { name: n.gitopsSecret, namespace: ns, labels: { 'app.kubernetes.io/part-of': 'argocd' } },
      type: 'Opaque',
      data: {
        ...gitopsServerTls(),
        'admin.password': b64(bcryptLike()),
        'admin.passwordMtime': b64(mtime),
        'server.secretkey': b64(password()),
      },
    });
    add(kinds.configMap, { metadata: { name: 'devtron-cm', namespace: ns }, data: { PG_ADDR: `${n.databaseStatefulSet}.${ns}`, CD_NAMESPACE: 'devtron-cd' } });

    for (const db of ['devtron', 'casbin', 'gitsensor', 'lens']) {
      // Named as the migrator manifest names them (manifests/yamls/migrator.yaml).
      const name = `postgresql-migrate-${db}`;
      add(kinds.job, {
        metadata: { name, namespace: ns },
        spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [container('postgresql-migrate', 'quay.io/devtron/migrator:v4.16.2')] } } },
      });
    }

    // The CRDs this install has: the platform's installer, Argo Rollouts (installed with the platform's CI/CD
    // module) and, as on GKE, the load balancer's BackendConfig. Their objects are served only while they exist.
    add(kinds.crd, crdOf(customKinds.installer, { 'app.kubernetes.io/part-of': 'devtron' }));
    add(kinds.crd, rolloutCrd('current'));
    add(kinds.crd, crdOf(customKinds.backendConfig, { 'addonmanager.kubernetes.io/mode': 'Reconcile' }));
    seedAddons(add, n);

    add(customKinds.installer, {
      metadata: { name: n.installerName, namespace: ns },
      spec: { url: 'https://raw.githubusercontent.com/devtron-labs/devtron/main/manifests/installation-script' },
      status: {
        currentState: 'Applied',
        sync: { data: [`BLOB_STORAGE_PROVIDER=`, `LTAG=${tag}`, `INSTALLER_MODULES=cicd`, `PG_VOLUME_SIZE=20Gi`].join('\n') + '\n', URL: '' },
      },
    });

    settleSeedPods(store, controllers, installedAt);
    seedBuildPods(store, n.ciNamespace);
  } finally {
    store.seedTime = undefined;
  }
}

/** Brings every seeded pod to its steady state at once (jobs' pods complete) and fills in workload status. */
function settleSeedPods(store: ObjectStore, controllers: Controllers, installedAt: Date): void {
  const startedAt = new Date(installedAt.getTime() + 60_000);
  // Deployments made their ReplicaSets above; the ReplicaSets make their pods here.
  for (const rs of store.list(kinds.replicaSet)) controllers.reconcileNow(kinds.replicaSet, rs);
  for (const pod of store.list(kinds.pod)) {
    const jobPod = pod.metadata.ownerReferences?.some((o) => o.kind === 'Job') === true;
    pod['status'] = {}; // forget the creation-time Pending status, whose startTime is now
    pod['status'] = jobPod ? succeededStatus(pod, startedAt) : runningStatus(pod, startedAt);
    store.update(kinds.pod, pod);
  }
  for (const kind of [kinds.replicaSet, kinds.deployment, kinds.statefulSet, kinds.job]) {
    for (const obj of store.list(kind)) controllers.refreshStatusNow(kind, obj.metadata.namespace ?? '', obj.metadata.name ?? '');
  }
}

/** Finished build pods, as the CI namespace holds after a few builds. */
function seedBuildPods(store: ObjectStore, ciNamespace: string): void {
  for (const [i, hoursAgo] of [26, 5, 2].entries()) {
    const at = new Date(Date.now() - hoursAgo * 3600 * 1000);
    store.seedTime = at;
    const workflow = `ci-${i + 3}-${randomSuffix()}`;
    const pod = podFromTemplate(
      template(
        {
          'devtron.ai/purpose': 'workflow',
          'workflows.argoproj.io/workflow': workflow,
          'workflows.argoproj.io/completed': 'true',
        },
        [container('wait', 'quay.io/argoproj/argoexec:v3.0.7'), container('main', `quay.io/devtron/ci-runner:${randomSuffix(8)}`)],
        { restartPolicy: 'Never', serviceAccountName: 'ci-runner' },
      ),
      { name: `${workflow}-${Math.floor(1e9 + Math.random() * 9e9)}`, namespace: ciNamespace },
    );
    pod['status'] = succeededStatus(pod, new Date(at.getTime() + 240_000));
    store.create(kinds.pod, pod);
  }
}
