import { describe, expect, it } from 'vitest';
import type { CatalogueEntry } from '../../src/catalogue/model.js';
import { findEntry } from '../../src/catalogue/index.js';
import type { PodState, ServiceState } from '../../src/cluster/gateway.js';
import { Unreadable, type Snapshot } from '../../src/doctor/detectors/detector.js';
import { detect } from '../../src/doctor/detectors/registry.js';
import { defaultPlatformNames } from '../../src/platform-names.js';

const now = new Date('2026-11-22T12:00:00Z');

/** A snapshot of the given answers; a read it was not given fails as a bug would. */
function snapshot(over: Partial<Snapshot>): Snapshot {
  const missing = () => {
    throw new Error('not given');
  };
  return {
    names: defaultPlatformNames,
    now,
    pods: missing,
    jobs: missing,
    warnings: missing,
    custom: missing,
    certificate: missing,
    logs: missing,
    deployments: missing,
    ingresses: missing,
    services: missing,
    backendConfigs: missing,
    serverVersion: missing,
    crd: missing,
    ...over,
  };
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

describe("the signals helper's detectors judge from the snapshot alone", () => {
  const zap = (at: string, msg: string) => `{"level":"info","ts":${Date.parse(at) / 1000},"caller":"git/Watcher.go:114","msg":"${msg}"}`;
  const gitSensor = pod({ name: 'git-sensor-0' });

  it('git-sensor-stuck: three polls started since the last one ended is stuck; a poll under way is not', () => {
    const d = detectorOf('git-sensor-stuck');
    const tail = (lines: string[]) => snapshot({ logs: () => [{ pod: gitSensor, container: 'git-sensor', lines }] });
    const ended = [zap('2026-11-22T11:00:00Z', 'starting git watch thread'), zap('2026-11-22T11:00:03Z', 'stop git watch thread')];
    expect(detect(d, tail([...ended, zap('2026-11-22T11:02:00Z', 'starting git watch thread')])).state).toBe('absent');
    const stuck = tail([...ended, ...['11:02', '11:04', '11:06'].map((t) => zap(`2026-11-22T${t}:00Z`, 'starting git watch thread'))]);
    expect(detect(d, stuck)).toMatchObject({ state: 'present', evidence: [{ object: 'pod/devtroncd/git-sensor-0', detail: expect.stringContaining('3 cycles started') }] });
  });

  it('commits-exit-128 is not claimed when git says the volume is full (entry 24)', () => {
    const d = detectorOf('commits-exit-128');
    const tail = (lines: string[]) => snapshot({ logs: () => [{ pod: gitSensor, container: 'git-sensor', lines }] });
    expect(detect(d, tail(['{"msg":"error in fetching material details ","err":"exit status 128"}'])).state).toBe('present');
    expect(detect(d, tail(['{"msg":"error in git cli operation","msg":"error: No space left on device","err":"exit status 128"}'])).state).toBe('absent');
  });

  it('rollout-stable-rs: a controller below 1.0 only on a cluster of 1.22 or later', () => {
    const d = detectorOf('rollout-stable-rs');
    const at = (minor: number, image: string) =>
      snapshot({
        serverVersion: () => ({ gitVersion: `v1.${minor}.3`, major: 1, minor }),
        deployments: () => [{ namespace: 'argo-rollouts', name: 'argo-rollouts', labels: {}, replicas: 1, readyReplicas: 1, containers: [{ name: 'c', image, args: [] }] }],
      });
    expect(detect(d, at(24, 'quay.io/argoproj/argo-rollouts:v0.13.0')).state).toBe('present');
    expect(detect(d, at(21, 'quay.io/argoproj/argo-rollouts:v0.13.0')).state).toBe('absent');
    expect(detect(d, at(24, 'quay.io/argoproj/argo-rollouts:v1.2.2')).state).toBe('absent');
  });

  it("terminal-disconnects: a gce ingress's platform service needs a BackendConfig above 30 s; other services do not count", () => {
    const d = detectorOf('terminal-disconnects');
    const view = (annotation: string | undefined, timeoutSec?: number) =>
      snapshot({
        ingresses: () => [{ namespace: 'devtroncd', name: 'devtron-ingress', className: 'gce', annotations: {}, backendServices: ['devtron-service', 'devtron-grafana'] }],
        services: (): ServiceState[] => [
          { namespace: 'devtroncd', name: 'devtron-service', selector: { app: 'devtron' }, annotations: annotation ? { 'cloud.google.com/backend-config': annotation } : {} },
          { namespace: 'devtroncd', name: 'devtron-grafana', selector: { 'app.kubernetes.io/name': 'grafana' }, annotations: {} },
        ],
        backendConfigs: () => (timeoutSec === undefined ? [] : [{ namespace: 'devtroncd', name: 'long', timeoutSec }]),
      });
    expect(detect(d, view(undefined))).toMatchObject({ state: 'present', evidence: [{ object: 'service/devtroncd/devtron-service' }] });
    expect(detect(d, view('{"default":"long"}', 30)).state).toBe('present');
    expect(detect(d, view('{"default":"long"}', 1800)).state).toBe('absent');
  });
});
