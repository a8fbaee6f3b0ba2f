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
    context: ['rollout', 'last-applied-configuration', 'sync', 'argocd'],
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
