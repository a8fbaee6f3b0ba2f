import { AppsV1Api, BatchV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions, VersionApi, type CoreV1Event, type V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { attemptsWithin } from '../../../src/cluster/sim/apiserver/kubelet-events.js';
import { apiFailure, freshSimulator } from './support.js';

/*
 * Each broken state shows the signals a real cluster shows, read only through the Kubernetes API as a
 * detector reads them (pods' status, the events list, bounded log tails, objects): never the
 * simulator's fault annotation, which these tests do not look at.
 */

const ns = 'devtroncd';

describe('the real signals of the broken states', () => {
  const env = freshSimulator();
  const apps = () => env.sim.kubeConfig().makeApiClient(AppsV1Api);

  const podsOf = async (namespace: string, labelSelector?: string): Promise<V1Pod[]> =>
    (await env.core.listNamespacedPod({ namespace, ...(labelSelector ? { labelSelector } : {}) })).items.filter((p) => p.metadata?.deletionTimestamp === undefined);
  const eventsOf = async (namespace: string, pod: V1Pod): Promise<CoreV1Event[]> =>
    (await env.core.listNamespacedEvent({ namespace })).items.filter((e) => e.involvedObject.uid === pod.metadata?.uid);
  const tail = async (namespace: string, name: string, tailLines = 50): Promise<string[]> =>
    (await env.core.readNamespacedPodLog({ namespace, name, tailLines })).trim().split('\n');
  const json = (lines: string[]) => lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  const waiting = (pod: V1Pod) => pod.status?.containerStatuses?.[0]?.state?.waiting;

  it('healthy: no warning event, every pod ready, the git-sensor polls start and end', async () => {
    const all = (await env.core.listPodForAllNamespaces()).items.filter((p) => p.status?.phase === 'Running');
    expect(all.every((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))).toBe(true);
    expect((await env.core.listEventForAllNamespaces()).items.filter((e) => e.type === 'Warning')).toEqual([]);
    const polls = json(await tail(ns, 'git-sensor-0', 6)).map((l) => l['msg']);
    expect(polls).toContain('stop git watch thread');
    expect(polls).toContain('starting git watch thread');
  });

  it('database-image-pull: the database pod Pending in ImagePullBackOff with the kubelet events; the main pod crash-loops, unable to connect', async () => {
    await env.sim.break('database-image-pull');
    const [db] = await podsOf(ns, 'app=postgresql');
    const image = 'docker.io/bitnami/postgresql:11.3.0-debian-9-r28';
    expect(db?.status?.phase).toBe('Pending');
    expect(waiting(db!)).toEqual({ reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}"` });
    const events = await eventsOf(ns, db!);
    const failed = events.find((e) => e.reason === 'Failed' && e.message?.startsWith('Failed to pull image'));
    expect(failed?.message).toBe(`Failed to pull image "${image}": rpc error: code = NotFound desc = failed to pull and unpack image "${image}": failed to resolve reference "${image}": ${image}: not found`);
    expect(failed).toMatchObject({ type: 'Warning', source: { component: 'kubelet' }, count: 1, involvedObject: { kind: 'Pod', name: 'postgresql-postgresql-0', fieldPath: 'spec.containers{postgresql-postgresql}' } });
    expect(failed?.firstTimestamp).toBeDefined();
    expect(failed?.lastTimestamp).toBeDefined();
    expect(events.map((e) => `${e.reason}: ${e.message}`)).toEqual(
      expect.arrayContaining(['Failed: Error: ErrImagePull', `BackOff: Back-off pulling image "${image}"`, 'Failed: Error: ImagePullBackOff']),
    );
    const logError = await apiFailure(() => env.core.readNamespacedPodLog({ namespace: ns, name: 'postgresql-postgresql-0' }), 400);
    expect(logError['message']).toBe('container "postgresql-postgresql" in pod "postgresql-postgresql-0" is waiting to start: trying and failing to pull image');

    const [main] = await podsOf(ns, 'app=devtron');
    const podRef = `${main!.metadata!.name!}_${ns}(${main!.metadata!.uid!})`;
    expect(waiting(main!)).toEqual({ reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting failed container=devtron pod=${podRef}` });
    expect(main?.status?.containerStatuses?.[0]?.lastState?.terminated?.reason).toBe('Error');
    expect((await eventsOf(ns, main!)).map((e) => e.message)).toContain(`Back-off restarting failed container devtron in pod ${podRef}`);
    const connect = json(await tail(ns, main!.metadata!.name!)).find((l) => l['msg'] === 'error in connecting db ');
    expect(connect?.['err']).toMatch(/connect: connection refused$/);
  });

  it('image-pull-private-registry: the application pods are refused with 401 Unauthorized; a pull secret for the registry fixes it', async () => {
    await env.sim.break('image-pull-private-registry');
    await env.sim.settle();
    const app = await podsOf('devtron-demo', 'app=payments-web');
    expect(app).toHaveLength(2);
    for (const pod of app) {
      expect(waiting(pod)?.reason).toBe('ImagePullBackOff');
      const failed = (await eventsOf('devtron-demo', pod)).find((e) => e.message?.startsWith('Failed to pull image'));
      expect(failed?.message).toMatch(/failed to authorize: failed to fetch oauth token: unexpected status from GET request to https:\/\/registry\.acme-corp\.io\/service\/token\?.*: 401 Unauthorized$/);
    }
    expect(env.sim.symptoms()).toEqual(['image-pull-private-registry']);

    const auths = { auths: { 'registry.acme-corp.io': { auth: Buffer.from('robot$ci:token').toString('base64') } } };
    await env.core.createNamespacedSecret({
      namespace: 'devtron-demo',
      body: { metadata: { name: 'registry-acme' }, type: 'kubernetes.io/dockerconfigjson', data: { '.dockerconfigjson': Buffer.from(JSON.stringify(auths)).toString('base64') } },
    });
    await apps().patchNamespacedDeployment(
      { namespace: 'devtron-demo', name: 'payments-web', body: { spec: { template: { spec: { imagePullSecrets: [{ name: 'registry-acme' }] } } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await env.sim.settle();
    expect(env.sim.symptoms()).toEqual([]);
    const fixed = await podsOf('devtron-demo', 'app=payments-web');
    expect(fixed.every((p) => p.status?.phase === 'Running' && waiting(p) === undefined)).toBe(true);
  });

  it('image-pull-private-registry with credentials lacking permission: 403 Forbidden', async () => {
    await env.sim.break('image-pull-private-registry', { status: 403 });
    await env.sim.settle();
    const [pod] = await podsOf('devtron-demo', 'app=payments-web');
    const failed = (await eventsOf('devtron-demo', pod!)).find((e) => e.message?.startsWith('Failed to pull image'));
    expect(failed?.message).toMatch(/unexpected status from HEAD request to https:\/\/registry\.acme-corp\.io\/v2\/payments\/web\/manifests\/1\.4\.2: 403 Forbidden$/);
  });

  it('build-logs: the main pod and the event watcher lost the broker connection while a build runs', async () => {
    await env.sim.break('build-logs');
    const builds = (await podsOf('devtron-ci', 'devtron.ai/purpose=workflow')).filter((p) => p.status?.phase === 'Running');
    expect(builds).toHaveLength(1);
    for (const selector of ['app=devtron', 'app=kubewatch']) {
      const [pod] = await podsOf(ns, selector);
      const lines = json(await tail(ns, pod!.metadata!.name!));
      expect(lines.find((l) => l['msg'] === 'Nats Connection got disconnected!')).toMatchObject({ level: 'error', caller: 'pubsub-lib/NatsClient.go:132' });
      expect(lines.find((l) => l['msg'] === 'Nats Client Connection closed!')?.['Reason']).toBe('nats: no servers available for connection');
      expect(lines.some((l) => l['msg'] === 'error while publishing message' && l['error'] === 'nats: connection closed')).toBe(true);
    }
  });

  it('commits-exit-128: each poll logs the failed fetch with the repository and exit status 128', async () => {
    await env.sim.break('commits-exit-128');
    const lines = await tail(ns, 'git-sensor-0', 20);
    const fetch = json(lines).find((l) => l['msg'] === 'error in fetching material details ');
    expect(fetch).toMatchObject({ level: 'error', caller: 'git/Watcher.go:201', repo: 'https://github.com/acme-corp/payments-api.git', err: 'exit status 128' });
    // zap writes the git output under a second "msg" key, as git-sensor's Errorw does.
    expect(lines.find((l) => l.includes('"msg":"error in git cli operation"'))).toContain(`"msg":"remote: Repository not found.\\nfatal: repository 'https://github.com/acme-corp/payments-api.git/' not found\\n"`);
    expect(lines.join('\n')).not.toMatch(/no space left on device/i);
  });

  it('git-sensor-volume-full: each poll fails to fetch for want of space; a replacement pod fails the same while the claim is full', async () => {
    await env.sim.break('git-sensor-volume-full');
    const lines = await tail(ns, 'git-sensor-0', 20);
    const cli = json(lines).find((l) => l['msg'] === 'error in fetching material details ');
    expect(cli).toMatchObject({ repo: 'https://github.com/acme-corp/payments-api.git', err: 'exit status 128' });
    expect(lines.some((l) => l.includes('"msg":"error: unable to create temporary file: No space left on device\\nfatal: index-pack failed\\n"'))).toBe(true);
    await env.core.deleteNamespacedPod({ namespace: ns, name: 'git-sensor-0' });
    await env.sim.settle();
    expect(env.sim.symptoms()).toEqual(['git-sensor-volume-full']);
  });

  it('metrics-server-tls: running, never ready, x509 scrape errors, and Unhealthy events; passing --kubelet-insecure-tls fixes it', async () => {
    await env.sim.break('metrics-server-tls');
    const deployment = await apps().readNamespacedDeployment({ namespace: 'kube-system', name: 'metrics-server' });
    expect(deployment.spec?.template.spec?.containers[0]?.args).not.toContain('--kubelet-insecure-tls');
    const [pod] = await podsOf('kube-system', 'app.kubernetes.io/name=metrics-server');
    expect(pod?.status?.phase).toBe('Running');
    expect(pod?.status?.containerStatuses?.[0]).toMatchObject({ ready: false, started: true, state: { running: {} } });
    expect((await eventsOf('kube-system', pod!)).find((e) => e.reason === 'Unhealthy')).toMatchObject({ type: 'Warning', message: 'Readiness probe failed: HTTP probe failed with statuscode: 500' });
    const lines = await tail('kube-system', pod!.metadata!.name!, 10);
    expect(lines.some((l) => /^E\d{4} [\d:.]+ +1 scraper\.go:149\] "Failed to scrape node" err=".*x509: cannot validate certificate for 10\.128\.0\.10 because it doesn't contain any IP SANs" node="sim-node-1"$/.test(l))).toBe(true);

    const args = [...(deployment.spec?.template.spec?.containers[0]?.args ?? []), '--kubelet-insecure-tls'];
    await apps().patchNamespacedDeployment(
      { namespace: 'kube-system', name: 'metrics-server', body: [{ op: 'replace', path: '/spec/template/spec/containers/0/args', value: args }] },
    );
    await env.sim.settle();
    expect(env.sim.symptoms()).toEqual([]);
    const [fixed] = await podsOf('kube-system', 'app.kubernetes.io/name=metrics-server');
    expect(fixed?.status?.containerStatuses?.[0]?.ready).toBe(true);
  });

  it('rollout-stable-rs: a 0.13 rollout controller on a 1.32 cluster, its reflector failing on removed APIs, rollouts without status', async () => {
    await env.sim.break('rollout-stable-rs');
    await env.sim.settle();
    const version = await env.sim.kubeConfig().makeApiClient(VersionApi).getCode();
    expect(Number(version.minor.replace(/\D.*$/, ''))).toBeGreaterThanOrEqual(22);
    const [controller] = await podsOf(ns, 'app.kubernetes.io/name=argo-rollouts');
    expect(controller?.spec?.containers[0]?.image).toBe('quay.io/argoproj/argo-rollouts:v0.13.0');
    expect((await tail(ns, controller!.metadata!.name!, 5)).find((l) => l.startsWith('E'))).toMatch(/reflector\.go:127\] ".*Failed to watch \*v1beta1\.Ingress: failed to list \*v1beta1\.Ingress: the server could not find the requested resource"$/);
    const rollout = (await env.sim.kubeConfig().makeApiClient(CustomObjectsApi).getNamespacedCustomObject({ group: 'argoproj.io', version: 'v1alpha1', namespace: 'devtron-demo', plural: 'rollouts', name: 'orders-api' })) as { spec: { strategy: object }; status?: { canary?: unknown } };
    expect(rollout.spec.strategy).toHaveProperty('canary');
    expect(rollout.status?.canary).toBeUndefined();
  });

  it("datasource-update-failed: the main pod logs the dashboard's refusal until it starts again and reads the current version", async () => {
    await env.sim.break('datasource-update-failed');
    const [main] = await podsOf(ns, 'app=devtron');
    const refusal = json(await tail(ns, main!.metadata!.name!)).find((l) => String(l['response']).includes('Reload new version and try again'));
    expect(refusal).toMatchObject({ level: 'error', status: '500 Internal Server Error' });
    await env.core.deleteNamespacedPod({ namespace: ns, name: main!.metadata!.name! });
    await env.sim.settle();
    const [replacement] = await podsOf(ns, 'app=devtron');
    expect((await tail(ns, replacement!.metadata!.name!)).join('\n')).not.toContain('Reload new version');
  });

  it("install-jobs-failed: the failed migration job's condition and the job controller's BackoffLimitExceeded event", async () => {
    await env.sim.break('install-jobs-failed');
    const job = (await env.sim.kubeConfig().makeApiClient(BatchV1Api).readNamespacedJob({ namespace: ns, name: 'postgresql-migrate-devtron' }));
    expect(job.status?.conditions?.find((c) => c.type === 'Failed')).toMatchObject({ status: 'True', reason: 'BackoffLimitExceeded' });
    const events = (await env.core.listNamespacedEvent({ namespace: ns, fieldSelector: 'type=Warning' })).items.filter((e) => e.involvedObject.uid === job.metadata?.uid);
    expect(events.map((e) => [e.reason, e.message, e.source?.component])).toEqual([['BackoffLimitExceeded', 'Job has reached the specified backoff limit', 'job-controller']]);
  });

  it('events count the kubelet retries: back-off from 10 s doubling to 5 min', () => {
    expect([0, 9_999, 10_000, 30_000, 70_000, 150_000, 310_000, 610_000].map(attemptsWithin)).toEqual([1, 1, 2, 3, 4, 5, 6, 7]);
  });
});
