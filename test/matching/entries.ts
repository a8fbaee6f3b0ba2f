import type { CatalogueEntry, Signatures } from '../../src/catalogue/model.js';

/** A minimal entry with the given signatures, for tests that need an entry set of their own. */
export function entry(id: string, signatures: Signatures, title = id): CatalogueEntry {
  return {
    id,
    ref: '7.99',
    title,
    symptom: title,
    cause: 'test',
    signatures,
    stages: [{ id: 'only', title: 'only', steps: [{ kind: 'manual', does: 'nothing', risk: 'read-only', items: ['nothing'] }] }],
  };
}
