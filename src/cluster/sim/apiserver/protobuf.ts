import { statusErrors } from './errors.js';
import { messageOf } from './protobuf-kinds.js';
import type { Message } from './protobuf-kinds.js';

/**
 * Kubernetes' protobuf encoding of a request body, as kubectl sends it for built-in kinds (its typed
 * clients ask for `application/vnd.kubernetes.protobuf`): the 4-byte magic `k8s\0`, then a runtime.Unknown
 * message (k8s.io/apimachinery/pkg/runtime/generated.proto: 1 typeMeta {1 apiVersion, 2 kind}, 2 raw,
 * 3 contentEncoding, 4 contentType) whose `raw` is the object in the kind's own message
 * (k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go). Decoded here into the JSON object a
 * JSON client would have sent, for the kinds protobuf-kinds.ts describes.
 *
 * Answering 415 instead would not make kubectl retry in JSON: client-go degrades to JSON after a 415 only
 * for CBOR, and "generated clients accessing built-in kube resources are forced to protobuf, so those will
 * not degrade to JSON" (k8s.io/client-go/rest/client.go, requestClientContentConfigProvider).
 */

export const protobufMediaType = 'application/vnd.kubernetes.protobuf';
const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

interface WireField {
  no: number;
  /** A varint's value, or a length-delimited field's bytes. */
  value: bigint | Buffer;
}

class Reader {
  private at = 0;
  constructor(private readonly buf: Buffer) {}
  done(): boolean {
    return this.at >= this.buf.length;
  }
  varint(): bigint {
    let result = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (this.at >= this.buf.length || shift > 63n) throw new Error('truncated varint');
      const byte = this.buf[this.at++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
    }
  }
  field(): WireField {
    const key = Number(this.varint());
    const no = key >> 3;
    switch (key & 7) {
      case 0:
        return { no, value: this.varint() };
      case 2: {
        const length = Number(this.varint());
        if (this.at + length > this.buf.length) throw new Error('truncated field');
        const value = this.buf.subarray(this.at, this.at + length);
        this.at += length;
        return { no, value };
      }
      default:
        // Kubernetes' messages use only varints and length-delimited fields (no fixed32/64 on these kinds).
        throw new Error(`unexpected wire type ${key & 7} for field ${no}`);
    }
  }
}

function fields(buf: Buffer): WireField[] {
  const reader = new Reader(buf);
  const out: WireField[] = [];
  while (!reader.done()) out.push(reader.field());
  return out;
}

const bytesOf = (f: WireField): Buffer => (Buffer.isBuffer(f.value) ? f.value : Buffer.alloc(0));
const text = (f: WireField): string => bytesOf(f).toString('utf8');
const int = (f: WireField): number => (typeof f.value === 'bigint' ? Number(BigInt.asIntN(64, f.value)) : 0);

/** A map entry message: 1 key, 2 value. */
function entry(f: WireField): [string, WireField | undefined] {
  const parts = fields(bytesOf(f));
  return [text(parts.find((p) => p.no === 1) ?? { no: 1, value: Buffer.alloc(0) }), parts.find((p) => p.no === 2)];
}

/** Go's JSON leaves out empty optional values; pointer fields (`keep`) stay even when zero. */
function isEmpty(v: unknown): boolean {
  if (v === '' || v === 0 || v === false || v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).length === 0;
}

function decodeMessage(buf: Buffer, message: Message): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields(buf)) {
    const spec = message[f.no];
    if (!spec) throw new Error(`field ${f.no} is not one the simulator decodes`);
    const [name, type, keep] = spec;
    let value: unknown;
    if (typeof type === 'object') {
      const [repeated, inner] = Array.isArray(type) ? [true, type[0]] : [false, type];
      const decoded = decodeMessage(bytesOf(f), inner);
      if (repeated) {
        out[name] = [...((out[name] as unknown[] | undefined) ?? []), decoded];
        continue;
      }
      value = decoded;
    } else {
      switch (type) {
        case 'string':
          value = text(f);
          break;
        case 'strings':
          out[name] = [...((out[name] as unknown[] | undefined) ?? []), text(f)];
          continue;
        case 'int':
          value = int(f);
          break;
        case 'bool':
          value = int(f) !== 0;
          break;
        case 'map': {
          const [k, v] = entry(f);
          out[name] = { ...((out[name] as object | undefined) ?? {}), [k]: v ? text(v) : '' };
          continue;
        }
        case 'bytemap': {
          const [k, v] = entry(f);
          out[name] = { ...((out[name] as object | undefined) ?? {}), [k]: v ? bytesOf(v).toString('base64') : '' };
          continue;
        }
        case 'time': {
          // metav1.Time: 1 seconds, 2 nanos; the zero time is `null` in JSON, i.e. left out.
          const seconds = int(fields(bytesOf(f)).find((p) => p.no === 1) ?? { no: 1, value: 0n });
          value = seconds > 0 ? new Date(seconds * 1000).toISOString().replace(/\.\d+Z$/, 'Z') : undefined;
          break;
        }
        case 'quantity':
          // resource.Quantity: 1 string.
          value = text(fields(bytesOf(f)).find((p) => p.no === 1) ?? { no: 1, value: Buffer.alloc(0) });
          break;
        case 'quantitymap': {
          const [k, v] = entry(f);
          const q = v ? text(fields(bytesOf(v)).find((p) => p.no === 1) ?? { no: 1, value: Buffer.alloc(0) }) : '';
          out[name] = { ...((out[name] as object | undefined) ?? {}), [k]: q };
          continue;
        }
        case 'intorstring': {
          // intstr.IntOrString: 1 type (0 int, 1 string), 2 intVal, 3 strVal.
          const parts = fields(bytesOf(f));
          const isString = int(parts.find((p) => p.no === 1) ?? { no: 1, value: 0n }) === 1;
          const part = parts.find((p) => p.no === (isString ? 3 : 2));
          out[name] = isString ? (part ? text(part) : '') : part ? int(part) : 0;
          continue;
        }
      }
    }
    if (keep || !isEmpty(value)) out[name] = value;
  }
  return out;
}

/** The refusal for a protobuf body the simulator cannot read: the 415 a server that only reads JSON and YAML answers. */
const unreadable = () => statusErrors.unsupportedMediaType(['application/json', 'application/yaml']);

/** The JSON object a protobuf request body stands for; 415 when it is not one the simulator can read. */
export function decodeProtobuf(body: Buffer): unknown {
  if (body.length < magic.length || !body.subarray(0, magic.length).equals(magic)) throw unreadable();
  try {
    const envelope = fields(body.subarray(magic.length));
    const typeMeta = fields(bytesOf(envelope.find((f) => f.no === 1) ?? { no: 1, value: Buffer.alloc(0) }));
    const apiVersion = text(typeMeta.find((f) => f.no === 1) ?? { no: 1, value: Buffer.alloc(0) });
    const kind = text(typeMeta.find((f) => f.no === 2) ?? { no: 2, value: Buffer.alloc(0) });
    const message = messageOf(apiVersion, kind);
    const raw = envelope.find((f) => f.no === 2);
    if (!message || !raw) throw unreadable();
    return { apiVersion, kind, ...decodeMessage(bytesOf(raw), message) };
  } catch (error) {
    if (error instanceof Error && error.name === 'SimApiError') throw error;
    throw unreadable();
  }
}
