import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText } from '../fakes/slack-api.js';
import { postSigned } from '../support/slack-requests.js';
import { channel, requester, signingSecret, startStack, type Stack } from '../support/stack.js';
import { upgradeFormSubmission } from '../support/upgrade-form.js';

/** A `view_submission` of the upgrade modal as Slack sends it, with S3 fields that are all valid. */
const submission = (view: Record<string, unknown>, viewId: string): string =>
  upgradeFormSubmission(view, viewId, { provider: 'S3', logsBucket: 'acme-logs', cacheBucket: 'acme-cache', logsRegion: 'us-east-1', cacheRegion: 'us-east-1', iamRole: false, volumeSize: '20Gi' });

/**
 * `/platform values upgrade` works from any channel, the bot a member of it or not. When Slack refused to open
 * the form (an expired trigger, internal_error), or to show the finished command privately in the channel it was
 * asked from (a channel the bot is not in: channel_not_found), the bot only logged it: the person saw no form, or
 * pressed Submit, saw the form close and got nothing, with no word of what became of it.
 */
describe('the values upgrade form when Slack refuses to open it or to show its command', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('values-form-unposted');
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('tells the person the form did not open, why, and how to ask without it', async () => {
    stack.fake.failNext('views.open', 'internal_error');
    const res = await stack.slash('values upgrade', requester, { responseId: 'form-refused' });
    expect(res.status).toBe(200);
    const told = await stack.fake.waitFor((f) => f.responses('form-refused')[0], { what: 'a word on the form that did not open', timeoutMs: 10_000 }).catch(() => undefined);
    expect((told?.body as { text?: string } | undefined)?.text).toBe(
      'Slack did not open the upgrade form (internal_error); nothing was done. Type `/platform values upgrade` again, or give its flags: `/platform values upgrade --provider S3|AZURE|GCP|BUNDLED …`.',
    );
  });

  it('sends the finished command in a direct message when it cannot be shown in the channel it was asked from', async () => {
    const opened = stack.fake.views().length;
    await stack.slash('values upgrade');
    const stored = await stack.fake.waitFor(() => stack.fake.views()[opened], { what: 'the form' });
    stack.fake.failNext('chat.postEphemeral', 'channel_not_found');
    const res = await postSigned(stack.eventsUrl, submission(stored.view as Record<string, unknown>, stored.id), { secret: signingSecret });
    expect(res.status).toBe(200);
    const dm = await stack.fake.waitFor((f) => f.messages(requester)[0], { what: 'the command in a direct message', timeoutMs: 10_000 }).catch(() => undefined);
    expect(dm && blocksText(dm.blocks)).toContain('helm upgrade devtron devtron/devtron-operator --namespace devtroncd --reuse-values');
    expect(stack.fake.messages(channel)).toEqual([]);
  });
});
