import { describe, expect, it } from 'vitest';
import { harness, refs } from './support.js';

const ns = 'devtroncd';

describe('upload-too-large (entry 12): the body-size annotation on the platform ingress', () => {
  it('finds the ingress routing to the main pods, shows before → after, and sets it', async () => {
    const { sim, plan, run } = await harness();
    await sim.break('upload-too-large');
    expect(sim.symptoms()).toEqual(['upload-too-large']);
    const p = await plan('upload-too-large', { size: '200m' });
    expect(p.steps[0]!.lines).toEqual(['Ingress `devtroncd/devtron-ingress`: annotation `nginx.ingress.kubernetes.io/proxy-body-size`: (none) → `200m`']);
    expect(p.steps[0]!.targets[0]).toMatchObject({ kind: 'Ingress', name: 'devtron-ingress', pin: 'nginx.ingress.kubernetes.io/proxy-body-size=(none)' });
    const { outcome } = await run(p);
    expect(outcome.status).toBe('completed');
    expect(sim.get(refs.ingresses, ns, 'devtron-ingress').metadata.annotations['nginx.ingress.kubernetes.io/proxy-body-size']).toBe('200m');
    expect(sim.symptoms()).toEqual([]);

    // Planned again, there is nothing left to do.
    const again = await plan('upload-too-large', { size: '200m' });
    expect(again.steps[0]!.lines).toEqual(['Ingress `devtroncd/devtron-ingress`: annotation `nginx.ingress.kubernetes.io/proxy-body-size`: already `200m`']);
    expect(again.steps[0]!.targets).toEqual([]);
  });

  it('refuses a size that is not an integer followed by m', async () => {
    const { ctx } = await harness();
    const { planSteps } = await import('../../../src/remedies/planner.js');
    const { findEntry } = await import('../../../src/catalogue/index.js');
    const r = await planSteps({ ...ctx, params: { size: '2g' } }, findEntry('upload-too-large')!.stages[0]!);
    expect(r.blocked).toBe('Cannot set the annotation: nginx.ingress.kubernetes.io/proxy-body-size must be an integer followed by m (MiB), e.g. 100m; got "2g".');
  });

  // The bot refuses these values first; the worker refuses whatever reaches its queue, and its refusal is shown in the thread.
  it('refuses a size that is a pasted token without showing the token back', async () => {
    const { ctx } = await harness();
    const { planSteps } = await import('../../../src/remedies/planner.js');
    const { findEntry } = await import('../../../src/catalogue/index.js');
    const token = 'ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5';
    const r = await planSteps({ ...ctx, params: { size: token } }, findEntry('upload-too-large')!.stages[0]!);
    expect(r.blocked).toBe('Cannot set the annotation: nginx.ingress.kubernetes.io/proxy-body-size must be an integer followed by m (MiB), e.g. 100m; got "[redacted]".');
  });

  it('stops when someone set the annotation after the plan', async () => {
    const { sim, plan, run } = await harness();
    await sim.break('upload-too-large');
    const p = await plan('upload-too-large', { size: '200m' });
    const { NetworkingV1Api, PatchStrategy, setHeaderOptions } = await import('@kubernetes/client-node');
    sim.setPolicy(undefined);
    await sim.kubeConfig().makeApiClient(NetworkingV1Api).patchNamespacedIngress(
      { namespace: ns, name: 'devtron-ingress', body: { metadata: { annotations: { 'nginx.ingress.kubernetes.io/proxy-body-size': '50m' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const { outcome } = await run(p);
    expect(outcome.status).toBe('changed');
    expect(sim.get(refs.ingresses, ns, 'devtron-ingress').metadata.annotations['nginx.ingress.kubernetes.io/proxy-body-size']).toBe('50m');
  });
});

describe('terminal-disconnects (entry 21): a backend configuration with a longer timeout, named on the platform service', () => {
  it('creates the BackendConfig and annotates only the service that routes to the main pods', async () => {
    const { sim, plan, run } = await harness();
    await sim.break('terminal-disconnects');
    expect(sim.symptoms()).toEqual(['terminal-disconnects']);
    const p = await plan('terminal-disconnects');
    expect(p.steps[0]!.lines).toEqual(["create BackendConfig `devtroncd/devtron-backendconfig` (cloud.google.com/v1) with spec.timeoutSec `1800` (the load balancer's default is 30)"]);
    expect(p.steps[1]!.lines).toEqual(['Service `devtroncd/devtron-service`: annotation `cloud.google.com/backend-config`: (none) → `{"default":"devtron-backendconfig"}`']);
    expect(sim.list(refs.backendConfigs, ns)).toEqual([]);

    const { outcome } = await run(p);
    expect(outcome.status).toBe('completed');
    expect(sim.get(refs.backendConfigs, ns, 'devtron-backendconfig').spec).toEqual({ timeoutSec: 1800 });
    expect(sim.get(refs.services, ns, 'devtron-service').metadata.annotations['cloud.google.com/backend-config']).toBe('{"default":"devtron-backendconfig"}');
    expect(sim.get(refs.services, ns, 'devtron-grafana').metadata.annotations?.['cloud.google.com/backend-config']).toBeUndefined();
    expect(sim.symptoms()).toEqual([]);
  });

  it('updates an existing BackendConfig, showing its timeout before → after and keeping its other settings', async () => {
    const { sim, plan, run, ctx } = await harness();
    await sim.break('terminal-disconnects');
    const { customKinds } = await import('../../../src/cluster/gateway.js');
    await ctx.gateway.custom.create(customKinds.backendConfig, ns, { apiVersion: 'cloud.google.com/v1', kind: 'BackendConfig', metadata: { name: 'devtron-backendconfig' }, spec: { timeoutSec: 30, connectionDraining: { drainingTimeoutSec: 60 } } });
    const p = await plan('terminal-disconnects', { timeout: '3600' });
    expect(p.steps[0]!.lines).toEqual(['BackendConfig `devtroncd/devtron-backendconfig` (cloud.google.com/v1): spec.timeoutSec `30` → `3600`']);
    await run(p);
    expect(sim.get(refs.backendConfigs, ns, 'devtron-backendconfig').spec).toEqual({ timeoutSec: 3600, connectionDraining: { drainingTimeoutSec: 60 } });
  });
});
