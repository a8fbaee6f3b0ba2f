import { describe, expect, it } from 'vitest';
import { findEntry } from '../../src/catalogue/index.js';
import { offeredParams, resolveParams } from '../../src/catalogue/params.js';

describe('parameters of a fix', () => {
  it('fill in the guide\'s defaults', () => {
    expect(resolveParams(findEntry('upload-too-large')!, {})).toEqual({ ok: true, params: { size: '100m' } });
    expect(resolveParams(findEntry('terminal-disconnects')!, { timeout: '3600' })).toEqual({ ok: true, params: { timeout: '3600', name: 'devtron-backendconfig' } });
  });

  it('say which value is wrong, what is expected and give an example', () => {
    expect(resolveParams(findEntry('upload-too-large')!, { size: '100MB' })).toEqual({
      ok: false,
      message: '`size=100MB` is not valid: the largest body to accept, an integer followed by m (MiB), e.g. `size=200m`.',
    });
  });

  it('name a required parameter that is missing, and a parameter the entry does not take', () => {
    expect(resolveParams(findEntry('database-drop-blocked')!, {})).toMatchObject({ ok: false, message: expect.stringContaining('`database` is required') });
    expect(resolveParams(findEntry('build-logs')!, { size: '1m' })).toEqual({ ok: false, message: '`build-logs` takes no parameters (got `size`).' });
  });

  it('refuses a database name that could smuggle SQL', () => {
    expect(resolveParams(findEntry('database-drop-blocked')!, { database: 'x";drop' })).toMatchObject({ ok: false });
  });
});

describe('the metrics store address of dashboards-missing', () => {
  const entry = findEntry('dashboards-missing')!;
  const refused = (metricsStore: string) => resolveParams(entry, { metricsStore });

  it('takes an address inside the cluster', () => {
    expect(refused('http://prometheus-server.monitoring.svc:80')).toEqual({ ok: true, params: { metricsStore: 'http://prometheus-server.monitoring.svc:80' } });
    expect(refused('https://10.0.12.7:9090/prometheus')).toMatchObject({ ok: true });
  });

  it('refuses the cloud metadata addresses, however they are spelled', () => {
    for (const address of [
      'http://169.254.169.254/latest/meta-data/',
      'http://2852039166/', // 169.254.169.254 as one decimal number
      'http://0xa9fea9fe/',
      'http://0251.0376.0251.0376/',
      'http://169.254.169.254.:80/',
      'http://user@169.254.169.254/',
      'http://[::ffff:169.254.169.254]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[fd00:ec2::254]/',
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://METADATA.google.internal./',
      'http://metadata/',
      'http://100.100.100.200/',
    ]) {
      const r = refused(address);
      expect(r.ok, address).toBe(false);
      expect(!r.ok && r.message, address).toMatch(/^`metricsStore=.*` is refused: .*cloud metadata/);
    }
  });

  it('refuses loopback, link-local and unspecified addresses', () => {
    for (const [address, why] of [
      ['http://127.0.0.1:9090', 'loopback'],
      ['http://127.1/', 'loopback'],
      ['http://localhost:9090', 'loopback'],
      ['http://prometheus.localhost/', 'loopback'],
      ['http://[::1]:9090/', 'loopback'],
      ['http://[::ffff:127.0.0.1]/', 'loopback'],
      ['http://169.254.10.20/', 'link-local'],
      ['http://[fe80::1]/', 'link-local'],
      ['http://[febf::1]/', 'link-local'],
      ['http://0.0.0.0:9090/', 'unspecified'],
      ['http://0/', 'unspecified'],
      ['http://[::]/', 'unspecified'],
    ] as const) {
      const r = refused(address);
      expect(r.ok, address).toBe(false);
      expect(!r.ok && r.message, address).toContain(why);
    }
  });

  it('says exactly what is wrong with the first metadata address', () => {
    expect(refused('http://169.254.169.254/latest')).toEqual({
      ok: false,
      message: '`metricsStore=http://169.254.169.254/latest` is refused: 169.254.169.254 is a cloud metadata address, which a remedy never points at; give the metrics store endpoint registered for the cluster, e.g. `metricsStore=http://prometheus-server.monitoring.svc:80`.',
    });
  });
});

describe('the values a detector saw, offered in the fix line', () => {
  it('keeps a value the fix takes as typed, and leaves out one it would refuse, one that reads as a secret, and a parameter the entry lacks', () => {
    const drop = findEntry('database-drop-blocked')!;
    expect(offeredParams(drop, { database: 'orders_old' })).toEqual({ database: 'orders_old' });
    expect(offeredParams(drop, { database: 'x";drop' })).toBeUndefined();
    expect(offeredParams(drop, { size: '1m' })).toBeUndefined();
    const dashboards = findEntry('dashboards-missing')!;
    expect(offeredParams(dashboards, { metricsStore: 'http://prometheus-server.monitoring.svc:80' })).toEqual({ metricsStore: 'http://prometheus-server.monitoring.svc:80' });
    expect(offeredParams(dashboards, { metricsStore: 'http://reader:s3cret-pw@prometheus:9090' })).toBeUndefined();
    expect(offeredParams(dashboards, { metricsStore: 'http://169.254.169.254/latest' })).toBeUndefined();
    expect(offeredParams(drop, { database: 'ghp_0123456789abcdefghijABCDEFGHIJ012345' })).toBeUndefined();
  });

  it('leaves out a value from the cluster that could end the line\'s code in Slack: a backtick, a mention, a link', () => {
    const dashboards = findEntry('dashboards-missing')!;
    for (const metricsStore of ['http://prometheus.monitoring.svc/`<!channel>`', 'http://prometheus.monitoring.svc/<https://evil.example|click>', 'http://prometheus.monitoring.svc/&lt;']) {
      expect(offeredParams(dashboards, { metricsStore })).toBeUndefined();
    }
  });
});
