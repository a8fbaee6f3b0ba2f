/**
 * The installer value keys of section 2.2, with the real chart's names (`<database>` is `postgres`,
 * `<local_store>` is `minio`), how key paths are written, and which keys hold secrets.
 */

import { editDistance } from '../spelling.js';

/** A key path, one segment per level: `['configs', 'BLOB_STORAGE_PROVIDER']`. Segments may contain dots. */
export type KeyPath = readonly string[];

export const keys = {
  modules: ['installer', 'modules'],
  volumeSize: ['components', 'postgres', 'persistence', 'volumeSize'],
  localStore: ['minio', 'enabled'],
  provider: ['configs', 'BLOB_STORAGE_PROVIDER'],
  cacheBucket: ['configs', 'DEFAULT_CACHE_BUCKET'],
  cacheRegion: ['configs', 'DEFAULT_CACHE_BUCKET_REGION'],
  logsBucket: ['configs', 'DEFAULT_BUILD_LOGS_BUCKET'],
  logsRegion: ['configs', 'DEFAULT_CD_LOGS_BUCKET_REGION'],
  s3AccessKey: ['secrets', 'BLOB_STORAGE_S3_ACCESS_KEY'],
  s3SecretKey: ['secrets', 'BLOB_STORAGE_S3_SECRET_KEY'],
  s3Endpoint: ['configs', 'BLOB_STORAGE_S3_ENDPOINT'],
  s3EndpointInsecure: ['configs', 'BLOB_STORAGE_S3_ENDPOINT_INSECURE'],
  azureAccountKey: ['secrets', 'AZURE_ACCOUNT_KEY'],
  azureAccountName: ['configs', 'AZURE_ACCOUNT_NAME'],
  azureLogsContainer: ['configs', 'AZURE_BLOB_CONTAINER_CI_LOG'],
  azureCacheContainer: ['configs', 'AZURE_BLOB_CONTAINER_CI_CACHE'],
  gcpCredentials: ['secrets', 'BLOB_STORAGE_GCP_CREDENTIALS_JSON'],
} as const satisfies Record<string, KeyPath>;

/** The name of one key of section 2.2. */
export type KeyName = keyof typeof keys;

/** The fields of the GCP service-account credential (2.2), all strings. */
export const gcpCredentialFields = [
  'type',
  'project_id',
  'private_key_id',
  'private_key',
  'client_email',
  'client_id',
  'auth_uri',
  'token_uri',
  'auth_provider_x509_cert_url',
  'client_x509_cert_url',
] as const;

/** Every key of 2.2 as written with `--set`, for near-miss suggestions. */
export const knownKeys: readonly string[] = Object.values(keys).map((p) => keyText(p));

/**
 * A key path as `--set` writes it: dots join segments, and a dot inside a segment is escaped
 * (`annotations.nginx\.ingress\.kubernetes\.io/proxy-body-size`).
 */
export function keyText(path: KeyPath): string {
  return path.map((s) => s.replace(/\\/g, '\\\\').replace(/\./g, '\\.').replace(/,/g, '\\,').replace(/=/g, '\\=')).join('.');
}

export function samePath(a: KeyPath, b: KeyPath): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}

/** Key names whose values are secrets wherever they appear (values, `--password`, JSON fields). */
const secretName = /(?:password|passwd|secret|token|access_?key|account_?key|private_?key|credentials)/i;

/** Whether a key path holds a secret: everything under `secrets.`, and any key named like one. */
export function isSecretPath(path: KeyPath): boolean {
  return path[0] === 'secrets' || path.some((s) => secretName.test(s));
}

/** Whether one key name is named like a secret (isSecretPath of a path is true when any of its keys is). */
export function isSecretName(key: string): boolean {
  return secretName.test(key);
}

/** A value the user is meant to fill in (`<SECRET_KEY>`), which is not a secret itself. */
export function isPlaceholder(value: unknown): boolean {
  return typeof value === 'string' && /^<[A-Za-z0-9_ -]{1,60}>$/.test(value);
}

/** The placeholder shown for a secret the user must fill in. */
export const secretPlaceholders: Record<string, string> = {
  BLOB_STORAGE_S3_ACCESS_KEY: '<ACCESS_KEY>',
  BLOB_STORAGE_S3_SECRET_KEY: '<SECRET_KEY>',
  AZURE_ACCOUNT_KEY: '<ACCOUNT_KEY>',
};

/** Edit distance, for "did you mean" on short key names; lengths far apart are simply far. */
export function distance(a: string, b: string): number {
  return Math.abs(a.length - b.length) > 3 ? 99 : editDistance(a, b);
}

/**
 * What the generated command and a corrected line put in this key: the base64 of the JSON file, computed
 * by the shell. The chart copies this value into the Secret's `data` unencoded (configmap-secret.yaml of
 * the devtron-operator chart), and Secret data must be base64 — hence base64, as Devtron's docs show.
 */
export const gcpCredentialFromFile = "$(base64 < gcp-credentials.json | tr -d '\\n')";
