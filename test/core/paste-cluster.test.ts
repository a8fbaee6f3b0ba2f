import { describe, expect, it } from 'vitest';
import { evidenceTarget } from '../../src/core/paste-cluster.js';

const config = { clusters: [{ name: 'prod-eu' }, { name: 'prod-us' }, { name: 'sim' }], defaultCluster: 'prod-eu' } as Parameters<typeof evidenceTarget>[1];

describe('which cluster a paste is about', () => {
  it('is the default cluster when the paste names none', () => {
    expect(evidenceTarget('job has reached the specified backoff limit', config)).toEqual({ ok: true, cluster: 'prod-eu', named: false });
  });

  it('is the configured cluster the paste mentions', () => {
    expect(evidenceTarget('on prod-us since 09:12: job has reached the specified backoff limit', config)).toEqual({ ok: true, cluster: 'prod-us', named: true });
    expect(evidenceTarget('PROD-US is down', config)).toEqual({ ok: true, cluster: 'prod-us', named: true });
  });

  it('is the one the paste says on purpose, even if it mentions another', () => {
    expect(evidenceTarget('cluster: prod-us\nlike prod-eu last week', config)).toEqual({ ok: true, cluster: 'prod-us', named: true });
    expect(evidenceTarget('--cluster=sim build logs are not streaming', config)).toEqual({ ok: true, cluster: 'sim', named: true });
  });

  it('answers a cluster said on purpose that is not configured with the clusters there are', () => {
    expect(evidenceTarget('cluster: prod-ap\nbuild logs are not streaming', config)).toEqual({ ok: false, cluster: 'prod-ap', why: 'There is no cluster `prod-ap`. Configured clusters: `prod-eu`, `prod-us`, `sim`.' });
    expect(evidenceTarget('seeing this on cluster prod-ap-2 since the upgrade', config)).toMatchObject({ ok: false, cluster: 'prod-ap-2' });
  });

  it('asks which one when the paste names two configured clusters', () => {
    expect(evidenceTarget('works on prod-us, fails on prod-eu', config)).toEqual({ ok: false, why: 'this message names 2 clusters (`prod-eu`, `prod-us`); say which one with `cluster: NAME`' });
  });

  it('does not read names inside other words, hosts, kubectl flags or plain phrases', () => {
    for (const paste of [
      'pod postgresql-prod-eu-0 is pending',
      'kubectl --cluster=arn:aws:eks:eu-west-1:123:cluster/x get pods',
      'we run argo in cluster mode',
      'simulated load test failed',
      'https://prod-us.example.com/ returns 502',
    ]) {
      expect(evidenceTarget(paste, config), paste).toEqual({ ok: true, cluster: 'prod-eu', named: false });
    }
  });
});
