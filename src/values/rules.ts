import type { z } from 'zod';
import type { Fix, IssueParams, RuleRef } from './findings.js';
import { keys, keyText, secretPlaceholders, type KeyPath } from './keys.js';

/** What the rules read; the shape valuesCheckSchema has validated as far as it could (types may still be wrong). */
interface RulesInput {
  values: Record<string, unknown>;
  form: 'yaml' | 'set' | 'helm';
  helm?: { sub: 'upgrade' | 'install'; install: boolean; reuseValues: boolean; resetValues: boolean; namespace?: string; valuesFiles: string[] } | undefined;
  nodeIamRole?: boolean | undefined;
  s3Compatible?: boolean | undefined;
  platform: { namespace: string; release: string; bomUrl: string };
}

type Ctx = z.RefinementCtx<RulesInput>;

/** The value at a key path, or undefined. */
export function valueAt(tree: unknown, path: KeyPath): unknown {
  let at: unknown = tree;
  for (const s of path) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[s];
  }
  return at;
}

const present = (v: unknown): boolean => v !== undefined && v !== null && v !== '';
const set = (path: KeyPath, value: unknown): Fix => ({ kind: 'set', path, value });

function report(ctx: Ctx, path: KeyPath, message: string, rule: RuleRef, fix: Fix): void {
  const params: IssueParams = { rule, fix };
  ctx.addIssue({ code: 'custom', message, path: ['values', ...path], params: params as unknown as Record<string, unknown> });
}

function reportFlag(ctx: Ctx, flag: string, message: string, rule: RuleRef, fix: Fix): void {
  const params: IssueParams = { rule, fix, key: flag };
  ctx.addIssue({ code: 'custom', message, path: ['helm'], params: params as unknown as Record<string, unknown> });
}

/** Keys of a provider that must be given whenever the paste chooses that provider, with their placeholders. */
function requireKeys(ctx: Ctx, v: unknown, provider: string, needed: readonly (readonly [KeyPath, string])[]): void {
  for (const [path, placeholder] of needed) {
    if (!present(valueAt(v, path))) report(ctx, path, `is missing; ${provider} blob storage needs it`, '2.2 keys', set(path, placeholder));
  }
}

/** configs.* become the data of the ConfigMap devtron-operator-cm (toYaml), and ConfigMap data are strings. */
function configsAreStrings(ctx: Ctx, v: unknown): void {
  const configs = valueAt(v, ['configs']);
  if (typeof configs !== 'object' || configs === null || Array.isArray(configs)) return;
  for (const [k, val] of Object.entries(configs)) {
    if (typeof val === 'boolean' || typeof val === 'number') {
      report(ctx, ['configs', k], `is the ${typeof val} ${String(val)}; configs become the data of a ConfigMap, which holds only strings, so the API server refuses it (use --set-string, or quotes in YAML)`, '2.2 type', set(['configs', k], String(val)));
    }
  }
}

function s3Rules(ctx: Ctx, input: RulesInput): void {
  const v = input.values;
  const access = present(valueAt(v, keys.s3AccessKey));
  const secret = present(valueAt(v, keys.s3SecretKey));
  const endpoint = present(valueAt(v, keys.s3Endpoint));
  const bundled = valueAt(v, keys.localStore) === true;
  const compatible = input.s3Compatible === true || bundled || present(valueAt(v, keys.s3EndpointInsecure));
  const keyFix = (path: KeyPath) => set(path, secretPlaceholders[path[1]!]);

  if (input.nodeIamRole === true && !compatible && (access || secret)) {
    for (const [path, has] of [[keys.s3AccessKey, access], [keys.s3SecretKey, secret]] as const) {
      if (has) report(ctx, path, "must be left out: the nodes' IAM role carries the S3 policy, so the access and secret keys are omitted", '2.2 rule 1', { kind: 'remove', path });
    }
  } else if (access !== secret) {
    const missing = access ? keys.s3SecretKey : keys.s3AccessKey;
    report(ctx, missing, `is missing while ${keyText(access ? keys.s3AccessKey : keys.s3SecretKey)} is set; S3 with keys needs both secrets`, '2.2 rule 2', keyFix(missing));
  } else if (!access && !secret && (input.nodeIamRole === false || (compatible && !bundled))) {
    const why = compatible ? 'S3-compatible storage has no IAM role to rely on' : "the nodes' IAM role does not grant S3 access";
    for (const path of [keys.s3AccessKey, keys.s3SecretKey]) report(ctx, path, `is missing; ${why}, so both keys are set`, '2.2 rule 2', keyFix(path));
  }

  if (compatible && !endpoint) {
    const value = bundled ? `http://devtron-minio.${input.platform.namespace}:9000` : '<ENDPOINT>';
    const why = bundled
      ? 'minio.enabled=true with BLOB_STORAGE_PROVIDER=S3 points the platform at S3-compatible storage (the bundled store), and the chart fills in its endpoint only when no provider is set'
      : 'S3-compatible storage needs the endpoint of its S3 API';
    report(ctx, keys.s3Endpoint, `is missing; ${why}`, '2.2 rule 3', set(keys.s3Endpoint, value));
  }

  requireKeys(ctx, v, 'S3', [
    [keys.logsBucket, '<LOGS_BUCKET>'],
    [keys.cacheBucket, '<CACHE_BUCKET>'],
    // The regions say where AWS buckets live; S3-compatible storage has no regions to speak of.
    ...(compatible ? [] : ([[keys.logsRegion, '<REGION>'], [keys.cacheRegion, '<REGION>']] as const)),
  ]);
}

/** Rules 1–3 of 2.2, the keys each provider needs, and the types the chart demands. */
export function blobStorageRules(input: RulesInput, ctx: Ctx): void {
  const v = input.values;
  configsAreStrings(ctx, v);
  // `s3` is already reported as a bad value; the rules still apply to what was meant.
  const raw = valueAt(v, keys.provider);
  const provider = typeof raw === 'string' ? raw.trim().toUpperCase() : raw;
  switch (provider) {
    case 'S3':
      return s3Rules(ctx, input);
    case 'AZURE':
      return requireKeys(ctx, v, 'AZURE', [
        [keys.azureAccountName, '<ACCOUNT_NAME>'],
        [keys.azureAccountKey, '<ACCOUNT_KEY>'],
        [keys.azureLogsContainer, '<LOGS_CONTAINER>'],
        [keys.azureCacheContainer, '<CACHE_CONTAINER>'],
      ]);
    case 'GCP':
      return requireKeys(ctx, v, 'GCP', [
        [keys.gcpCredentials, "$(base64 < gcp-credentials.json | tr -d '\\n')"],
        [keys.logsBucket, '<LOGS_BUCKET>'],
        [keys.cacheBucket, '<CACHE_BUCKET>'],
      ]);
    case undefined: {
      // Provider keys without a provider: the platform falls back to S3 and ignores the Azure or GCP keys.
      const guess = present(valueAt(v, keys.azureAccountName)) || present(valueAt(v, keys.azureAccountKey)) ? 'AZURE' : present(valueAt(v, keys.gcpCredentials)) ? 'GCP' : undefined;
      if (guess && valueAt(v, keys.localStore) !== true) report(ctx, keys.provider, `is missing while ${guess} keys are set; without it the platform assumes S3`, '2.2 keys', set(keys.provider, guess));
      return;
    }
    default:
      return;
  }
}

const isBom = (file: string): boolean => /(?:^|\/)devtron-bom\.yaml$/.test(file);

/** Rule 4 of 2.2 and the fixed parts of entry 18's upgrade command. */
export function upgradeRules(input: RulesInput, ctx: Ctx): void {
  const { helm, form, platform } = input;
  const upgrade = form === 'set' || (form === 'helm' && helm?.sub === 'upgrade');
  if (upgrade && valueAt(input.values, keys.modules) === undefined) {
    report(ctx, keys.modules, 'is missing; the upgrade keeps installer.modules={cicd}, or the CI/CD module is dropped', '2.2 rule 4', set(keys.modules, ['cicd']));
  }
  if (form !== 'helm' || helm?.sub !== 'upgrade') return;
  if (!helm.reuseValues) reportFlag(ctx, '--reuse-values', 'is missing; the upgrade reuses the existing values, or every value set at install (storage, secrets) is reset to the chart default', '2.2 rule 4', { kind: 'addFlag', flag: '--reuse-values' });
  if (helm.resetValues) reportFlag(ctx, '--reset-values', 'throws away the existing values; the upgrade reuses them', '2.2 rule 4', { kind: 'dropFlag', flag: '--reset-values' });
  if (!helm.valuesFiles.some(isBom)) reportFlag(ctx, '-f', "lacks the repository values file (devtron-bom.yaml); entry 18's upgrade uses it", '7.18 upgrade', { kind: 'addFlag', flag: `-f ${platform.bomUrl}` });
  if (helm.namespace === undefined) {
    reportFlag(ctx, '--namespace', `is missing; helm would look for the release in the current context's namespace, not ${platform.namespace}`, '7.18 upgrade', { kind: 'addFlag', flag: `--namespace ${platform.namespace}` });
  } else if (helm.namespace !== platform.namespace) {
    reportFlag(ctx, '--namespace', `is ${helm.namespace}; the platform's release lives in ${platform.namespace}`, '7.18 upgrade', { kind: 'addFlag', flag: `--namespace ${platform.namespace}` });
  }
}

/** True when the S3 keys are absent, so the paste relies on rule 1 (the nodes' IAM role). */
export function reliesOnIamRole(values: unknown, s3Compatible: boolean | undefined): boolean {
  return (
    String(valueAt(values, keys.provider)).toUpperCase() === 'S3' &&
    !present(valueAt(values, keys.s3AccessKey)) &&
    !present(valueAt(values, keys.s3SecretKey)) &&
    !present(valueAt(values, keys.s3Endpoint)) &&
    valueAt(values, keys.localStore) !== true &&
    s3Compatible !== true
  );
}

