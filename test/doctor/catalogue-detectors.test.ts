import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/catalogue/index.js';
import { declaredPermissions, workerRbac } from '../../src/remedies/rbac.js';
import { detectorPermissions, detectorProblems } from '../../src/doctor/detectors/registry.js';
import { defaultPlatformNames } from '../../src/platform-names.js';

describe("the catalogue's detectors", () => {
  it('every entry declares a detector, and its kind accepts it', () => {
    expect(catalogue.filter((e) => !e.detector).map((e) => e.id)).toEqual([]);
    expect(detectorProblems(catalogue)).toEqual([]);
  });

  it('refuses a detector its kind does not accept', () => {
    expect(detectorProblems([{ id: 'x', detector: { kind: 'jobsIncomplete', namespace: 'kube-system' } as never }])).toHaveLength(1);
    expect(detectorProblems([{ id: 'y', detector: { kind: 'guess' } }])).toEqual(['y: no detector kind is named "guess"']);
    expect(detectorProblems([{ id: 'z', detector: { kind: 'databaseDropRefused', databaseParam: 'db' } as never, params: [{ name: 'database' }] }])).toEqual([
      'z: its detector gives a value for the fix parameter "db", which the entry does not declare',
    ]);
  });

  it('read Secrets only by name, logs only in the platform namespaces, and nothing but reads', () => {
    const perms = catalogue.flatMap((e) => (e.detector ? detectorPermissions(e.detector) : []));
    expect(perms.length).toBeGreaterThan(0);
    expect(perms.flatMap((p) => p.verbs).filter((v) => v !== 'get' && v !== 'list')).toEqual([]);
    for (const p of perms.filter((x) => x.resource === 'secrets')) {
      expect(p.verbs).toEqual(['get']);
      expect(p.resourceNames?.length).toBeGreaterThan(0);
    }
    expect(perms.filter((p) => p.resource === 'pods/log').map((p) => p.scope).every((s) => s === 'platformNamespace' || s === 'ciNamespace')).toBe(true);
    // They reach the worker's RBAC, which the drift test compares with deploy/rbac.yaml.
    expect(declaredPermissions(catalogue)).toEqual(expect.arrayContaining(perms));
    expect(workerRbac(catalogue, defaultPlatformNames).namespaceRules['devtroncd']).toContainEqual({ apiGroups: [''], resources: ['pods/log'], verbs: ['get'] });
    expect(workerRbac(catalogue, defaultPlatformNames).clusterRules.filter((r) => r.resources.includes('pods/log') || r.resources.includes('secrets'))).toEqual([]);
  });
});
