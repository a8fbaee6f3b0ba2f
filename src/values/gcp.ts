import { z } from 'zod';
import type { FormatVerdict } from './formats.js';
import { gcpCredentialFields, gcpCredentialFromFile } from './keys.js';

/** The GCP service-account credential of 2.2: ten string fields, `type` being `service_account`. */
export const gcpCredentialSchema = z.object({
  type: z.literal('service_account', { error: 'type must be "service_account"' }),
  ...(Object.fromEntries(gcpCredentialFields.filter((f) => f !== 'type').map((f) => [f, z.string({ error: `${f} must be a string` })])) as Record<
    Exclude<(typeof gcpCredentialFields)[number], 'type'>,
    z.ZodString
  >),
});

/** A service-account credential, as the chart's secret holds it once decoded. */
export type GcpCredential = z.infer<typeof gcpCredentialSchema>;

/** The skeleton the person fills in; every secret a placeholder. */
export function gcpCredentialSkeleton(projectId = '<PROJECT_ID>'): GcpCredential {
  return {
    type: 'service_account',
    project_id: projectId,
    private_key_id: '<PRIVATE_KEY_ID>',
    private_key: '<PRIVATE_KEY>',
    client_email: '<CLIENT_EMAIL>',
    client_id: '<CLIENT_ID>',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: 'https://oauth2.googleapis.com/token',
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    client_x509_cert_url: '<CLIENT_X509_CERT_URL>',
  };
}

const base64Text = /^[A-Za-z0-9+/]{16,}={0,2}$/;

/** The credential's JSON when `value` is base64 of it, or undefined. */
export function decodeBase64Json(value: string): unknown {
  const compact = value.replace(/\s/g, '');
  if (!base64Text.test(compact)) return undefined;
  try {
    return JSON.parse(Buffer.from(compact, 'base64').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function fieldProblems(json: unknown): string | undefined {
  const r = gcpCredentialSchema.safeParse(json);
  if (r.success) return undefined;
  const missing = r.error.issues.filter((i) => i.code === 'invalid_type' && i.path.length === 1 && (json as Record<string, unknown>)[i.path[0] as string] === undefined).map((i) => String(i.path[0]));
  const other = r.error.issues.filter((i) => !missing.includes(String(i.path[0]))).map((i) => i.message);
  return [missing.length > 0 ? `the service-account JSON lacks ${missing.join(', ')}` : '', ...other].filter(Boolean).join('; ');
}

/**
 * secrets.BLOB_STORAGE_GCP_CREDENTIALS_JSON: the service-account JSON with all its fields, encoded in
 * base64. A raw JSON string or a YAML map is caught (the chart would write it into the Secret unencoded).
 * Never repeats the value: it is a secret.
 */
export function checkGcpCredential(value: unknown): FormatVerdict {
  if (typeof value === 'string' && value.startsWith('$(')) return { ok: true };
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const fields = fieldProblems(value);
    return { ok: false, problem: `is a YAML map; the chart copies this value into the Secret's data as it is, so it must be the JSON encoded in base64${fields ? `, and ${fields}` : ''}`, corrected: gcpCredentialFromFile };
  }
  if (typeof value !== 'string' || value.trim() === '') return { ok: false, problem: 'must be the service-account JSON encoded in base64', corrected: gcpCredentialFromFile };
  if (value.trim().startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(value);
    } catch {
      return { ok: false, problem: 'is neither base64 nor valid JSON', corrected: gcpCredentialFromFile };
    }
    const fields = fieldProblems(json);
    return { ok: false, problem: `is raw JSON; the chart copies this value into the Secret's data as it is, so it must be encoded in base64${fields ? `, and ${fields}` : ''}`, corrected: gcpCredentialFromFile };
  }
  const json = decodeBase64Json(value);
  if (json === undefined) return { ok: false, problem: 'is not the base64 of a JSON document', corrected: gcpCredentialFromFile };
  const fields = fieldProblems(json);
  return fields ? { ok: false, problem: fields } : { ok: true };
}
