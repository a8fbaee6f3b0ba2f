import { randomUUID } from 'node:crypto';
import { admitCreate } from '../../apiserver/admission.js';
import type { KubeObject } from '../../apiserver/types.js';
import { podSpecOf } from '../../apiserver/pods.js';
import { kinds } from '../../apiserver/resources.js';
import { applicationNamespace } from '../cluster-addons.js';
import type { FaultEntry, PodFault, SimView } from '../fault-model.js';

const registry = 'registry.acme-corp.io';
const appName = 'payments-web';
/** The application's image, in a private registry. */
export const privateImage = `${registry}/payments/web:1.4.2`;

/**
 * containerd's resolution errors for a registry that refuses the pull, as the kubelet reports them
 * ("Failed to pull image …: rpc error: code = Unknown desc = failed to pull and unpack image …"; texts
 * of containerd remotes/docker resolver.go and authorizer.go): without credentials the token endpoint
 * answers 401; with credentials that lack pull permission the registry answers 403.
 */
function refusal(status: 401 | 403): PodFault {
  const unpack = `rpc error: code = Unknown desc = failed to pull and unpack image "${privateImage}": failed to resolve reference "${privateImage}": `;
  const why =
    status === 401
      ? `failed to authorize: failed to fetch oauth token: unexpected status from GET request to https://${registry}/service/token?scope=repository%3Apayments%2Fweb%3Apull&service=harbor-registry: 401 Unauthorized`
      : `unexpected status from HEAD request to https://${registry}/v2/payments/web/manifests/1.4.2: 403 Forbidden`;
  return {
    entry: 'image-pull-private-registry',
    text: `registry refuses the pull (${status})`,
    log: () => [],
    trouble: () => ({ kind: 'image-pull', pullError: `${unpack}${why}` }),
  };
}

export const registryUnauthorized = refusal(401);
export const registryForbidden = refusal(403);

type Memo = { status: 401 | 403 };

/** Whether the pod spec names a pull secret for the registry that exists in its namespace. */
function hasPullSecret({ store }: SimView, namespace: string, spec: { imagePullSecrets?: Array<{ name?: string }> }): boolean {
  return (spec.imagePullSecrets ?? []).some(({ name }) => {
    const secret = store.get(kinds.secret, namespace, name ?? '');
    const config = (secret?.['data'] as Record<string, string> | undefined)?.['.dockerconfigjson'];
    return config !== undefined && Buffer.from(config, 'base64').toString('utf8').includes(registry);
  });
}

type PodSpecLike = { containers?: Array<{ image?: string }>; imagePullSecrets?: Array<{ name?: string }> };

const refused = (view: SimView, namespace: string, spec: PodSpecLike, memo: unknown) =>
  (spec.containers ?? []).some((c) => c.image?.startsWith(`${registry}/`) === true) && ((memo as Memo | undefined)?.status === 403 || !hasPullSecret(view, namespace, spec));

function appDeployment(): KubeObject {
  const labels = { app: appName, 'app.kubernetes.io/managed-by': 'devtron' };
  return {
    metadata: { name: appName, namespace: applicationNamespace, labels },
    spec: { replicas: 2, selector: { matchLabels: { app: appName } }, template: { metadata: { labels }, spec: { containers: [{ name: appName, image: privateImage, imagePullPolicy: 'IfNotPresent', ports: [{ containerPort: 8080 }] }] } } },
  };
}

/**
 * Entry 20: an application deployed from a private registry whose credentials the cluster lacks (401,
 * the default) or whose credentials lack pull permission (`status: 403`): its pods stay in
 * ImagePullBackOff. Fixed (401) when the Deployment names an existing pull secret for the registry.
 */
export const imagePullPrivateRegistry: FaultEntry = {
  entryId: 'image-pull-private-registry',
  guideEntry: 20,
  breakState({ store }, options): Memo {
    const status = options['status'] ?? 401;
    if (status !== 401 && status !== 403) throw new Error(`image-pull-private-registry status must be 401 or 403, not ${String(status)}`);
    if (!store.get(kinds.deployment, applicationNamespace, appName)) {
      const uid = randomUUID();
      const deployment = appDeployment();
      admitCreate(kinds.deployment, deployment, uid);
      store.create(kinds.deployment, deployment, { uid });
    }
    return { status };
  },
  inheritance: () =>
    ([registryUnauthorized, registryForbidden] as const).map((fault, i) => ({
      newPods: [{ label: `app=${appName}` }],
      fault,
      whenPod: (pod: KubeObject, view: SimView, memo: unknown) => (memo as Memo | undefined)?.status === (i === 0 ? 401 : 403) && refused(view, pod.metadata.namespace ?? '', podSpecOf(pod), memo),
    })),
  present(view, memo) {
    const spec = (view.store.get(kinds.deployment, applicationNamespace, appName)?.['spec'] as { template?: { spec?: object } } | undefined)?.template?.spec as PodSpecLike | undefined;
    return spec !== undefined && refused(view, applicationNamespace, spec, memo);
  },
};
