import { describe, expect, it } from 'vitest';
import { freshSimulator } from './support.js';

/**
 * The simulated API server's answers at its limits, as kube-apiserver gives them. Sources (kubernetes/kubernetes):
 * - staging/src/k8s.io/apiserver/pkg/server/config.go: `MaxRequestBodyBytes: int64(3 * 1024 * 1024)`
 * - staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go: limitedReadBody answers
 *   `errors.NewRequestEntityTooLargeError(fmt.Sprintf("limit is %d", limit))`; transformDecodeError writes
 *   "the object provided is unrecognized (must be of type %s): %v (%s)" with summarizeData(body, 30)
 * - staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go: "Request entity too large: %s", reason RequestEntityTooLarge
 * - staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/meta.go: "couldn't get version/kind; json parse error: %v"
 * - Go's encoding/json scanner (also forked in sigs.k8s.io/json): maxNestingDepth = 10000, "exceeded max depth",
 *   reported as "invalid character '{' exceeded max depth"
 * - staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go: a merge patch is first strictly decoded,
 *   "error decoding patch: %v"; a strategic merge patch's decoding error is handed on as it is
 * - staging/src/k8s.io/apiserver/pkg/server/secure_serving.go: `MaxHeaderBytes: 1 << 20`; beyond it Go's
 *   net/http answers "431 Request Header Fields Too Large" as text/plain and closes the connection.
 * The simulator refuses JSON nested deeper than 1,000 levels (kube-apiserver: 10,000) with the same texts.
 */

const env = freshSimulator();
const cms = () => `${env.sim.url}/api/v1/namespaces/default/configmaps`;
const auth = () => ({ Authorization: `Bearer ${env.sim.token}` });

/** A value nested `levels` objects deep. */
const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
/** A ConfigMap whose extra field adds `levels` to the depth of 1 of the object itself. */
const deepConfigMap = (name: string, levels: number): string => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"x":${nested(levels)}}`;

async function send(url: string, method: string, body: string, contentType = 'application/json') {
  const res = await fetch(url, { method, headers: { ...auth(), 'Content-Type': contentType }, body });
  return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
}

const status = (code: number, reason: string, message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

describe('the simulated API server at its limits', () => {
  it('takes a body of 3 MiB and refuses a larger one with 413 RequestEntityTooLarge, limit is 3145728', async () => {
    const configMap = (name: string, bytes: number) => {
      const head = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}"},"data":{"blob":"`;
      return `${head}${'x'.repeat(bytes - head.length - 3)}"}}`;
    };
    const limit = 3 * 1024 * 1024;
    const fits = configMap('fits', limit);
    expect(Buffer.byteLength(fits)).toBe(limit);
    expect((await send(cms(), 'POST', fits)).status).toBe(201);
    const over = await send(cms(), 'POST', configMap('over', limit + 1));
    expect(over.status).toBe(413);
    expect(JSON.parse(over.text)).toEqual(status(413, 'RequestEntityTooLarge', 'Request entity too large: limit is 3145728'));
  });

  it('decodes JSON nested 1,000 levels, and answers deeper bodies with a 400 Status in the decoder\'s words', async () => {
    expect((await send(cms(), 'POST', deepConfigMap('deep-ok', 999))).status).toBe(201);
    const back = await fetch(`${cms()}/deep-ok`, { headers: auth() });
    expect(back.status).toBe(200);
    expect(JSON.stringify((await back.json()) as unknown)).toContain(nested(999));

    const refusal = status(400, 'BadRequest', `the object provided is unrecognized (must be of type ConfigMap): couldn't get version/kind; json parse error: invalid character '{' exceeded max depth ({"apiVersion":"v1","kind":"Con ...)`);
    for (const levels of [1000, 1750, 100_000]) {
      const r = await send(cms(), 'POST', deepConfigMap(`deep-${levels}`, levels));
      expect(r.status).toBe(400);
      expect(JSON.parse(r.text)).toEqual(refusal);
    }
    const put = await send(`${cms()}/deep-ok`, 'PUT', deepConfigMap('deep-ok', 5000));
    expect(JSON.parse(put.text)).toEqual(refusal);
  });

  it('answers too deep a patch as kube-apiserver does for each patch type', async () => {
    expect((await send(cms(), 'POST', deepConfigMap('target', 1))).status).toBe(201);
    const merge = await send(`${cms()}/target`, 'PATCH', `{"x":${nested(5000)}}`, 'application/merge-patch+json');
    expect(merge.status).toBe(400);
    expect(JSON.parse(merge.text)).toEqual(status(400, 'BadRequest', "error decoding patch: invalid character '{' exceeded max depth"));
    const strategic = await send(`${cms()}/target`, 'PATCH', `{"x":${nested(5000)}}`, 'application/strategic-merge-patch+json');
    expect(JSON.parse(strategic.text)).toEqual(status(400, 'BadRequest', "invalid character '{' exceeded max depth"));
  });

  it('serves URLs as long as kube-apiserver reads (1 MiB of header), and answers longer ones as Go does', async () => {
    // A 35 KB label selector: Node's default 16 KB header limit answered 431 with an empty body.
    const values = Array.from({ length: 4000 }, (_, i) => `v${i}`).join(',');
    const long = await fetch(`${env.sim.url}/api/v1/namespaces/default/pods?labelSelector=${encodeURIComponent(`app notin (${values})`)}`, { headers: auth() });
    expect(long.status).toBe(200);
    expect(((await long.json()) as { kind: string }).kind).toBe('PodList');

    const tooLong = await fetch(`${env.sim.url}/api/v1/namespaces/default/pods?labelSelector=${'a'.repeat(1100 * 1024)}`, { headers: auth() });
    expect(tooLong.status).toBe(431);
    expect(tooLong.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await tooLong.text()).toBe('431 Request Header Fields Too Large');
  });
});
