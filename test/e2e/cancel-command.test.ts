/**
 * `/platform cancel <id>`: a remedy cancelled by its id, without its card. An approver may not see the card (its thread
 * is in a private channel they are not in, or the person asked in a direct message as an approver); the remedy would
 * hold its entry until its approval expired. The same rules as the card's Cancel button: the person who asked or an
 * approver of the cluster; the thread says it was cancelled.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approver, bystander, channel, requestIdOf, requester, startFix, startStack, type Stack } from '../support/stack.js';

describe('/platform cancel <id>', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('cancel-command', { approvers: [approver] });
    await stack.sim.break('build-logs');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** The answer to a slash command, as Slack shows it to the person alone (the acknowledgement's body). */
  async function answerTo(text: string, user: string): Promise<string> {
    const res = await stack.slash(text, user);
    expect(res.status).toBe(200);
    const body = res.json as { response_type?: string; text: string };
    expect(body.response_type ?? 'ephemeral').toBe('ephemeral');
    return body.text;
  }

  it('cancels for an approver, refuses a bystander, and says what an id must look like', async () => {
    const { rootTs, card } = await startFix(stack, 'build-logs');
    const id = requestIdOf(card);

    expect(await answerTo('cancel', requester)).toBe("Which remedy? Usage: `/platform cancel <id>`, with the remedy's id (r and ten letters or digits) from its thread or from `/platform status`.");
    expect(await answerTo('cancel build-logs', requester)).toBe("`build-logs` is not a remedy's id (r and ten letters or digits): its thread names it, and so does `/platform status`. Nothing was done.");
    expect(await answerTo(`cancel ${id}`, bystander)).toBe('Only the person who asked (<@U0REQUESTER>) or an approver of `sim` can cancel this remedy.');
    expect((await stack.bot.coordinator.store.get(id))?.status).toBe('awaiting-approval');

    expect(await answerTo(`cancel ${id}`, approver)).toBe(`Cancelled \`${id}\`: its thread says so, and nothing more of it runs.`);
    await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('🛑 Cancelled by <@U0APPROVER>')));
    expect((await stack.bot.coordinator.store.get(id))?.status).toBe('cancelled');
    expect(await answerTo(`cancel ${id}`, approver)).toBe('Nothing to cancel: the remedy is cancelled.');
  });
});
