import { describe, expect, it } from 'vitest';
import type { CatalogueEntry } from '../../src/catalogue/model.js';
import { findEntry } from '../../src/catalogue/index.js';
import type { PodState } from '../../src/cluster/gateway.js';
import { Unreadable, type Snapshot } from '../../src/doctor/detectors/detector.js';
import { detect } from '../../src/doctor/detectors/registry.js';
import { defaultPlatformNames } from '../../src/platform-names.js';

const now = new Date('2026-11-22T12:00:00Z');

/** A snapshot of the given answers; a read it was not given fails as a bug would. */
function snapshot(over: Partial<Snapshot>): Snapshot {
  const missing = () => {
    throw new Error('not given');
  };
  return { names: defaultPlatformNames, now, pods: missing, jobs: missing, warnings: missing, custom: missing, certificate: missing, logs: missing, ...over };
}

const detectorOf = (id: string) => (findEntry(id) as CatalogueEntry).detector!;

const pod = (over: Partial<PodState>): PodState => ({ namespace: 'devtroncd', name: 'p', labels: {}, phase: 'Running', createdAt: '2026-11-22T11:00:00Z', containers: [], logContainers: ['c'], ...over });

describe('detectors judge from the snapshot alone', () => {
  it('gitops-certificate-expired: present within 7 days of notAfter, absent beyond, unknown when tls.crt holds no certificate', () => {
    const d = detectorOf('gitops-certificate-expired');
    const inDays = (n: number) => snapshot({ certificate: () => ({ notBefore: '2026-01-01T00:00:00.000Z', notAfter: new Date(now.getTime() + n * 86_400_000).toISOString(), subject: 'CN=argocd' }) });
    expect(detect(d, inDays(3))).toMatchObject({ state: 'present', evidence: [{ object: 'secret/devtroncd/argocd-secret', detail: expect.stringContaining('expires in 3 days') }] });
    expect(detect(d, inDays(30)).state).toBe('absent');
    expect(detect(d, snapshot({ certificate: () => 'unreadable' }))).toMatchObject({ state: 'unknown', reason: 'error' });
  });

  it('rollout-invalid-json: unknown (not installed) without the rollout kind; never shows the annotation text', () => {
    const d = detectorOf('rollout-invalid-json');
    expect(detect(d, snapshot({ custom: () => undefined }))).toMatchObject({ state: 'unknown', reason: 'not-installed' });
    const secret = '{"spec":{"env":{"DB_PASSWORD":"hunter2"},}';
    const verdict = detect(d, snapshot({ custom: () => [{ metadata: { name: 'r', namespace: 'devtroncd', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': secret } } }] }));
    expect(verdict.state).toBe('present');
    expect(JSON.stringify(verdict)).not.toContain('hunter2');
  });

  it('image-pull-private-registry: only pull errors that say the registry refused; database-image-pull: only the database pod', () => {
    const stuck = pod({ namespace: 'shop', name: 'web-1', containers: [{ name: 'web', image: 'r.example/web:1', ready: false, restarts: 0, waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "r.example/web:1"' } }] });
    const event = (message: string) => ({ namespace: 'shop', object: { kind: 'Pod', name: 'web-1' }, type: 'Warning', reason: 'Failed', message, count: 1, lastSeen: now.toISOString() });
    const registry = detectorOf('image-pull-private-registry');
    const withEvent = (m: string) => snapshot({ pods: () => [stuck], warnings: () => [event(m)] });
    expect(detect(registry, withEvent('Failed to pull image "r.example/web:1": rpc error: code = NotFound desc = manifest unknown')).state).toBe('absent');
    expect(detect(registry, withEvent('Failed to pull image "r.example/web:1": ... 403 Forbidden: denied: requested access to the resource is denied'))).toMatchObject({
      state: 'present',
      evidence: [{ object: 'pod/shop/web-1', detail: 'container web ImagePullBackOff: image r.example/web:1' }, { object: 'pod/shop/web-1', detail: expect.stringContaining('denied') }],
    });
    expect(detect(detectorOf('database-image-pull'), snapshot({ pods: () => [stuck], warnings: () => [] })).state).toBe('absent');
  });

  it('build-logs: the broker-loss lines alone are not enough when no build runs', () => {
    const d = detectorOf('build-logs');
    const main = pod({ name: 'devtron-1', labels: { app: 'devtron' } });
    const logs = () => [{ pod: main, container: 'devtron', lines: ['{"level":"error","msg":"Nats Connection got disconnected!"}'] }];
    const idle = detect(d, snapshot({ logs, pods: () => [] }));
    expect(idle.state).toBe('absent');
    expect(idle.state === 'absent' && idle.evidence.at(-1)).toEqual({ object: 'namespace/devtron-ci', detail: 'no build pod running' });
    const busy = detect(d, snapshot({ logs, pods: () => [pod({ namespace: 'devtron-ci', name: 'ci-9' })] }));
    expect(busy.state === 'present' && busy.evidence.at(-1)).toEqual({ object: 'pod/devtron-ci/ci-9', detail: 'build pod running for 60m' });
  });

  it('a read that failed reaches the scan as Unreadable, with its reason', () => {
    const forbidden = snapshot({
      pods: () => [],
      jobs: () => {
        throw new Unreadable('forbidden', 'Permission missing for list jobs in devtroncd');
      },
    });
    expect(() => detect(detectorOf('install-jobs-failed'), forbidden)).toThrow(Unreadable);
  });
});
