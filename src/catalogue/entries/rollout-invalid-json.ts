import type { CatalogueEntry } from '../model.js';

/** Guide 7.25: a hand-edited last-applied-configuration annotation is not valid JSON. */
export const rolloutInvalidJson: CatalogueEntry = {
  id: 'rollout-invalid-json',
  ref: '7.25',
  appliesTo: 'any-product',
  title: "Rollout sync status Failed with 'Invalid JSON Document'",
  symptom: "A rollout's sync status is Failed with 'Invalid JSON Document'.",
  cause: 'The last-applied-configuration annotation on the rollout was edited by hand and is not valid JSON.',
  signatures: {
    errors: ['Invalid JSON Document'],
    phrases: ['rollout sync failed invalid json'],
    // The three-way merge reads the annotation as the "original" configuration: kubectl apply and the GitOps
    // engine report its failure as "creating patch with: original: … modified: … current: …", and the
    // apimachinery's mergepatch.ErrBadJSONDoc is the guide's "invalid JSON document".
    context: ['rollout', 'last-applied-configuration', 'sync', 'argocd', 'kubectl edit', 'failed to apply', 'creating patch with'],
    // Downstream: the broken annotation is read as JSON wherever the object is applied, so kubectl and the
    // GitOps controller report the JSON decoder's own words. Sources: argoproj/argo-cd#8060 ("one or more
    // objects failed to apply, reason: invalid JSON document"), argoproj/argo-cd#3657 (kubectl edit leaving
    // last-applied-configuration invalid), the Kubernetes declarative-config documentation.
    downstream: ['looking for beginning of object key string', 'unexpected end of JSON input', 'error unmarshaling JSON'],
    // Not this remedy: a JSON patch the person wrote (`kubectl patch --type=json -p '…'`, the jsonpatch
    // library's "Invalid JSON Patch"); the annotation is not what failed to parse.
    excludes: ['Invalid JSON Patch', '--type=json', '--type json'],
  },
  detector: { kind: 'lastAppliedJson', custom: 'rollout', namespace: 'platformNamespace' },
  stages: [
    {
      id: 'check-json',
      title: 'Find where the annotation JSON breaks',
      steps: [
        {
          kind: 'checkLastAppliedJson',
          does: "Check every rollout's last-applied-configuration annotation and show where its JSON breaks; repair it only when the fix is unambiguous",
          risk: 'destructive',
        },
      ],
    },
  ],
};
