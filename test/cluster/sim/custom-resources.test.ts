import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ApiextensionsV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulatedCluster } from '../../../src/cluster/sim/index.js';
import type { SimulatedCluster } from '../../../src/cluster/sim/index.js';
import { fast } from './support.js';

/**
 * Custom resources are served only while their CRD exists and is Established:
 * k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go hands any other request to the
 * not-found handler (k8s.io/apiserver/pkg/util/notfoundhandler/notfoundhandler.go), which is Go's
 * http.NotFound: a plain-text `404 page not found`. Discovery is built from the same CRDs.
 */
const ns = 'devtroncd';
const backendConfigs = { group: 'cloud.google.com', version: 'v1', plural: 'backendconfigs' };

describe('custom resources and their definitions', () => {
  let sim: SimulatedCluster;
  let headers: Record<string, string>;
  beforeAll(async () => {
    sim = await startSimulatedCluster(fast);
    headers = { Authorization: `Bearer ${sim.token}` };
  });
  afterAll(async () => {
    await sim.close();
  });

  const get = (path: string) => fetch(`${sim.url}${path}`, { headers });

  it('serves the kinds whose CRDs the install has, in discovery too', async () => {
    const crds = await sim.kubeConfig().makeApiClient(ApiextensionsV1Api).listCustomResourceDefinition();
    expect(crds.items.map((c) => c.metadata?.name).sort()).toEqual(['backendconfigs.cloud.google.com', 'installers.installer.devtron.ai', 'rollouts.argoproj.io']);
    expect(crds.items.every((c) => c.status?.conditions?.some((x) => x.type === 'Established' && x.status === 'True'))).toBe(true);
    const groups = (await (await get('/apis')).json()) as { groups: Array<{ name: string }> };
    expect(groups.groups.map((g) => g.name)).toEqual(expect.arrayContaining(['cloud.google.com', 'argoproj.io', 'installer.devtron.ai']));
    expect((await get(`/apis/cloud.google.com/v1/namespaces/${ns}/backendconfigs`)).status).toBe(200);
  });

  it('answers 404 page not found, and leaves the group out of discovery, once the CRD is deleted; its objects go with it', async () => {
    const custom = sim.kubeConfig().makeApiClient(CustomObjectsApi);
    await custom.createNamespacedCustomObject({ ...backendConfigs, namespace: ns, body: { apiVersion: 'cloud.google.com/v1', kind: 'BackendConfig', metadata: { name: 'kept' }, spec: { timeoutSec: 60 } } });
    await sim.kubeConfig().makeApiClient(ApiextensionsV1Api).deleteCustomResourceDefinition({ name: 'backendconfigs.cloud.google.com' });

    const res = await get(`/apis/cloud.google.com/v1/namespaces/${ns}/backendconfigs/kept`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('404 page not found\n');
    expect((await get('/apis/cloud.google.com/v1')).status).toBe(404);
    expect((await get('/apis/cloud.google.com')).status).toBe(404);
    const groups = (await (await get('/apis')).json()) as { groups: Array<{ name: string }> };
    expect(groups.groups.map((g) => g.name)).not.toContain('cloud.google.com');
    const create = await fetch(`${sim.url}/apis/cloud.google.com/v1/namespaces/${ns}/backendconfigs`, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'cloud.google.com/v1', kind: 'BackendConfig', metadata: { name: 'x' } }),
    });
    expect(create.status).toBe(404);
    expect(sim.list(backendConfigs, ns)).toEqual([]);
  });

  it('serves a kind from the moment its CRD is created, Established at once', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        names: { kind: 'Widget', plural: 'widgets', singular: 'widget' },
        scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    };
    expect((await get(`/apis/example.com/v1/namespaces/${ns}/widgets`)).status).toBe(404);
    const created = await sim.kubeConfig().makeApiClient(ApiextensionsV1Api).createCustomResourceDefinition({ body: crd });
    expect(created.status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(['NamesAccepted=True', 'Established=True']);
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 3 } };
    const custom = sim.kubeConfig().makeApiClient(CustomObjectsApi);
    await custom.createNamespacedCustomObject({ group: 'example.com', version: 'v1', plural: 'widgets', namespace: ns, body: widget });
    const listed = (await custom.listNamespacedCustomObject({ group: 'example.com', version: 'v1', plural: 'widgets', namespace: ns })) as { kind: string; items: unknown[] };
    expect(listed).toMatchObject({ kind: 'WidgetList', items: [{ kind: 'Widget', metadata: { name: 'w' }, spec: { size: 3 } }] });
    const discovery = (await (await get('/apis/example.com/v1')).json()) as { resources: Array<{ name: string; kind: string }> };
    expect(discovery.resources).toEqual([expect.objectContaining({ name: 'widgets', kind: 'Widget', namespaced: true })]);
  });
});

const kubectlPath = '/usr/bin/kubectl';

describe.skipIf(!existsSync(kubectlPath))('kubectl and a deleted CRD', () => {
  let sim: SimulatedCluster;
  let dir: string;
  const kubectl = (...args: string[]) =>
    promisify(execFile)(kubectlPath, [...args, '--cache-dir', join(dir, 'cache')], { env: { ...process.env, KUBECONFIG: join(dir, 'config'), HOME: dir }, timeout: 20_000 });
  const failure = (...args: string[]) =>
    kubectl(...args).then(
      () => 'succeeded',
      (e: { stderr?: string }) => e.stderr ?? '',
    );

  beforeAll(async () => {
    sim = await startSimulatedCluster(fast);
    dir = await mkdtemp(join(tmpdir(), 'sim-crd-'));
    await sim.writeKubeconfig(join(dir, 'config'));
  });
  afterAll(async () => {
    await sim?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('finds the type while its CRD exists, and says the server has no such type once it is deleted', async () => {
    expect((await kubectl('get', 'backendconfigs', '-n', ns)).stderr).toContain('No resources found in devtroncd namespace.');
    expect((await kubectl('delete', 'crd', 'backendconfigs.cloud.google.com')).stdout.trim()).toBe('customresourcedefinition.apiextensions.k8s.io "backendconfigs.cloud.google.com" deleted');
    // With discovery still cached, kubectl asks for the resource and client-go words the plain 404 page.
    expect(await failure('get', 'backendconfigs', '-n', ns)).toContain('the server could not find the requested resource (get backendconfigs.cloud.google.com)');
    // With fresh discovery, the type is simply not there.
    await rm(join(dir, 'cache'), { recursive: true, force: true });
    expect(await failure('get', 'backendconfigs', '-n', ns)).toContain('the server doesn\'t have a resource type "backendconfigs"');
  });
});
