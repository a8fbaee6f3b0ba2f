import { describe, expect, it } from 'vitest';
import { catalogue } from '../../src/catalogue/index.js';
import { checkValues } from '../../src/values/check.js';
import { readPaste } from '../../src/values/paste.js';
import { installerValuesSchema } from '../../src/values/schema.js';
import { buildUpgradeCommand, entry18UpgradeCommand, upgradeRequestErrors, upgradeRequestSchema, type UpgradeRequestInput } from '../../src/values/upgrade.js';

const requests: Record<string, UpgradeRequestInput> = {
  'S3 with a node IAM role': { provider: 'S3', logsBucket: 'acme-logs', cacheBucket: 'acme-cache', logsRegion: 'us-east-1', cacheRegion: 'us-east-1', iamRole: true },
  'S3 with keys': { provider: 'S3', logsBucket: 'acme-logs', cacheBucket: 'acme-cache', logsRegion: 'eu-west-1', cacheRegion: 'eu-west-1' },
  'S3-compatible (MinIO)': { provider: 'S3', logsBucket: 'ci-logs', cacheBucket: 'ci-cache', endpoint: 'https://minio.storage.internal:9000' },
  AZURE: { provider: 'AZURE', azureAccount: 'acmedevtron', azureLogsContainer: 'ci-log-container', azureCacheContainer: 'ci-cache-container' },
  GCP: { provider: 'GCP', logsBucket: 'acme-logs', cacheBucket: 'acme-cache' },
  'the bundled store': { provider: 'BUNDLED' },
};

describe('the generated upgrade command, read back by our own parser', () => {
  for (const [name, input] of Object.entries(requests)) {
    it(`is clean against the schema and rules 1–4, for ${name}`, () => {
      const request = upgradeRequestSchema.parse(input);
      expect(upgradeRequestErrors(request)).toEqual({});
      const { script } = buildUpgradeCommand(request);
      const pasted = readPaste(script);
      if ('error' in pasted) throw new Error(pasted.error);
      expect(pasted.helm).toMatchObject({ sub: 'upgrade', release: 'devtron', chart: 'devtron/devtron-operator', namespace: 'devtroncd', reuseValues: true });
      expect(installerValuesSchema.safeParse(pasted.values).success).toBe(true);
      expect(pasted.values).toMatchObject({ installer: { modules: ['cicd'] }, components: { postgres: { persistence: { volumeSize: '20Gi' } } } });
      const check = checkValues(script, { nodeIamRole: request.iamRole, s3Compatible: request.endpoint !== undefined });
      expect(check).toMatchObject({ ok: true, problems: [] });
    });
  }

  it('leaves every secret a placeholder, and decodes the GCP skeleton the command encodes', () => {
    const s3 = buildUpgradeCommand(upgradeRequestSchema.parse(requests['S3 with keys'])).script;
    expect(s3).toContain("--set 'secrets.BLOB_STORAGE_S3_ACCESS_KEY=<ACCESS_KEY>'");
    expect(s3).toContain("--set 'secrets.BLOB_STORAGE_S3_SECRET_KEY=<SECRET_KEY>'");
    expect(buildUpgradeCommand(upgradeRequestSchema.parse(requests.AZURE)).script).toContain("--set 'secrets.AZURE_ACCOUNT_KEY=<ACCOUNT_KEY>'");
    const gcp = buildUpgradeCommand(upgradeRequestSchema.parse(requests.GCP));
    const pasted = readPaste(gcp.script);
    if ('error' in pasted) throw new Error(pasted.error);
    const encoded = (pasted.values.secrets as Record<string, string>).BLOB_STORAGE_GCP_CREDENTIALS_JSON!;
    expect(JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'))).toMatchObject({ type: 'service_account', private_key: '<PRIVATE_KEY>' });
  });

  it('refuses a modal or CLI request that lacks what its provider needs', () => {
    expect(upgradeRequestErrors(upgradeRequestSchema.parse({ provider: 'S3', logsBucket: 'Bad_Bucket' }))).toMatchObject({
      logsBucket: expect.stringContaining('not a bucket name'),
      cacheBucket: 'The cache bucket is needed for this provider',
      logsRegion: 'The logs bucket region is needed for this provider',
    });
    expect(upgradeRequestErrors(upgradeRequestSchema.parse({ provider: 'AZURE', azureAccount: 'Acme-Store', volumeSize: '20GB' }))).toMatchObject({
      azureAccount: expect.stringContaining('3–24 lower-case'),
      volumeSize: expect.stringContaining('20Gi'),
    });
  });
});

describe("entry 18's checklist", () => {
  it('shows the exact upgrade command, with the database volume size, and it checks clean', () => {
    const entry = catalogue.find((e) => e.id === 'upgrade-cannot-patch-database')!;
    const manual = entry.stages.flatMap((s) => s.steps).find((s) => s.kind === 'manual') as { items: readonly string[] } | undefined;
    const command = entry18UpgradeCommand();
    expect(manual!.items.join('\n')).toContain(command);
    expect(command).toBe(
      [
        'helm repo update',
        'helm upgrade devtron devtron/devtron-operator --namespace devtroncd --reuse-values \\',
        '  -f https://raw.githubusercontent.com/devtron-labs/devtron/main/charts/devtron/devtron-bom.yaml \\',
        '  --set installer.modules={cicd} \\',
        '  --set components.postgres.persistence.volumeSize=20Gi',
      ].join('\n'),
    );
    expect(checkValues(command)).toMatchObject({ ok: true, problems: [], notes: [] });
    expect(entry18UpgradeCommand({ platformNamespace: 'platform', installerReleaseName: 'medic' })).toContain('helm upgrade medic devtron/devtron-operator --namespace platform');
  });
});
