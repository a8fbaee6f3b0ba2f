import { entry18UpgradeCommand } from '../../values/helm-command.js';
import type { CatalogueEntry } from '../model.js';

/** Guide 7.18: the upgrade cannot patch the database stateful set. */
export const upgradeCannotPatchDatabase: CatalogueEntry = {
  id: 'upgrade-cannot-patch-database',
  ref: '7.18',
  title: "Upgrade fails with 'cannot patch' for the database stateful set",
  symptom:
    "An upgrade fails with 'cannot patch' for the database stateful set (only replicas, template, updateStrategy and minReadySeconds may change).",
  cause: 'The resources are not labelled and annotated for the chart manager, and the volume size differs.',
  signatures: {
    errors: [
      'cannot patch "postgresql-postgresql" with kind StatefulSet',
    ],
    phrases: [
      'updates to statefulset spec for fields other than',
      'upgrade fails cannot patch statefulset',
      'helm upgrade fails on postgresql',
    ],
    context: [
      'postgresql-postgresql',
      'postgresql',
      'devtron',
      'devtroncd',
      'installer.modules',
      'volumeSize',
      'devtron-operator',
    ],
    // Downstream: the same unlabelled, unannotated resources stop the chart manager earlier in an upgrade
    // ("exists and cannot be imported into the current release: invalid ownership metadata"), which the
    // first half of this remedy (label and annotate every resource of the platform namespace) answers.
    // Sources: docs/setup/upgrade/devtron-upgrade-0.3.x-0.4.x.md (step 3, "Annotate and Label all the
    // Devtron resources" with app.kubernetes.io/managed-by=Helm and meta.helm.sh/release-name),
    // docs/FAQs/devtron-troubleshoot.md §20, helm/helm#9125 (what the error means).
    downstream: [
      'invalid ownership metadata',
      'cannot be imported into the current release',
    ],
    // Not this remedy: a resource another release owns. Helm (pkg/action/validate.go, requireValue) says
    // "missing key …: must be set to …" for a resource with no owner, which labelling answers, and
    // "key … must equal …: current value is …" for one that carries another release's name; labelling it
    // for the platform would take it from that release.
    excludes: ['current value is'],
  },
  // The error is the chart manager's upgrade output. The missing ownership labels it complains of are the
  // normal state of every installer-based install that is not being upgraded, so the cluster cannot tell.
  detector: {
    kind: 'notObservable',
    where: 'workstation',
    check: "Run the upgrade again and read its output for 'cannot patch' on the database stateful set or 'invalid ownership metadata'.",
  },
  stages: [
    {
      id: 'label-and-upgrade',
      title: 'Label and annotate the resources, then upgrade with the volume size',
      steps: [
        {
          kind: 'labelForChartManager',
          does: 'Label and annotate every resource of the platform namespace for the chart manager',
          risk: 'destructive',
          namespace: 'platformNamespace',
        },
        {
          kind: 'manual',
          does: 'Run the upgrade',
          risk: 'read-only',
          items: [
            `Upgrade with the repository values file, --reuse-values, --set installer.modules={cicd} and --set components.postgres.persistence.volumeSize=20Gi:\n\`\`\`${entry18UpgradeCommand()}\`\`\``,
          ],
        },
      ],
    },
  ],
};
