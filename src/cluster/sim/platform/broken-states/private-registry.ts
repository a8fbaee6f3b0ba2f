import { podFromTemplate, randomSuffix } from '../../apiserver/pods.js';
import { kinds } from '../../apiserver/resources.js';
import { kubeTime } from '../../apiserver/types.js';
import { faultAnnotation, type FaultEntry, type SimView } from '../fault-model.js';

/** Where the application runs: a namespace of its own, as the platform deploys applications. */
export const appNamespace = 'payments-prod';
const image = 'registry.example.com/payments/api:1.4.2';

/**
 * Entry 20: an application's pod cannot pull its image from a private registry whose credentials
 * were not injected into this cluster. The kubelet records the registry's refusal as a Warning event
 * on the pod; the text is containerd's (pkg/remotes/docker/resolver.go: "unexpected status from HEAD
 * request to …: 401 Unauthorized"), wrapped by the kubelet's "Failed to pull image" (pkg/kubelet/images).
 */
function deployApplication({ store }: SimView): void {
  const name = `payments-api-7c9d8f6b5-${randomSuffix()}`;
  const pod = podFromTemplate(
    { metadata: { labels: { app: 'payments-api' } }, spec: { containers: [{ name: 'payments-api', image, imagePullPolicy: 'IfNotPresent' }] } },
    { name, namespace: appNamespace, labels: { app: 'payments-api' } },
  );
  // The fault (pod-faults.ts, registryCredentialsRefused) keeps its container waiting in ImagePullBackOff.
  pod.metadata.annotations = { [faultAnnotation]: 'registry credentials refused' };
  store.create(kinds.pod, pod);
  const at = kubeTime();
  store.create(kinds.event, {
    metadata: { name: `${name}.${randomSuffix(8)}`, namespace: appNamespace },
    involvedObject: { kind: 'Pod', namespace: appNamespace, name, apiVersion: 'v1', fieldPath: 'spec.containers{payments-api}' },
    reason: 'Failed',
    message: `Failed to pull image "${image}": rpc error: code = Unknown desc = failed to pull and unpack image "${image}": failed to resolve reference "${image}": unexpected status from HEAD request to https://registry.example.com/v2/payments/api/manifests/1.4.2: 401 Unauthorized`,
    source: { component: 'kubelet', host: 'sim-node-1' },
    type: 'Warning',
    count: 4,
    firstTimestamp: at,
    lastTimestamp: at,
  });
}

export const imagePullPrivateRegistry: FaultEntry = {
  entryId: 'image-pull-private-registry',
  guideEntry: 20,
  breakState: (view) => deployApplication(view),
};
