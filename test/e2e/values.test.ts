import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText, LIMITS } from '../fakes/slack-api.js';
import { postSigned } from '../support/slack-requests.js';
import { channel, eventually, requester, requestsHandled, signingSecret, startStack, type Stack } from '../support/stack.js';
import { upgradeFormSubmission } from '../support/upgrade-form.js';

describe('/platform values: check pasted values, and the upgrade command by modal', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack('values');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers a pasted helm command privately with each problem, its rule and the corrected flag, secrets redacted', async () => {
    const res = await stack.slash(`values check helm upgrade devtron devtron/devtron-operator --namespace devtroncd \\
  --set installer.modules=cicd \\
  --set configs.BLOB_STORAGE_PROVIDER=S3 --set configs.DEFAULT_CACHE_BUCKET=acme-cache --set configs.DEFAULT_BUILD_LOGS_BUCKET=acme-logs \\
  --set configs.DEFAULT_CACHE_BUCKET_REGION=us-east-1 --set configs.DEFAULT_CD_LOGS_BUCKET_REGION=us-east-1 \\
  --set secrets.BLOB_STORAGE_S3_ACCESS_KEY=AKIAZ7QFAKEKEYEXAMPLE`);
    expect(res.status).toBe(200);
    const body = res.json as { response_type: string; text: string; blocks: unknown };
    expect(body.response_type).toBe('ephemeral');
    expect(body.text).toBe('4 problems in this helm command');
    const text = blocksText(body.blocks);
    expect(text).toContain('`installer.modules`* is the string "cicd", not a list');
    expect(text).toContain('--set installer.modules={cicd}');
    expect(text).toContain('(2.2 rule 2)');
    expect(text).toContain("--set 'secrets.BLOB_STORAGE_S3_SECRET_KEY=&lt;SECRET_KEY&gt;'");
    expect(text).toContain('(2.2 rule 4)');
    expect(JSON.stringify(body)).not.toContain('AKIAZ7QFAKEKEYEXAMPLE');
  });

  it('says a clean YAML paste is clean, reading it as Slack escapes it', async () => {
    const res = await stack.slash('values check --iam-role ```installer:\n  modules: [cicd]\nconfigs:\n  BLOB_STORAGE_PROVIDER: S3\n  DEFAULT_CACHE_BUCKET: acme-cache\n  DEFAULT_CACHE_BUCKET_REGION: us-east-1\n  DEFAULT_BUILD_LOGS_BUCKET: acme-logs\n  DEFAULT_CD_LOGS_BUCKET_REGION: us-east-1\n  BLOB_STORAGE_S3_ENDPOINT_NOTE: &lt;none&gt;```');
    expect((res.json as { text: string }).text).toBe('No problems found in this values file: it follows sections 2.2 and 2.3 of the guide.');
  });

  it('opens the upgrade modal, refuses bad fields in place, and posts the exact command privately on submit', async () => {
    const res = await stack.slash('values upgrade');
    expect(res.status).toBe(200);
    const opened = await stack.fake.waitFor(() => stack.fake.calls('views.open')[0]);
    expect(opened).toMatchObject({ ok: true, args: { trigger_id: expect.any(String) } });
    const stored = stack.fake.views()[0]!;
    const view = stored.view as { title: { text: string }; callback_id: string; blocks: { block_id?: string }[]; private_metadata: string };
    expect(view.title.text.length).toBeLessThanOrEqual(LIMITS.modalTitle);
    expect(view.callback_id).toBe('values-upgrade');
    expect(view.blocks.map((b) => b.block_id).filter(Boolean)).toEqual(['provider', 'logsBucket', 'cacheBucket', 'logsRegion', 'cacheRegion', 'iamRole', 'endpoint', 'azureAccount', 'azureLogsContainer', 'azureCacheContainer', 'volumeSize']);
    expect(JSON.stringify(view.blocks)).not.toMatch(/secret key|access key|account key/i);

    const views = await requestsHandled(stack.eventsUrl, 'view');
    const bad = await postSigned(stack.eventsUrl, upgradeFormSubmission(stored.view, stored.id, { provider: 'S3', logsBucket: 'Acme_Logs', volumeSize: '20GB' }), { secret: signingSecret });
    expect(bad.status).toBe(200);
    expect(bad.json).toMatchObject({ response_action: 'errors', errors: { logsBucket: expect.stringContaining('not a bucket name'), cacheBucket: expect.any(String), volumeSize: expect.stringContaining('20Gi') } });
    // Once the bot is done with the refused submission, nothing was posted for it.
    await eventually(async () => (await requestsHandled(stack.eventsUrl, 'view')) > views, { what: 'the refused submission handled' });
    expect(stack.fake.ephemerals(requester)).toHaveLength(0);

    const fields = { provider: 'S3', logsBucket: 'acme-logs', cacheBucket: 'acme-cache', logsRegion: 'us-east-1', cacheRegion: 'us-east-1', iamRole: false, volumeSize: '20Gi' };
    const good = await postSigned(stack.eventsUrl, upgradeFormSubmission(stored.view, stored.id, fields), { secret: signingSecret });
    expect(good.status).toBe(200);
    expect(good.text).toBe('');
    const posted = await stack.fake.waitFor(() => stack.fake.ephemerals(requester).find((e) => e.source === 'chat.postEphemeral'));
    expect(posted.channel).toBe(channel);
    const text = blocksText(posted.blocks);
    expect(text).toContain('helm repo update\nhelm upgrade devtron devtron/devtron-operator --namespace devtroncd --reuse-values \\');
    expect(text).toContain('-f https://raw.githubusercontent.com/devtron-labs/devtron/main/charts/devtron/devtron-bom.yaml');
    expect(text).toContain('--set installer.modules={cicd}');
    expect(text).toContain("--set 'secrets.BLOB_STORAGE_S3_ACCESS_KEY=&lt;ACCESS_KEY&gt;'");
    expect(text).toContain('--set components.postgres.persistence.volumeSize=20Gi');
  });
});
