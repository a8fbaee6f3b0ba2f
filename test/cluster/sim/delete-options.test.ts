import { describe, expect, it } from 'vitest';
import { freshSimulator } from './support.js';

const ns = 'devtroncd';
const configMaps = { group: '', version: 'v1', plural: 'configmaps' };

/**
 * kube-apiserver reads DeleteOptions from the request body when there is one, and only otherwise from the
 * query; it never merges the two (k8s.io/apiserver/pkg/endpoints/handlers/delete.go, DeleteResource:
 * `if len(body) > 0 { … Decode(body, &defaultGVK, options) } else { ParameterCodec.DecodeParameters(req.URL.Query(), …) }`).
 */
describe('DeleteOptions of the simulated API server', () => {
  const env = freshSimulator();

  async function configMap(name: string): Promise<string> {
    const made = await env.core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name }, data: { a: 'b' } } });
    return made.metadata?.uid ?? '';
  }

  async function rawDelete(name: string, query: string, body?: unknown): Promise<number> {
    const res = await fetch(`${env.sim.url}/api/v1/namespaces/${ns}/configmaps/${name}${query}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${env.sim.token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    await res.text();
    return res.status;
  }

  it('deletes for real when ?dryRun=All comes with a preconditions body, as a real cluster does', async () => {
    const uid = await configMap('dry-in-query');
    expect(await rawDelete('dry-in-query', '?dryRun=All', { preconditions: { uid } })).toBe(200);
    expect(env.sim.get(configMaps, ns, 'dry-in-query')).toBeUndefined();
    // The server records what it left unread, so tests can catch a client that relies on it.
    expect(env.sim.requests().filter((r) => r.method === 'DELETE').at(-1)?.ignoredQuery).toEqual(['dryRun']);
  });

  it('reads the query when there is no body: ?dryRun=All alone keeps the object', async () => {
    await configMap('dry-query-only');
    expect(await rawDelete('dry-query-only', '?dryRun=All')).toBe(200);
    expect(env.sim.get(configMaps, ns, 'dry-query-only')).toBeDefined();
    expect(env.sim.requests().filter((r) => r.method === 'DELETE').at(-1)?.ignoredQuery).toBeUndefined();
  });

  it('reads dryRun from the body when the body says so', async () => {
    const uid = await configMap('dry-in-body');
    expect(await rawDelete('dry-in-body', '', { dryRun: ['All'], preconditions: { uid } })).toBe(200);
    expect(env.sim.get(configMaps, ns, 'dry-in-body')).toBeDefined();
  });

  it('ignores the propagationPolicy of the query when a body carries the options: a Job keeps its orphaning default', async () => {
    const batch = { group: 'batch', version: 'v1', plural: 'jobs' };
    const [job] = env.sim.list(batch, ns);
    const pods = () => env.sim.list({ group: '', version: 'v1', plural: 'pods' }, ns, `job-name=${job.metadata.name}`);
    expect(pods().length).toBeGreaterThan(0);
    const res = await fetch(`${env.sim.url}/apis/batch/v1/namespaces/${ns}/jobs/${job.metadata.name}?propagationPolicy=Background`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${env.sim.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ preconditions: { uid: job.metadata.uid } }),
    });
    expect(res.status).toBe(200);
    // The body named no policy, so batch/v1's default (Orphan) applied and the server warned about it.
    expect(res.headers.get('warning')).toMatch(/child pods are preserved by default/);
    await env.sim.settle();
    expect(pods().length).toBeGreaterThan(0);
    expect(pods().every((p) => !p.metadata.ownerReferences)).toBe(true);
  });
});
