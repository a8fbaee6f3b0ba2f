import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText } from '../fakes/slack-api.js';
import { bystander, eventually, requester, startStack, type Stack } from '../support/stack.js';

const backoff = 'Warning  BackoffLimitExceeded  job/postgresql-migrate-devtron  Job has reached the specified backoff limit';

describe('/platform status and what people asked privately', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('status-privacy', { hideMarkers: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('shows everyone the entry checked for a private `/platform match`, never who asked it', async () => {
    // Answered to the requester alone; its candidate is checked on the cluster (a doctor of that entry).
    const res = await stack.slash(`match ${backoff}`, requester, { responseId: 'private-match' });
    expect((res.json as { response_type: string }).response_type).toBe('ephemeral');
    await eventually(async () => (await stack.bot.coordinator.lastDoctor(['sim']))[0]?.rechecked.some((r) => r.id === 'install-jobs-failed'), { what: 'the entry checked for the match' });

    const seen = await stack.slash('status', bystander);
    const text = blocksText((seen.json as { blocks: unknown }).blocks);
    expect(text).toMatch(/• `install-jobs-failed` checked again \d{4}-\d\d-\d\d \d\d:\d\d UTC for a pasted error: not seen/);
    expect(text).not.toContain(`<@${requester}>`);
  });
});
