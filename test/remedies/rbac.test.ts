import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/catalogue/index.js';
import { defaultPlatformNames } from '../../src/platform-names.js';
import { workerRbac } from '../../src/remedies/rbac.js';

describe('the worker RBAC derived from the catalogue', () => {
  it('grants exactly what the steps declare, per namespace, and nothing cluster-wide', () => {
    const rbac = workerRbac(catalogue, defaultPlatformNames);
    expect(rbac).toEqual({
      clusterRules: [],
      namespaceRules: {
        'devtron-ci': [{ apiGroups: [''], resources: ['pods'], verbs: ['list'] }],
        devtroncd: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'delete'] }],
      },
    });
  });

  it('follows the cluster\'s own namespace names', () => {
    const rbac = workerRbac(catalogue, { ...defaultPlatformNames, platformNamespace: 'platform', ciNamespace: 'builds' });
    expect(Object.keys(rbac.namespaceRules).sort()).toEqual(['builds', 'platform']);
  });

  it('never holds a wildcard', () => {
    const json = JSON.stringify(workerRbac(catalogue, defaultPlatformNames));
    expect(json).not.toContain('*');
  });
});
