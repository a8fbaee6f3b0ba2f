import { describe, expect, it } from 'vitest';
import { valuesAnswer } from '../../src/views/slack/values.js';
import { checkValues } from '../../src/values/check.js';
import { valuesJson } from '../../src/commands/values-cli.js';
import { fixture } from './support.js';

const secrets = ['AKIAZ7QFAKEKEYEXAMPLE', 'q8Fz/2nV+Tm3kLr9XcY1bWp6HsDe0GfJuAiKoEXAMPLE', 'Zm9vYmFyQXp1cmVBY2NvdW50S2V5MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A=', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDfakeKEYmaterial', '3f1c2a9e8b7d6c5f4e3d2c1b0a998877', 'hunter2-db-pass'];

/** Every text an answer could show: the problems, the notes, the Slack blocks and the --json output. */
function everything(text: string, options = {}): string {
  const check = checkValues(text, options);
  return [JSON.stringify(check), JSON.stringify(valuesAnswer(check)), check.ok ? valuesJson(check) : ''].join('\n');
}

describe('secrets in a paste never appear in an answer', () => {
  it('in YAML files: keys under secrets, misplaced keys, and the GCP private key (raw or base64)', () => {
    const pastes = [
      fixture('s3-keys.yaml'),
      fixture('azure.yaml').replace('AZURE_BLOB_CONTAINER_CI_LOG: ci-log-container', 'AZURE_BLOB_CONTAINER_CI_LOG: Bad_Container'),
      fixture('gcp.yaml').replace('acme-devtron-logs', 'Acme_Logs'),
      fixture('gcp-raw-json.yaml'),
      `configs:\n  BLOB_STORAGE_S3_ACCESS_KEY: AKIAZ7QFAKEKEYEXAMPLE\n  BLOB_STORAGE_S3_SECRET_KEY: q8Fz/2nV+Tm3kLr9XcY1bWp6HsDe0GfJuAiKoEXAMPLE\n  BLOB_STORAGE_PROVIDER: S3\nsecrets:\n  POSTGRESQL_PASSWORD: hunter2-db-pass\n`,
    ];
    for (const paste of pastes) {
      const shown = everything(paste, { nodeIamRole: true });
      for (const s of secrets) expect(shown).not.toContain(s);
    }
  });

  it('in --set flags and helm commands, including a key the rules ask to remove and --password', () => {
    const paste = `helm upgrade devtron devtron/devtron-operator -n devtroncd --username bot --password hunter2-db-pass \\
  --set configs.BLOB_STORAGE_PROVIDER=S3 --set secrets.BLOB_STORAGE_S3_ACCESS_KEY=AKIAZ7QFAKEKEYEXAMPLE \\
  --set-string 'secrets.BLOB_STORAGE_S3_SECRET_KEY=q8Fz/2nV+Tm3kLr9XcY1bWp6HsDe0GfJuAiKoEXAMPLE' \\
  --set 'configs.AZURE_ACCOUNT_KEY=Zm9vYmFyQXp1cmVBY2NvdW50S2V5MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A='`;
    const shown = everything(paste, { nodeIamRole: true });
    expect(shown).toContain('remove --set secrets.BLOB_STORAGE_S3_ACCESS_KEY=…');
    for (const s of secrets) expect(shown).not.toContain(s);
  });
});
