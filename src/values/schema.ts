import { z } from 'zod';
import type { RuleRef } from './findings.js';
import {
  checkAzureAccount,
  checkAzureContainer,
  checkBucket,
  checkEndpoint,
  checkRegion,
  checkSize,
  type FormatVerdict,
} from './formats.js';
import { checkGcpCredential } from './gcp.js';
import { blobStorageRules, upgradeRules } from './rules.js';

/** The blob storage providers of 2.2. */
export const providers = ['S3', 'AZURE', 'GCP'] as const;
export type Provider = (typeof providers)[number];

/**
 * A value checked by one of the format checkers; a failure becomes an issue carrying the rule and, when
 * the intent is clear, the corrected value. Undefined passes: whether a key is required is a rule's call.
 */
function formatted(check: (v: unknown) => FormatVerdict, rule: RuleRef) {
  return z.unknown().superRefine((value, ctx) => {
    if (value === undefined || value === null) return;
    const verdict = check(value);
    if (!verdict.ok) ctx.addIssue({ code: 'custom', message: verdict.problem, params: { rule, ...(verdict.corrected !== undefined ? { corrected: verdict.corrected } : {}) } });
  }).optional();
}

/** installer.modules: a list holding `cicd` (rule 4). `cicd` alone is a string, the usual slip with --set. */
function checkModules(value: unknown): FormatVerdict {
  if (Array.isArray(value)) {
    return value.includes('cicd') ? { ok: true } : { ok: false, problem: `lacks cicd; the upgrade keeps installer.modules={cicd}`, corrected: [...value.filter((m) => typeof m === 'string'), 'cicd'] };
  }
  if (typeof value === 'string') return { ok: false, problem: `is the string "${value.slice(0, 40)}", not a list; with --set the braces make the list: {cicd}`, corrected: value.includes('cicd') ? ['cicd'] : [value, 'cicd'] };
  return { ok: false, problem: 'must be a list such as {cicd}', corrected: ['cicd'] };
}

/** A secret of 2.2: a non-empty string. Its value is never repeated in a message. */
const secretString = z.string({ error: 'must be a string' }).min(1, { error: 'is empty' }).optional();

/**
 * The installer values of section 2.2, with the real chart's key names. Other keys of the chart pass
 * through unchecked (the chart has many more); the 2.2 keys are checked for type and format.
 */
export const installerValuesSchema = z.looseObject({
  installer: z.looseObject({ modules: formatted(checkModules, '2.2 rule 4') }).optional(),
  components: z
    .looseObject({
      postgres: z.looseObject({ persistence: z.looseObject({ volumeSize: formatted(checkSize, '2.2 format') }).optional() }).optional(),
    })
    .optional(),
  minio: z
    .looseObject({
      enabled: z
        .boolean({ error: 'must be true or false, not a string: the chart tests it for truth, and any non-empty string (even "false") is true' })
        .optional(),
    })
    .optional(),
  configs: z
    .looseObject({
      BLOB_STORAGE_PROVIDER: z.enum(providers, { error: 'must be S3, AZURE or GCP, in capitals' }).optional(),
      DEFAULT_CACHE_BUCKET: formatted(checkBucket, '2.2 format'),
      DEFAULT_CACHE_BUCKET_REGION: formatted(checkRegion, '2.2 format'),
      DEFAULT_BUILD_LOGS_BUCKET: formatted(checkBucket, '2.2 format'),
      DEFAULT_CD_LOGS_BUCKET_REGION: formatted(checkRegion, '2.2 format'),
      BLOB_STORAGE_S3_ENDPOINT: formatted(checkEndpoint, '2.2 format'),
      AZURE_ACCOUNT_NAME: formatted(checkAzureAccount, '2.2 format'),
      AZURE_BLOB_CONTAINER_CI_LOG: formatted(checkAzureContainer, '2.2 format'),
      AZURE_BLOB_CONTAINER_CI_CACHE: formatted(checkAzureContainer, '2.2 format'),
    })
    .optional(),
  secrets: z
    .looseObject({
      BLOB_STORAGE_S3_ACCESS_KEY: secretString,
      BLOB_STORAGE_S3_SECRET_KEY: secretString,
      AZURE_ACCOUNT_KEY: secretString,
      BLOB_STORAGE_GCP_CREDENTIALS_JSON: formatted(checkGcpCredential, '2.2 format'),
    })
    .optional(),
});

/** Installer values as section 2.2 describes them. */
export type InstallerValues = z.infer<typeof installerValuesSchema>;

/** The helm command around the values, when the paste was one: what rule 4 and entry 18 look at. */
export const helmCommandSchema = z.object({
  sub: z.enum(['upgrade', 'install']),
  /** `helm upgrade --install` */
  install: z.boolean(),
  reuseValues: z.boolean(),
  resetValues: z.boolean(),
  namespace: z.string().optional(),
  release: z.string().optional(),
  chart: z.string().optional(),
  valuesFiles: z.array(z.string()),
});
export type HelmCommand = z.infer<typeof helmCommandSchema>;

/**
 * Everything a check looks at: the values; how they were pasted; the helm command around them; what the
 * person told us that the values cannot (whether the nodes' IAM role grants S3 access, whether the
 * storage is S3-compatible); and the platform's names. Rules 1–4 are refinements of this object, so they
 * run even when a value already failed its type (their messages carry the rule numbers).
 */
export const valuesCheckSchema = z
  .object({
    values: installerValuesSchema,
    form: z.enum(['yaml', 'set', 'helm']),
    helm: helmCommandSchema.optional(),
    nodeIamRole: z.boolean().optional(),
    s3Compatible: z.boolean().optional(),
    platform: z.object({ namespace: z.string(), release: z.string(), bomUrl: z.string() }),
  })
  .superRefine(blobStorageRules, { when: () => true })
  .superRefine(upgradeRules, { when: () => true });

/** The input of valuesCheckSchema. */
export type ValuesCheckInput = z.input<typeof valuesCheckSchema>;
