import { ApiextensionsV1Api } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { defaultPlatformNames } from '../../../src/platform-names.js';
import { generatedPolicy, harness, refs, type Harness } from './support.js';

/**
 * Remedies that need a custom resource type say plainly when the cluster lacks it. A real API server
 * serves a custom resource only while its CRD exists and is Established
 * (k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go); until then every request for it
 * is a 404 from the not-found handler, which a plan must not take for "the object does not exist yet".
 */
const ns = 'devtroncd';

/** Deletes a CRD as an administrator would, then puts the worker's RBAC back. */
async function withoutCrd(h: Harness, name: string): Promise<void> {
  h.sim.setPolicy(undefined);
  await h.sim.kubeConfig().makeApiClient(ApiextensionsV1Api).deleteCustomResourceDefinition({ name });
  h.sim.setPolicy(generatedPolicy(defaultPlatformNames));
}

describe('a cluster without the resource type an entry needs', () => {
  it('terminal-disconnects (entry 21): no BackendConfig type outside GKE, so the plan is blocked and nothing is written', async () => {
    const h = await harness();
    await h.sim.break('terminal-disconnects');
    await withoutCrd(h, 'backendconfigs.cloud.google.com');
    const p = await h.plan('terminal-disconnects');
    expect(p.blocked).toBe(
      'This cluster has no BackendConfig resource type (cloud.google.com/v1 is not served): a BackendConfig configures the load balancer of GKE ingresses, so this remedy applies to GKE ingresses only.',
    );
    expect(p.steps[0]!.lines).toEqual(['no BackendConfig resource type on this cluster (cloud.google.com/v1)']);
    expect(p.steps[0]!.targets).toEqual([]);
    expect(h.sim.get(refs.services, ns, 'devtron-service').metadata.annotations?.['cloud.google.com/backend-config']).toBeUndefined();
    // Nothing but reads and dry runs after the CRD's removal: no BackendConfig, no annotation written.
    const writes = h.sim.requests().filter((r) => r.method !== 'GET' && !r.query.includes('dryRun=All'));
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /apis/apiextensions.k8s.io/v1/customresourcedefinitions/backendconfigs.cloud.google.com']);
  });

  it('rollout-invalid-json (entry 25): no Rollout type without Argo Rollouts, so the plan is blocked', async () => {
    const h = await harness();
    await withoutCrd(h, 'rollouts.argoproj.io');
    const p = await h.plan('rollout-invalid-json');
    expect(p.blocked).toBe(
      'This cluster has no Rollout resource type (argoproj.io/v1alpha1 is not served): Argo Rollouts is not installed here, so no rollout can carry the broken annotation on this cluster.',
    );
  });

  it('rollout-crds-outdated (entry 2): no rollout definitions to update without Argo Rollouts, so the plan is blocked before any manifest is read', async () => {
    const h = await harness({ manifestBaseUrl: 'http://127.0.0.1:9/never-read' });
    await withoutCrd(h, 'rollouts.argoproj.io');
    const p = await h.plan('rollout-crds-outdated');
    expect(p.blocked).toBe(
      'This cluster has no Rollout resource type (argoproj.io/v1alpha1 is not served): Argo Rollouts is not installed here, so there are no rollout definitions to update; this remedy applies where Argo Rollouts runs.',
    );
    expect(h.sim.get(refs.crds, undefined, 'rollouts.argoproj.io')).toBeUndefined();
  });

  it('a version gate without the Installer type says the platform was not installed by its installer', async () => {
    const h = await harness({ platformVersion: 'v0.7.1' });
    await withoutCrd(h, 'installers.installer.devtron.ai');
    const p = await h.plan('chart-repo-tls-handshake');
    expect(p.blocked).toBe(
      'Cannot check the platform version: this cluster has no Installer resource type (installer.devtron.ai/v1alpha1 is not served): the platform was not installed by its installer here, so its version cannot be read from the installer object.',
    );
  });

  it('still plans as before where the types exist', async () => {
    const h = await harness();
    await h.sim.break('terminal-disconnects');
    const p = await h.plan('terminal-disconnects');
    expect(p.blocked).toBeUndefined();
    expect(p.steps[0]!.lines[0]).toMatch(/^create BackendConfig `devtroncd\/devtron-backendconfig`/);
  });
});

describe('a 404 from the cluster', () => {
  it('is an absent object when it is a NotFound Status naming a resource, and an absent type when it is the bare not-found page', async () => {
    const { ApiException } = await import('@kubernetes/client-node');
    const { toClusterError } = await import('../../../src/cluster/errors.js');
    const object = new ApiException(404, 'x', JSON.stringify({ kind: 'Status', reason: 'NotFound', message: 'rollouts.argoproj.io "a" not found', details: { name: 'a', group: 'argoproj.io', kind: 'rollouts' } }), {});
    expect(toClusterError(object, 'get rollouts.argoproj.io devtroncd/a', 'https://k').code).toBe('not-found');
    // k8s.io/apiserver/pkg/util/notfoundhandler/notfoundhandler.go: http.NotFound, plain text.
    const type = toClusterError(new ApiException(404, 'x', '404 page not found\n', {}), 'list rollouts.argoproj.io in devtroncd', 'https://k');
    expect(type.code).toBe('no-such-type');
    expect(type.message).toBe('list rollouts.argoproj.io in devtroncd: this cluster does not serve that resource type (404: 404 page not found); its CustomResourceDefinition is probably missing.');
  });
});
