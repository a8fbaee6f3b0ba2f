import { afterEach, describe, expect, it } from 'vitest';
import { startFakeDashboardApi, type FakeDashboardApi } from '../../fakes/dashboard-api.js';

const fakes: FakeDashboardApi[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function call(fake: FakeDashboardApi, method: string, path: string, body?: unknown, headers: Record<string, string> = {}, password = 'pw-1') {
  const res = await fetch(`${fake.url}${path}`, {
    method,
    headers: { Authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`, 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the fake dashboard API answers like the real server', () => {
  it('refuses a wrong password, answers conflicts and stale versions with the real shapes, and records no credentials', async () => {
    const fake = await startFakeDashboardApi({ password: 'pw-1' });
    fakes.push(fake);
    expect(await call(fake, 'GET', '/api/orgs', undefined, {}, 'wrong')).toEqual({ status: 401, body: { message: 'Invalid username or password' } });
    expect(await call(fake, 'POST', '/api/orgs', { name: 'o' })).toEqual({ status: 200, body: { orgId: 2, message: 'Organization created' } });
    expect(await call(fake, 'POST', '/api/orgs', { name: 'o' })).toEqual({ status: 409, body: { message: 'Organization name taken' } });
    const org2 = { 'x-grafana-org-id': '2' };
    const added = await call(fake, 'POST', '/api/datasources', { name: 'Prometheus', type: 'prometheus', access: 'proxy', isDefault: true }, org2);
    expect(added).toMatchObject({ status: 200, body: { id: 1, message: 'Datasource added', name: 'Prometheus', datasource: { orgId: 2, version: 1 } } });
    expect(await call(fake, 'POST', '/api/datasources', { name: 'Prometheus', type: 'prometheus' }, org2)).toEqual({ status: 409, body: { message: 'data source with the same name already exists' } });
    const update = { id: 1, orgId: 2, name: 'Prometheus', type: 'prometheus', access: 'proxy', url: 'http://p', basicAuth: false, jsonData: {}, version: 1 };
    expect(await call(fake, 'PUT', '/api/datasources/1', update, org2)).toMatchObject({ status: 200, body: { message: 'Datasource updated', datasource: { version: 2 } } });
    expect(await call(fake, 'PUT', '/api/datasources/1', update, org2)).toEqual({ status: 409, body: { message: 'Failed to update datasource. Reload new version and try again' } });
    const dash = { uid: 'u1', title: 'T', panels: [], version: 0 };
    expect(await call(fake, 'POST', '/api/dashboards/db', { dashboard: dash, overwrite: false }, org2)).toMatchObject({ status: 200, body: { uid: 'u1', status: 'success', version: 1, slug: 't' } });
    expect(await call(fake, 'POST', '/api/dashboards/db', { dashboard: dash, overwrite: false }, org2)).toEqual({ status: 412, body: { message: 'The dashboard has been changed by someone else', status: 'version-mismatch' } });
    expect(await call(fake, 'GET', '/api/dashboards/uid/nope', undefined, org2)).toEqual({ status: 404, body: { message: 'Dashboard not found' } });
    expect(JSON.stringify(fake.calls())).not.toMatch(/authorization|pw-1|Basic /i);
  });

  it('serves the catalogue downloads without credentials', async () => {
    const fake = await startFakeDashboardApi({ password: 'pw-1' });
    fakes.push(fake);
    const res = await fetch(`${fake.catalogueUrl}/13322/revisions/4/download`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ uid: 'devtron-app-metrics-cpu', title: 'CPU Usage', __inputs: [{ name: 'DS_PROMETHEUS', type: 'datasource' }] });
    expect((await fetch(`${fake.catalogueUrl}/13322/revisions/9/download`)).status).toBe(404);
  });
});
