import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { approveButton, denyButton } from '../../src/handlers/actions/remedy-buttons.js';
import { platformCommand } from '../../src/handlers/commands/platform.js';
import { pastedMessage } from '../../src/handlers/messages/index.js';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { listenerDeps, recorder } from '../support/listener-deps.js';
import { blockActionsPayload, slashCommandPayload } from '../support/slack-requests.js';
import { approver, bystander, channel, endRemedy, FAKE_WORKSPACE, jobsOf, requestIdOf, requester, startStack, type Stack } from '../support/stack.js';

/**
 * The Slack listeners called as Bolt calls them, with injected `ack` and `respond` (as Bolt's starter
 * template tests its listeners) and the real parts behind them: Redis, the coordinator, a worker and
 * the simulated cluster. Each test reads what the listener acknowledged, answered and posted.
 */
type CommandArgs = Parameters<ReturnType<typeof platformCommand>>[0];
type ActionArgs = Parameters<ReturnType<typeof approveButton>>[0];
type MessageArgs = Parameters<ReturnType<typeof pastedMessage>>[0];

const hasButton = (m: StoredMessage, prefix: string) => JSON.stringify(m.blocks ?? []).includes(`"action_id":"${prefix}`);
const ackText = (r: ReturnType<typeof recorder>) => (r.acks[0] as { text?: string } | undefined)?.text;
const ackBlocks = (r: ReturnType<typeof recorder>) => blocksText((r.acks[0] as { blocks?: unknown } | undefined)?.blocks);

describe('the Slack listeners, called with injected ack, respond and payloads', () => {
  let stack: Stack;
  let wiring: ReturnType<typeof listenerDeps>;
  const opened: string[] = [];

  beforeAll(async () => {
    stack = await startStack('listeners');
    wiring = listenerDeps(stack);
  });
  afterEach(async () => {
    for (const id of opened.splice(0)) await endRemedy(stack, id);
  });
  afterAll(async () => {
    await wiring?.close();
    await stack?.stop();
  });

  /** Calls the /platform listener as `user` with `text`; resolves once it has returned. */
  async function platform(text: string, user = requester): Promise<ReturnType<typeof recorder>> {
    const slack = recorder();
    const command = slashCommandPayload({ text, user_id: user, channel_id: channel, response_url: stack.fake.responseUrl(`listener-${Math.random()}`, { channel, user }) });
    await platformCommand(wiring.deps)({ command, body: command, ack: slack.ack, respond: slack.respond } as unknown as CommandArgs);
    return slack;
  }

  /** Clicks a card's button through the listener `listener` as `user`; resolves once it has returned. */
  async function click(listener: typeof approveButton, card: StoredMessage, prefix: string, user: string, value?: string): Promise<ReturnType<typeof recorder>> {
    const slack = recorder();
    const button = (card.blocks ?? [])
      .filter((b) => b.type === 'actions')
      .flatMap((b) => (b as unknown as { block_id: string; elements: { action_id: string; value: string }[] }).elements.map((e) => ({ block: b.block_id as string, ...e })))
      .find((e) => e.action_id.startsWith(prefix))!;
    const body = blockActionsPayload({
      user,
      channel,
      message_ts: card.ts,
      ...(card.thread_ts ? { thread_ts: card.thread_ts } : {}),
      action_id: button.action_id,
      value: value ?? button.value,
      block_id: button.block,
      response_url: stack.fake.responseUrl(`listener-click-${Math.random()}`, { channel, user }),
      message: { text: card.text, blocks: card.blocks },
    });
    await listener(wiring.deps)({ body, action: body.actions[0], ack: slack.ack, respond: slack.respond } as unknown as ActionArgs);
    return slack;
  }

  /** Given a fix asked for through the listener, the approval card the worker's plan produced. */
  async function cardAwaitingApproval(): Promise<{ rootTs: string; card: StoredMessage; requestId: string }> {
    await stack.sim.break('git-sensor-stuck');
    const before = new Set(stack.fake.messages(channel).map((m) => m.ts));
    const asked = await platform('fix git-sensor-stuck');
    // The fix is acknowledged at once with nothing to show; the public root message is the answer.
    expect(asked.acks).toEqual([undefined]);
    expect(asked.responses).toEqual([]);
    const root = stack.fake.messages(channel).find((m) => !m.thread_ts && !before.has(m.ts));
    expect(root?.text).toContain(`<@${requester}> asked to fix`);
    const card = await stack.fake.waitFor((f) => f.thread(channel, root!.ts).find((m) => hasButton(m, 'remedy-approve')), { what: 'the approval card', timeoutMs: 15_000 });
    const requestId = requestIdOf(card);
    opened.push(requestId);
    return { rootTs: root!.ts, card, requestId };
  }

  const posts = () => stack.fake.calls().filter((c) => c.method.startsWith('chat.')).length;

  describe('/platform', () => {
    it('answers help in the acknowledgement, privately, and posts nothing', async () => {
      const before = posts();
      const slack = await platform('help');
      expect(slack.acks).toHaveLength(1);
      expect(slack.acks[0]).toMatchObject({ response_type: 'ephemeral', text: 'platform-medic help' });
      expect(ackBlocks(slack)).toContain('/platform fix <id> [cluster]');
      expect(slack.responses).toEqual([]);
      expect(posts()).toBe(before);
    });

    it('answers an unknown command with what to type instead, and the help', async () => {
      const slack = await platform('frobnicate now');
      expect(slack.acks[0]).toMatchObject({ response_type: 'ephemeral', text: 'Unknown command `frobnicate`. Try `/platform help`.' });
      expect(ackBlocks(slack)).toContain('/platform fix <id> [cluster]');
      expect(slack.responses).toEqual([]);
    });

    it('answers a fix of an unknown entry with the closest ids, and starts nothing', async () => {
      const before = { posts: posts(), jobs: (await stack.queue.getJobs(['waiting', 'active', 'delayed', 'completed'])).length };
      const slack = await platform('fix build-log');
      expect(slack.acks[0]).toMatchObject({ response_type: 'ephemeral' });
      expect(ackText(slack)).toMatch(/^There is no remedy `build-log`\. Closest: build-logs\./);
      expect(ackBlocks(slack)).toContain('`build-logs`');
      expect(slack.responses).toEqual([]);
      expect(posts()).toBe(before.posts);
      expect((await stack.queue.getJobs(['waiting', 'active', 'delayed', 'completed'])).length).toBe(before.jobs);
    });

    it('answers a fix on a cluster that is not configured with the clusters there are, and starts nothing', async () => {
      const before = posts();
      const slack = await platform('fix build-logs prod-us');
      const sentence = 'There is no cluster `prod-us`. Configured clusters: `sim`.';
      expect(slack.acks).toHaveLength(1);
      expect(slack.acks[0]).toMatchObject({ response_type: 'ephemeral', text: sentence });
      expect(blocksText((slack.acks[0] as { blocks?: unknown[] }).blocks ?? [])).toBe(sentence);
      expect(slack.responses).toEqual([]);
      expect(posts()).toBe(before);
    });

    it('acknowledges a fix at once, posts its root message and, once planned, the approval card', async () => {
      const { card } = await cardAwaitingApproval();
      expect(blocksText(card.blocks)).toContain('delete Pod `devtroncd/git-sensor-0`');
    });
  });

  describe('the approval card buttons', () => {
    it("refuses a bystander's Approve privately, leaves the card as it was and queues no run", async () => {
      const { rootTs, card, requestId } = await cardAwaitingApproval();
      const slack = await click(approveButton, card, 'remedy-approve', bystander);
      expect(slack.acks).toEqual([undefined]);
      expect(slack.responses).toEqual([{ response_type: 'ephemeral', replace_original: false, text: 'Only the approvers of cluster `sim` can approve this: <@U0APPROVER>, <@U0APPROVER2>.' }]);
      // The listener has returned: the decision is taken, and it changed nothing.
      expect(stack.thread(rootTs).find((m) => m.ts === card.ts)!.blocks).toEqual(card.blocks);
      expect((await stack.bot.coordinator.store.get(requestId))?.status).toBe('awaiting-approval');
      expect((await jobsOf(stack, requestId)).filter((j) => j.name === 'run')).toEqual([]);
      expect((await stack.bot.coordinator.audit.latest(5)).find((r) => r.requestId === requestId && r.action === 'approval-refused')?.who).toBe(bystander);
    });

    it("refuses a bystander's Deny privately and leaves the remedy awaiting approval", async () => {
      const { card, requestId } = await cardAwaitingApproval();
      const slack = await click(denyButton, card, 'remedy-deny', bystander);
      expect(slack.acks).toEqual([undefined]);
      expect(slack.responses).toEqual([{ response_type: 'ephemeral', replace_original: false, text: 'Only the person who asked (<@U0REQUESTER>) or an approver of `sim` can deny this plan.' }]);
      expect((await stack.bot.coordinator.store.get(requestId))?.status).toBe('awaiting-approval');
    });

    it('answers a malformed button privately and does nothing', async () => {
      const { card, requestId } = await cardAwaitingApproval();
      const slack = await click(approveButton, card, 'remedy-approve', approver, '{"r":1}');
      expect(slack.responses).toEqual([{ response_type: 'ephemeral', replace_original: false, text: 'This button is malformed; nothing was done.' }]);
      expect((await stack.bot.coordinator.store.get(requestId))?.status).toBe('awaiting-approval');
    });
  });

  describe('a pasted message', () => {
    let seq = 0;
    /** Calls the message listener with a message event as Slack delivers it; resolves with its ts once the listener returned. */
    async function paste(text: string, options: { user?: string; eventId?: string; ts?: string; extra?: Record<string, unknown> } = {}): Promise<string> {
      const ts = options.ts ?? `${1_796_000_000 + ++seq}.000100`;
      const message = { type: 'message', channel, channel_type: 'channel', user: options.user ?? `U0LISTENPASTE${seq}`, text, ts, event_ts: ts, ...options.extra };
      const body = { type: 'event_callback', team_id: FAKE_WORKSPACE.teamId, api_app_id: FAKE_WORKSPACE.appId, event: message, event_id: options.eventId ?? `Ev0LISTEN${seq}`, event_time: Math.floor(Date.now() / 1000) };
      await pastedMessage(wiring.deps)({ message, body, event: message, payload: message } as unknown as MessageArgs);
      return ts;
    }
    const replies = (ts: string) => stack.fake.messages(channel).filter((m) => m.thread_ts === ts);

    it('answers a pasted error in its thread with the matching entry and a Plan fix button', async () => {
      const ts = await paste('git-sensor: fatal: could not read Username: exit status 128');
      const [answer, ...more] = replies(ts);
      expect(more).toEqual([]);
      expect(blocksText(answer?.blocks)).toContain('`commits-exit-128`');
      expect(hasButton(answer!, 'match-plan-fix')).toBe(true);
    });

    it('reads the paste as the person typed it: a mention before it is no part of it, and Slack\'s escapes are undone once', async () => {
      const mentioned = await paste('<@U0MEDIC> devtron build logs not visible');
      expect(blocksText(replies(mentioned)[0]?.blocks)).toContain('`build-logs`');
      const page = await paste('chart upload through the devtron ingress: &lt;title&gt;413 Request Entity Too Large&lt;/title&gt;');
      const shown = JSON.stringify(replies(page)[0]?.blocks ?? []);
      expect(shown).toContain('`upload-too-large`');
      // Slack shows `&lt;` as "<": escaped once, the evidence reads <title>; escaped twice, it would read &lt;title&gt;.
      expect(shown).toContain('&lt;title&gt;413');
      expect(shown).not.toContain('&amp;lt;');
    });

    it('stays silent on chatter, on bots and on edits', async () => {
      const before = posts();
      await paste('thanks, that worked! lunch at 12?');
      await paste('git-sensor: fatal: could not read Username: exit status 128', { extra: { bot_id: 'B0OTHERBOT' } });
      await paste('git-sensor: fatal: could not read Username: exit status 128', { extra: { subtype: 'message_changed' } });
      expect(posts()).toBe(before);
    });

    it('answers an event Slack delivers twice once', async () => {
      const ts = `${1_796_100_000 + ++seq}.000100`;
      const user = 'U0LISTENTWICE';
      await paste('git-sensor: fatal: could not read Username: exit status 128', { ts, user, eventId: 'Ev0LISTENTWICE' });
      await paste('git-sensor: fatal: could not read Username: exit status 128', { ts, user, eventId: 'Ev0LISTENTWICE' });
      expect(replies(ts)).toHaveLength(1);
    });
  });
});
