import type { FaultEntry, SimView } from '../fault-model.js';
import { kinds } from '../../apiserver/resources.js';
import type { KubeObject } from '../../apiserver/types.js';

/**
 * Entry 18: the platform namespace's resources were not installed by the chart manager, so an upgrade
 * through it fails ("cannot patch"): Helm 3 adopts an existing object only when it carries
 * `app.kubernetes.io/managed-by=Helm` and the release name and namespace annotations. A fresh
 * simulated install carries none of them (it was installed by the platform's installer), so breaking
 * only strips any that were added; the check looks at the kinds the chart owns.
 */
const chartKinds = [kinds.deployment, kinds.statefulSet, kinds.service, kinds.configMap, kinds.secret, kinds.serviceAccount, kinds.ingress];
const helmKeys = { label: 'app.kubernetes.io/managed-by', name: 'meta.helm.sh/release-name', namespace: 'meta.helm.sh/release-namespace' };

/** Objects the chart would own: not made by a controller, not a token, a Helm record or a platform-medic backup. */
export function chartOwned(obj: KubeObject): boolean {
  if ((obj.metadata.ownerReferences ?? []).length > 0) return false;
  if (obj.kind === 'Secret') {
    const type = String(obj['type'] ?? 'Opaque');
    if (type === 'kubernetes.io/service-account-token' || type.startsWith('helm.sh/release')) return false;
    if (obj.metadata.labels?.['platform-medic.dev/backup-of'] !== undefined) return false;
  }
  if (obj.kind === 'ServiceAccount' && obj.metadata.name === 'default') return false;
  if (obj.kind === 'ConfigMap' && obj.metadata.name === 'kube-root-ca.crt') return false;
  return true;
}

function unadopted({ store, names }: SimView): KubeObject[] {
  const ns = names.platformNamespace;
  return chartKinds
    .flatMap((k) => store.list(k, ns))
    .filter(chartOwned)
    .filter((o) => o.metadata.labels?.[helmKeys.label] !== 'Helm' || o.metadata.annotations?.[helmKeys.name] !== names.installerReleaseName || o.metadata.annotations?.[helmKeys.namespace] !== ns);
}

export const helmAdoption: FaultEntry = {
  entryId: 'upgrade-cannot-patch-database',
  guideEntry: 18,
  breakState({ store, names }) {
    for (const kind of chartKinds) {
      for (const obj of store.list(kind, names.platformNamespace).filter(chartOwned)) {
        const labels = { ...(obj.metadata.labels ?? {}) };
        const annotations = { ...(obj.metadata.annotations ?? {}) };
        if (labels[helmKeys.label] === undefined && annotations[helmKeys.name] === undefined) continue;
        delete labels[helmKeys.label];
        delete annotations[helmKeys.name];
        delete annotations[helmKeys.namespace];
        store.update(kind, { ...obj, metadata: { ...obj.metadata, labels, annotations } });
      }
    }
  },
  present: (view) => unadopted(view).length > 0,
};
