import { z } from 'zod';
import { defaultPlatformNames, type PlatformNames } from '../platform-names.js';
import { checkAzureAccount, checkAzureContainer, checkBucket, checkEndpoint, checkRegion, checkSize, type FormatVerdict } from './formats.js';
import { gcpCredentialSkeleton } from './gcp.js';
import { bomUrl, chartRef, defaultVolumeSize, setFlag } from './helm-command.js';
import { gcpCredentialFromFile, keys, type KeyPath } from './keys.js';

/** Kept here too for the modal and the round-trip tests, which build the rest of the command from this module. */
export { defaultVolumeSize, entry18UpgradeCommand } from './helm-command.js';

/** The providers the person can choose: the three of 2.2 and the bundled local store (`minio.enabled`). */
export const upgradeProviders = ['S3', 'AZURE', 'GCP', 'BUNDLED'] as const;
export type UpgradeProvider = (typeof upgradeProviders)[number];

const opt = z.string().trim().optional().transform((s) => (s === '' ? undefined : s));

/** What the modal and `values upgrade` ask for. Never a secret: those stay placeholders. */
export const upgradeRequestSchema = z.object({
  provider: z.enum(upgradeProviders, { error: 'choose S3, AZURE, GCP or BUNDLED' }),
  logsBucket: opt,
  cacheBucket: opt,
  logsRegion: opt,
  cacheRegion: opt,
  /** The nodes' IAM role carries an S3 policy: no keys (rule 1). */
  iamRole: z.boolean().default(false),
  /** S3-compatible storage (MinIO, Ceph): its endpoint (rule 3). */
  endpoint: opt,
  azureAccount: opt,
  azureLogsContainer: opt,
  azureCacheContainer: opt,
  volumeSize: opt.transform((s) => s ?? defaultVolumeSize),
});
export type UpgradeRequest = z.output<typeof upgradeRequestSchema>;
export type UpgradeRequestInput = z.input<typeof upgradeRequestSchema>;

/** Field name → what is wrong with it, for the modal's `response_action: 'errors'` and the CLI. */
export type FieldErrors = Partial<Record<keyof UpgradeRequest, string>>;

function need(errors: FieldErrors, field: keyof UpgradeRequest, value: string | undefined, check: (v: unknown) => FormatVerdict, what: string): void {
  if (value === undefined) {
    errors[field] = `${what} is needed for this provider`;
    return;
  }
  const verdict = check(value);
  if (!verdict.ok) errors[field] = `${what} ${verdict.problem}`.slice(0, 150);
}

/** The request's field errors for its provider (empty when it can be turned into a command). */
export function upgradeRequestErrors(r: UpgradeRequest): FieldErrors {
  const errors: FieldErrors = {};
  const size = checkSize(r.volumeSize);
  if (!size.ok) errors.volumeSize = size.problem;
  if (r.provider === 'S3' || r.provider === 'GCP') {
    need(errors, 'logsBucket', r.logsBucket, checkBucket, 'The logs bucket');
    need(errors, 'cacheBucket', r.cacheBucket, checkBucket, 'The cache bucket');
  }
  if (r.provider === 'S3') {
    if (r.endpoint !== undefined) need(errors, 'endpoint', r.endpoint, checkEndpoint, 'The endpoint');
    // AWS buckets live in regions; S3-compatible storage usually has none to give.
    if (r.endpoint === undefined) {
      need(errors, 'logsRegion', r.logsRegion, checkRegion, 'The logs bucket region');
      need(errors, 'cacheRegion', r.cacheRegion, checkRegion, 'The cache bucket region');
    }
    if (r.iamRole && r.endpoint !== undefined) errors.iamRole = "S3-compatible storage cannot use the nodes' IAM role: its keys are needed (rules 2 and 3)";
  }
  if (r.provider === 'AZURE') {
    need(errors, 'azureAccount', r.azureAccount, checkAzureAccount, 'The storage account name');
    need(errors, 'azureLogsContainer', r.azureLogsContainer, checkAzureContainer, 'The logs container');
    need(errors, 'azureCacheContainer', r.azureCacheContainer, checkAzureContainer, 'The cache container');
  }
  return errors;
}

/** The exact upgrade command: the shell lines to run, and any file to write first (the GCP credential). */
export interface UpgradeCommand {
  /** The file the person fills in before running the command (GCP only). */
  readonly file?: { readonly name: string; readonly content: string };
  /** The whole text to run: here-document (GCP), `helm repo update`, then the upgrade. */
  readonly script: string;
}

type Names = Pick<PlatformNames, 'platformNamespace' | 'installerReleaseName'>;

/** The `--set` pairs of a request, in the order Devtron's docs give them. */
function storageValues(r: UpgradeRequest): [KeyPath, unknown][] {
  switch (r.provider) {
    case 'BUNDLED':
      return [[keys.localStore, true]];
    case 'S3':
      return [
        [keys.provider, 'S3'],
        [keys.cacheBucket, r.cacheBucket],
        ...(r.cacheRegion ? [[keys.cacheRegion, r.cacheRegion] as [KeyPath, unknown]] : []),
        [keys.logsBucket, r.logsBucket],
        ...(r.logsRegion ? [[keys.logsRegion, r.logsRegion] as [KeyPath, unknown]] : []),
        ...(r.endpoint ? [[keys.s3Endpoint, r.endpoint] as [KeyPath, unknown]] : []),
        // Rule 1: a node IAM role with an S3 policy means no keys; otherwise both (rule 2).
        ...(r.iamRole
          ? []
          : ([
              [keys.s3AccessKey, '<ACCESS_KEY>'],
              [keys.s3SecretKey, '<SECRET_KEY>'],
            ] as [KeyPath, unknown][])),
      ];
    case 'AZURE':
      return [
        [keys.provider, 'AZURE'],
        [keys.azureAccountName, r.azureAccount],
        [keys.azureAccountKey, '<ACCOUNT_KEY>'],
        [keys.azureLogsContainer, r.azureLogsContainer],
        [keys.azureCacheContainer, r.azureCacheContainer],
      ];
    case 'GCP':
      return [
        [keys.provider, 'GCP'],
        [keys.gcpCredentials, gcpCredentialFromFile],
        [keys.cacheBucket, r.cacheBucket],
        [keys.logsBucket, r.logsBucket],
      ];
  }
}

/**
 * The upgrade command for the platform's chart (rule 4: reuse values, keep installer.modules={cicd};
 * entry 18: the repository values file and the database volume size), one flag per line.
 */
export function buildUpgradeCommand(r: UpgradeRequest, names: Names = defaultPlatformNames): UpgradeCommand {
  const flags = [
    `-f ${bomUrl}`,
    '--set installer.modules={cicd}',
    ...storageValues(r).map(([path, value]) => setFlag(path, value)),
    setFlag(keys.volumeSize, r.volumeSize),
  ];
  const upgrade = [`helm upgrade ${names.installerReleaseName} ${chartRef} --namespace ${names.platformNamespace} --reuse-values`, ...flags].join(' \\\n  ');
  if (r.provider !== 'GCP') return { script: `helm repo update\n${upgrade}` };
  const content = `${JSON.stringify(gcpCredentialSkeleton(), null, 2)}\n`;
  return {
    file: { name: 'gcp-credentials.json', content },
    script: `cat > gcp-credentials.json <<'EOF'\n${content}EOF\nhelm repo update\n${upgrade}`,
  };
}
