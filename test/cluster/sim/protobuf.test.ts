import { describe, expect, it } from 'vitest';
import { freshSimulator } from './support.js';

/**
 * Protobuf request bodies, as kubectl's typed clients send them: `k8s\0` then a runtime.Unknown
 * (k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go). The kinds the simulator cannot read in
 * protobuf are refused with a 415, never half-read.
 */

const varint = (n: number): Buffer => {
  const out: number[] = [];
  do {
    out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n >>>= 7;
  } while (n > 0);
  return Buffer.from(out);
};
const bytesField = (no: number, value: Buffer | string): Buffer => {
  const buf = Buffer.isBuffer(value) ? value : Buffer.from(value);
  return Buffer.concat([varint((no << 3) | 2), varint(buf.length), buf]);
};
const envelope = (apiVersion: string, kind: string, raw: Buffer): Buffer =>
  Buffer.concat([Buffer.from('k8s\0', 'latin1'), bytesField(1, Buffer.concat([bytesField(1, apiVersion), bytesField(2, kind)])), bytesField(2, raw)]);
const mapEntry = (no: number, key: string, value: string): Buffer => bytesField(no, Buffer.concat([bytesField(1, key), bytesField(2, value)]));

describe('protobuf request bodies', () => {
  const env = freshSimulator();
  const post = (path: string, body: Buffer) =>
    fetch(`${env.sim.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${env.sim.token}`, 'content-type': 'application/vnd.kubernetes.protobuf' }, body });

  it('creates a ConfigMap from its protobuf message (1 metadata, 2 data in core/v1/generated.proto)', async () => {
    const raw = Buffer.concat([bytesField(1, Buffer.concat([bytesField(1, 'pb'), mapEntry(11, 'team', 'ci')])), mapEntry(2, 'a', 'b')]);
    const res = await post('/api/v1/namespaces/devtroncd/configmaps', envelope('v1', 'ConfigMap', raw));
    expect(res.status).toBe(201);
    const created = env.sim.get({ group: '', version: 'v1', plural: 'configmaps' }, 'devtroncd', 'pb');
    expect(created.data).toEqual({ a: 'b' });
    expect(created.metadata.labels).toEqual({ team: 'ci' });
  });

  it('refuses a kind or a field it cannot read with a 415', async () => {
    const unreadable = 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml';
    const pod = await post('/api/v1/namespaces/devtroncd/pods', envelope('v1', 'Pod', bytesField(1, bytesField(1, 'p'))));
    expect(pod.status).toBe(415);
    expect(((await pod.json()) as { message: string }).message).toBe(unreadable);
    const odd = await post('/api/v1/namespaces/devtroncd/configmaps', envelope('v1', 'ConfigMap', Buffer.concat([bytesField(1, bytesField(1, 'odd')), bytesField(9, 'x')])));
    expect(odd.status).toBe(415);
    expect(env.sim.get({ group: '', version: 'v1', plural: 'configmaps' }, 'devtroncd', 'odd')).toBeUndefined();
  });
});
