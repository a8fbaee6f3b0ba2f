import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approver, channel, startStack, type Stack } from '../support/stack.js';

const secretRef = { group: '', version: 'v1', plural: 'secrets' };

describe('the admin password (5.1) asked for while two bot replicas run, as Socket Mode deployments are advised to', () => {
  let stack: Stack;
  const passwordOf = () => Buffer.from((stack.sim.get(secretRef, 'devtroncd', 'devtron-secret') as { data: Record<string, string> }).data['ADMIN_PASSWORD']!, 'base64').toString('utf8');
  /** Root messages of admin-password remedies that have ended, however. */
  const ended = () => stack.fake.messages(channel).filter((m) => (m.thread_ts ?? m.ts) === m.ts && m.text.includes('`admin-password`') && /✅|❌/.test(m.text));

  beforeAll(async () => {
    stack = await startStack('reveal-replicas');
    await stack.startSecondBot();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('is shown to the approver who asked every time, whichever replica reads the worker\'s sealed answer', async () => {
    const password = passwordOf();
    const asks = 6;
    for (let i = 1; i <= asks; i++) {
      const res = await stack.slash('fix admin-password', approver);
      expect(res.status).toBe(200);
      await stack.fake.waitFor(() => ended().length >= i || undefined, { what: `admin-password remedy ${i} ended`, timeoutMs: 20_000 });
    }
    const shown = stack.fake.ephemerals(approver).filter((e) => e.text.includes(password));
    const lost = stack.fake.messages(channel).filter((m) => m.text.includes('no longer holds the key'));
    expect(lost.map((m) => m.text)).toEqual([]);
    expect(shown).toHaveLength(asks);
  });
});
