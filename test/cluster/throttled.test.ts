import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClusterGateway } from '../../src/cluster/gateway.js';
import { ClusterError } from '../../src/cluster/errors.js';
import { startSimulatedCluster, type SimulatedCluster } from '../../src/cluster/sim/index.js';

const ns = 'devtroncd';

/**
 * An overloaded kube-apiserver's flow control refuses a request before any handler sees it: 429, the plain text
 * "Too many requests, please try again later." and a Retry-After (k8s.io/apiserver/pkg/server/filters/
 * maxinflight.go and priority-and-fairness.go, tooManyRequests). client-go waits out the Retry-After and sends
 * the request again, up to ten times (k8s.io/client-go/rest/request.go, checkWait); so does the gateway, within
 * the call's deadline, so a busy cluster does not fail a remedy's step.
 */
describe('a cluster whose API server is throttling requests', () => {
  let sim: SimulatedCluster;
  let gateway: ClusterGateway;
  beforeEach(async () => {
    sim = await startSimulatedCluster({ recreateDelayMs: 20, readyDelayMs: 20 });
    gateway = new ClusterGateway(sim.kubeConfig(), { callTimeoutMs: 4_000 });
  });
  afterEach(async () => {
    await sim.close();
  });

  it('answers as kube-apiserver does: 429, plain text and Retry-After; an unauthenticated request is still told 401', async () => {
    sim.throttle({ requests: 2, retryAfterSeconds: 1 });
    const anonymous = await fetch(`${sim.url}/api/v1/namespaces/${ns}/pods`);
    expect(anonymous.status).toBe(401);
    const refused = await fetch(`${sim.url}/api/v1/namespaces/${ns}/pods`, { headers: { authorization: `Bearer ${sim.token}` } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await refused.text()).toBe('Too many requests, please try again later.\n');
  });

  it('waits out the Retry-After and sends the call again: a delete refused twice deletes the pod once', async () => {
    const [pod] = await gateway.listPods(ns, 'app=devtron');
    sim.throttle({ requests: 2, retryAfterSeconds: 1, applies: (method) => method === 'DELETE' });
    expect(await gateway.deletePod(ns, pod!.name, pod!.uid)).toBe('deleted');
    const deletes = sim.requests().filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => r.status)).toEqual([429, 429, 200]);
  });

  it('gives up with a message that says the cluster is throttling when it still refuses at the deadline', async () => {
    sim.throttle({ requests: 100, retryAfterSeconds: 1 });
    const failure = await gateway.listPods(ns, 'app=devtron').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ClusterError);
    expect((failure as ClusterError).code).toBe('throttled');
    expect((failure as ClusterError).message).toMatch(/^The Kubernetes API is refusing requests as too many \(429\) on list pods in devtroncd with app=devtron after [3-4] tries over [3-4] s; the cluster is overloaded\. Try again in a minute\.$/);
  });

  it('does not wait past the deadline for a Retry-After longer than it', async () => {
    sim.throttle({ requests: 1, retryAfterSeconds: 60 });
    const failure = await gateway.listPods(ns, 'app=devtron').catch((e: unknown) => e);
    expect((failure as ClusterError).code).toBe('throttled');
    expect((failure as ClusterError).message).toContain('after 1 try');
    expect(sim.requests().filter((r) => r.status === 429)).toHaveLength(1);
  });
});
