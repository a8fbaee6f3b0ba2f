import { describe, expect, it } from 'vitest';
import { findEntry } from '../../../src/catalogue/index.js';
import { permissionsOf } from '../../../src/remedies/steps/index.js';

describe('the Kubernetes permissions of the dashboard and database steps', () => {
  it.each([
    ['dashboards-missing', 'dashboardOrgRepair'],
    ['cpu-graphs-empty', 'dashboardRemoveCpuFilter'],
    ['database-drop-blocked', 'dropDatabase'],
  ])('%s needs only to read the platform secret; its HTTP and SQL calls need none', (entryId, kind) => {
    const step = findEntry(entryId)!.stages.flatMap((s) => s.steps).find((s) => s.kind === kind)!;
    expect(permissionsOf(step)).toEqual([{ apiGroup: '', resource: 'secrets', verbs: ['get'], scope: 'platformNamespace', resourceNames: ['platformSecret'] }]);
  });
});
