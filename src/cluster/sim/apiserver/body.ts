import type { IncomingMessage } from 'node:http';
import { SimApiError, statusErrors } from './errors.js';
import { patchTypes } from './patch.js';
import { decodeProtobuf, protobufMediaType } from './protobuf.js';
import type { ResourceRequest } from './request-info.js';

/**
 * kube-apiserver's limit on a request body: `MaxRequestBodyBytes: int64(3 * 1024 * 1024)` in
 * k8s.io/apiserver/pkg/server/config.go (twice etcd's recommended 1.5 MB request size).
 */
export const maxRequestBodyBytes = 3 * 1024 * 1024;

/**
 * How deeply nested a JSON body the simulator decodes. kube-apiserver's decoders (Go's encoding/json and
 * sigs.k8s.io/json) refuse more than 10,000 levels; the simulator's own walks over objects (copies,
 * patches, JSON output) use the JavaScript stack, and the copy of an object entering the store overflowed
 * at about 2,000 levels, so it refuses beyond 1,000, with the same message. Real objects nest a few dozen.
 */
export const maxJsonDepth = 1000;

/**
 * Reads a request body as kube-apiserver's limitedReadBody does (handlers/rest.go): more than the limit
 * is a 413 RequestEntityTooLarge Status, "Request entity too large: limit is 3145728"
 * (errors.NewRequestEntityTooLargeError). The rest of an oversized body is read and dropped, so that the
 * client, still sending, receives the answer.
 */
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > maxRequestBodyBytes) {
      req.resume();
      throw new SimApiError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${maxRequestBodyBytes}`);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/**
 * The bracket that takes a JSON text past `maxJsonDepth`, found in one pass as Go's scanner finds it
 * (its parse-state stack): undefined when the text nests no deeper. Strings are skipped, escapes included.
 */
function tooDeepAt(text: string): string | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') {
      if (++depth > maxJsonDepth) return c;
    } else if (c === '}' || c === ']') depth--;
  }
  return undefined;
}

/** Go's summarizeData (handlers/rest.go): the first 30 bytes of an object, else their hex. */
function summary(body: Buffer): string {
  if (body.length === 0) return '<empty>';
  const head = body.subarray(0, 30);
  const more = body.length > 30 ? ' ...' : '';
  return body[0] === 0x7b ? `${head.toString('utf8')}${more}` : `${head.toString('hex')}${more}`;
}

/**
 * The 400 kube-apiserver answers for a body nested too deep, in the words of the handler that decodes it:
 * create and update go through the serializer's version/kind probe and transformDecodeError (create.go,
 * update.go, rest.go); a merge patch is strictly decoded first ("error decoding patch: …", patch.go); a
 * strategic merge or JSON patch hands Go's error on as it is.
 */
function tooDeep(bracket: string, body: Buffer, req: ResourceRequest, contentType: string): SimApiError {
  const go = `invalid character '${bracket}' exceeded max depth`;
  if (req.verb === 'create' || req.verb === 'update') {
    return statusErrors.badRequest(`the object provided is unrecognized (must be of type ${req.kind.kind}): couldn't get version/kind; json parse error: ${go} (${summary(body)})`);
  }
  if (req.verb === 'patch' && contentType === patchTypes.merge) return statusErrors.badRequest(`error decoding patch: ${go}`);
  return statusErrors.badRequest(go);
}

/** The JSON of a request body (undefined when there is none), or the 400 Status the API server would answer. */
export function decodeBody(body: Buffer, req: ResourceRequest, contentType: string): unknown {
  if (contentType === protobufMediaType && body.length > 0) return decodeProtobuf(body);
  const text = body.toString('utf8').trim();
  if (text === '') return undefined;
  const bracket = tooDeepAt(text);
  if (bracket) throw tooDeep(bracket, body, req, contentType);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw statusErrors.badRequest(`error decoding request body: ${(error as Error).message}`);
  }
}
