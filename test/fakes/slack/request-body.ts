/**
 * Decodes a Web API request the way Slack does: form-encoded (what @slack/web-api sends, with objects
 * such as `blocks` as JSON strings inside the form) or JSON (what hand-written clients send).
 */
import type { IncomingMessage } from 'node:http';

/** Decoded arguments of one call, with JSON-in-form fields already parsed to objects. */
export type ApiArgs = Record<string, unknown>;

/** Form fields Slack documents as JSON-encoded strings, and the error it gives when they do not parse. */
const JSON_FIELDS: Record<string, string> = {
  blocks: 'invalid_blocks_format',
  attachments: 'invalid_attachments',
  view: 'invalid_arguments',
  metadata: 'invalid_metadata_format',
};

/** Form values are strings; these are booleans in Slack's schema, so tests can compare either encoding. */
const BOOLEAN_FIELDS = new Set(['reply_broadcast', 'unfurl_links', 'unfurl_media', 'mrkdwn', 'as_user']);

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Either the decoded arguments, or the error code Slack answers for an undecodable request. */
export type DecodedArgs = { ok: true; args: ApiArgs } | { ok: false; error: string };

function decodeForm(raw: string, query: URLSearchParams): DecodedArgs {
  const args: ApiArgs = {};
  for (const params of [query, new URLSearchParams(raw)]) {
    for (const [key, value] of params) {
      const jsonError = JSON_FIELDS[key];
      if (jsonError !== undefined) {
        try {
          args[key] = JSON.parse(value) as unknown;
        } catch {
          return { ok: false, error: jsonError };
        }
      } else if (BOOLEAN_FIELDS.has(key) && (value === 'true' || value === 'false')) {
        args[key] = value === 'true';
      } else {
        args[key] = value;
      }
    }
  }
  return { ok: true, args };
}

export function decodeApiArgs(contentType: string | undefined, raw: string, query: URLSearchParams): DecodedArgs {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/json') {
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, error: 'invalid_json' };
      const fromQuery = decodeForm('', query);
      return { ok: true, args: { ...(fromQuery.ok ? fromQuery.args : {}), ...(parsed as ApiArgs) } };
    } catch {
      return { ok: false, error: 'invalid_json' };
    }
  }
  if (type === 'application/x-www-form-urlencoded' || (type === '' && raw === '')) return decodeForm(raw, query);
  return { ok: false, error: 'invalid_post_type' };
}

/** The bot token of a call: the Authorization header, or the `token` argument Slack also accepts in forms. */
export function tokenOf(req: IncomingMessage, args: ApiArgs): string | undefined {
  const header = req.headers.authorization;
  if (header !== undefined) return /^Bearer\s+(.+)$/i.exec(header)?.[1];
  return typeof args.token === 'string' ? args.token : undefined;
}
