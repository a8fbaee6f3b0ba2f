import { podSpecOf } from '../../apiserver/pods.js';
import { kinds } from '../../apiserver/resources.js';
import type { KubeObject } from '../../apiserver/types.js';
import { customKinds } from '../custom-kinds.js';
import { applicationNamespace, rolloutController } from '../cluster-addons.js';
import { klogLine } from '../component-logs.js';
import type { FaultEntry, PodFault } from '../fault-model.js';

/** The controller version of entry 19. */
export const oldControllerVersion = 'v0.13.0';
const oldImage = rolloutController.image(oldControllerVersion);

/**
 * A rollout controller older than 1.0 on Kubernetes 1.22 or later: its informers still list Ingresses
 * from extensions/v1beta1, which 1.22 removed, so client-go's reflector logs each failed list
 * (k8s.io/client-go tools/cache/reflector.go "Failed to watch … failed to list …") and the controller
 * never writes the rollouts' status, whose missing `canary` block GitOps's rollout health script indexes.
 */
export const controllerTooOld: PodFault = {
  entry: 'rollout-stable-rs',
  text: 'rollout controller older than the cluster',
  log(pod, now) {
    const started = Date.parse((pod['status'] as { startTime?: string } | undefined)?.startTime ?? '') || now.getTime();
    const lines = [];
    for (let t = Math.max(started, now.getTime() - 10 * 60_000); t <= now.getTime(); t += 60_000) {
      lines.push(klogLine('E', new Date(t), 'reflector.go:127', 'k8s.io/client-go/informers/factory.go:134: Failed to watch *v1beta1.Ingress: failed to list *v1beta1.Ingress: the server could not find the requested resource'));
    }
    return lines;
  },
};

const controllerImage = (obj: KubeObject | undefined) => (obj?.['spec'] as { template?: { spec?: { containers?: Array<{ image?: string }> } } } | undefined)?.template?.spec?.containers?.[0]?.image;

/** A rollout of the sample application with a canary strategy, as the platform's rollout chart deploys it; no status is written. */
function canaryRollout(): KubeObject {
  const labels = { app: 'orders-api' };
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: { name: 'orders-api', namespace: applicationNamespace, labels },
    spec: {
      replicas: 2,
      selector: { matchLabels: labels },
      strategy: { canary: { steps: [{ setWeight: 25 }, { pause: { duration: '1m' } }] } },
      template: { metadata: { labels }, spec: { containers: [{ name: 'orders-api', image: 'quay.io/example/orders-api:2.3.1' }] } },
    },
  };
}

/**
 * Entry 19: the rollout controller is 0.13.0 on a cluster of version 1.22 or later (the simulator serves
 * 1.32). Fixed when the controller's Deployment runs a current version.
 */
export const rolloutStableRs: FaultEntry = {
  entryId: 'rollout-stable-rs',
  guideEntry: 19,
  breakState({ store, names }) {
    const controller = store.get(kinds.deployment, names.platformNamespace, rolloutController.name);
    if (!controller) throw new Error(`cannot break rollout-stable-rs: no deployment ${rolloutController.name}`);
    const spec = structuredClone(controller['spec']) as { template: { spec: { containers: Array<{ image?: string }> } } };
    for (const c of spec.template.spec.containers) c.image = oldImage;
    store.update(kinds.deployment, { ...controller, spec });
    if (!store.get(customKinds.rollout, applicationNamespace, 'orders-api')) store.create(customKinds.rollout, canaryRollout());
  },
  inheritance: () => [{ newPods: [{ label: `app.kubernetes.io/name=${rolloutController.name}` }], fault: controllerTooOld, whenPod: (pod) => podSpecOf(pod).containers.some((c) => c.image === oldImage) }],
  present: ({ store, names }) => controllerImage(store.get(kinds.deployment, names.platformNamespace, rolloutController.name)) === oldImage,
};
