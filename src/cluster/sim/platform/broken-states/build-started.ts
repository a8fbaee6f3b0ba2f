import { podFromTemplate, randomSuffix, runningStatus } from '../../apiserver/pods.js';
import type { SimView } from '../fault-model.js';
import { kinds } from '../../apiserver/resources.js';

/**
 * Entry 4's broken state as a person meets it: a build was just started and its pod did appear in the
 * CI namespace (the guide's first check passes), but its logs never reach the dashboard.
 */
export function startBuild({ store, names }: SimView): void {
  const workflow = `ci-9-${randomSuffix()}`;
  const pod = podFromTemplate(
    {
      metadata: { labels: { 'devtron.ai/purpose': 'workflow', 'workflows.argoproj.io/workflow': workflow } },
      spec: {
        restartPolicy: 'Never',
        serviceAccountName: 'ci-runner',
        containers: [
          { name: 'wait', image: 'quay.io/argoproj/argoexec:v3.0.7', imagePullPolicy: 'IfNotPresent' },
          { name: 'main', image: `quay.io/devtron/ci-runner:${randomSuffix(8)}`, imagePullPolicy: 'IfNotPresent' },
        ],
      },
    },
    { name: `${workflow}-${Math.floor(1e9 + Math.random() * 9e9)}`, namespace: names.ciNamespace },
  );
  pod['status'] = runningStatus(pod);
  store.create(kinds.pod, pod);
}
