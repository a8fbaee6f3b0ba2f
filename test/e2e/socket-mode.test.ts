/**
 * The bot without a public address: started with SLACK_APP_TOKEN, it opens a Socket Mode connection
 * to the fake Slack (apps.connections.open, then the WebSocket and its `hello`) and everything
 * arrives as envelopes over it. The same path as fix-build-logs.test.ts, plus what only Socket Mode
 * has: envelopes Slack delivers again, and connections Slack recycles or loses.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJobId } from '../../src/jobs/names.js';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { deliver, interactionPayload, slashPayload } from '../support/slack-envelopes.js';
import { blockActionsBody, slashCommandBody } from '../support/slack-requests.js';
import { approver, channel, requester, startStack, type Stack } from '../support/stack.js';

const core = { group: '', version: 'v1', plural: 'pods' };
const hasButton = (m: StoredMessage, prefix: string) =>
  (m.blocks ?? []).some((b) => b.type === 'actions' && (b as unknown as { elements: { action_id: string }[] }).elements.some((e) => e.action_id.startsWith(prefix)));
const uidsOf = (stack: Stack, selector: string) => stack.sim.list(core, 'devtroncd', selector).map((p) => String(p.metadata?.uid)).sort();

/** Root messages the bot posted for `entry` (one per request it took); Slack gives a parent its own ts as thread_ts. */
const rootsFor = (stack: Stack, entry: string) => stack.fake.messages(channel).filter((m) => (m.thread_ts ?? m.ts) === m.ts && m.text.includes(`(\`${entry}\``));

/** A `/platform …` slash command as a Socket Mode payload; `responseId` names its response URL. */
function command(stack: Stack, text: string, responseId = `socket-${Math.random()}`): Record<string, string> {
  return slashPayload(slashCommandBody({ text, user_id: requester, channel_id: channel, response_url: stack.fake.responseUrl(responseId, { channel, user: requester }) }));
}

/** Waits until the bot holds a new connection (its `hello` sent) after `count` connections were opened. */
async function reconnected(stack: Stack, count: number): Promise<number> {
  const hub = stack.fake.socketMode;
  return stack.fake.waitFor(() => hub.connections.length > count && hub.openConnections().at(-1), { what: 'the bot to open a new Socket Mode connection', timeoutMs: 20_000 });
}

describe('Socket Mode: the bot behind a firewall, driven over a WebSocket', () => {
  let stack: Stack;
  let rootTs: string;
  let botLog = '';

  beforeAll(async () => {
    // At the most verbose level, the Socket Mode client would log every envelope and acknowledgement.
    const botLogStream = new Writable({ write: (chunk: Buffer, _e, cb) => ((botLog += chunk.toString()), cb()) });
    stack = await startStack('socket-mode', { socketMode: true, botLog: botLogStream, env: { LOG_LEVEL: 'trace' } });
    await stack.sim.break('build-logs');
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('connects with the app-level token: apps.connections.open, then a WebSocket that got hello', () => {
    // The first is the start-up check of the token (its address is left unopened), the second the socket client's.
    const opens = stack.fake.calls('apps.connections.open');
    expect(opens).toHaveLength(2);
    expect(opens).toMatchObject([{ ok: true }, { ok: true }]);
    expect(stack.fake.socketMode.openConnections()).toEqual([1]);
    // No signing secret was configured: nothing of the HTTP receiver runs.
    expect(stack.config.slack.signingSecret).toBeUndefined();
  });

  it('answers /platform fix build-logs: acknowledged within Slack\'s 3 s, root message and approval card', async () => {
    const res = await stack.slash('fix build-logs');
    expect(res.status).toBe(200);
    const ack = stack.fake.socketMode.acks.at(-1)!;
    expect(ack.ms).toBeLessThan(3_000);

    const root = await stack.fake.waitFor(() => rootsFor(stack, 'build-logs')[0], { what: 'root message' });
    rootTs = root.ts;
    expect(root.text).toContain(`<@${requester}> asked to fix *Build logs not visible and build cannot be aborted* (\`build-logs\`, guide 7.4) on cluster \`sim\``);
    const card = await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => hasButton(m, 'remedy-approve')), { what: 'approval card', timeoutMs: 15_000 });
    expect(blocksText(card.blocks)).toContain('2. Delete the main platform pods and the build-event watcher pods so that they start again* — restart');
  });

  it('runs the remedy after an Approve click sent as an interactive envelope, with progress and outcome in the thread', async () => {
    const before = uidsOf(stack, 'app=kubewatch');
    const card = stack.thread(rootTs).find((m) => hasButton(m, 'remedy-approve'))!;
    const { response, responseId } = await stack.click(card, 'remedy-approve', approver);
    expect(response.status).toBe(200);
    // Slack delivers the click again (its acknowledgement was lost): acknowledged, not answered again.
    const click = stack.fake.socketMode.envelopes.at(-1)!;
    const again = await deliver(stack.fake, 'interactive', click.payload, { envelopeId: click.envelope_id, retryAttempt: 1 });
    expect(again.ack.payload).toBeUndefined();

    const question = await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => hasButton(m, 'remedy-choose')), { what: 'decision question', timeoutMs: 20_000 });
    const thread = stack.thread(rootTs).map((m) => m.text).join('\n');
    expect(thread).toContain('✅ Step 2 of 4: Deleted 2 pod(s); replacements are Ready with new uids.');
    expect(thread).toContain('⏳ Step 3 of 4: Waiting 0.3 s');
    expect(uidsOf(stack, 'app=kubewatch')).not.toEqual(before);
    expect(stack.thread(rootTs).filter((m) => m.text.startsWith('Approved by'))).toHaveLength(1);
    expect(stack.fake.responses(responseId)).toEqual([]);

    await stack.click(question, 'remedy-choose-fixed', requester);
    const end = await stack.fake.waitFor((f) => f.thread(channel, rootTs).find((m) => m.text.startsWith('🎉 Resolved')), { what: 'outcome' });
    expect(end.text).toContain('Build logs are visible again.');
    expect(stack.sim.symptoms()).not.toContain('build-logs');
  });

  it('answers an envelope Slack delivers twice (same envelope_id, retry_attempt 1) once: one root message, one request', async () => {
    await stack.sim.break('build-logs');
    const payload = command(stack, 'fix build-logs', 'twice');
    const roots = rootsFor(stack, 'build-logs').length;
    const first = await deliver(stack.fake, 'slash_commands', payload);
    // Slack did not see that acknowledgement in time (a connection lost on the way) and delivers again.
    const again = await deliver(stack.fake, 'slash_commands', payload, { envelopeId: first.envelope.envelope_id, retryAttempt: 1, retryReason: 'timeout' });
    expect(again.ack.envelope_id).toBe(first.envelope.envelope_id);

    const root = await stack.fake.waitFor(() => rootsFor(stack, 'build-logs')[roots], { what: 'the second fix\'s root message' });
    await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => hasButton(m, 'remedy-approve')), { what: 'its approval card', timeoutMs: 15_000 });
    await new Promise((r) => setTimeout(r, 500));
    expect(rootsFor(stack, 'build-logs')).toHaveLength(roots + 1);
    const plans = (await stack.queue.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed'])).filter((j) => parseJobId(j.id!)?.kind === 'plan');
    expect(new Set(plans.map((j) => parseJobId(j.id!)!.requestId)).size).toBe(2);
    // The redelivery was acknowledged and nothing else: no second answer to the person either.
    expect(again.ack.payload).toBeUndefined();
    expect(stack.fake.responses('twice')).toEqual([]);
  });

  it('opens a new connection when Slack asks it to (disconnect, refresh_requested), and answers a command sent over it', async () => {
    const hub = stack.fake.socketMode;
    const opened = hub.connections.length;
    hub.refresh('refresh_requested');
    const id = await reconnected(stack, opened);
    expect(hub.connections[opened - 1]!.ended).toBe('closed');
    // One per connection, and the start-up check's.
    expect(stack.fake.calls('apps.connections.open').filter((c) => c.ok)).toHaveLength(opened + 2);

    // The answer travels in the acknowledgement's payload, over the new connection.
    const { envelope, ack } = await deliver(stack.fake, 'slash_commands', command(stack, 'list'));
    expect(envelope.connection).toBe(id);
    expect(ack.connection).toBe(id);
    expect(ack.payload).toMatchObject({ response_type: 'ephemeral', text: 'The catalogue of remedies' });
  });

  it('opens a new connection when the connection drops without warning, and answers a command sent over it', async () => {
    const hub = stack.fake.socketMode;
    const opened = hub.connections.length;
    hub.drop();
    const id = await reconnected(stack, opened);
    expect(hub.connections[opened - 1]!.ended).toBe('dropped');

    const { envelope, ack } = await deliver(stack.fake, 'slash_commands', command(stack, 'help'));
    expect(envelope.connection).toBe(id);
    expect(ack.payload).toMatchObject({ response_type: 'ephemeral', text: 'platform-medic help' });
    // Every message the bot sent over any connection acknowledged an envelope it was given.
    expect(hub.stray).toEqual([]);
  });

  it('acknowledges a command and a button it has no listener for at once, with the refusal (unacknowledged, Slack would deliver them again)', async () => {
    const other = { ...command(stack, 'prod', 'socket-other-command'), command: '/deploy' };
    const { ack } = await deliver(stack.fake, 'slash_commands', other);
    expect(ack.payload).toEqual({ response_type: 'ephemeral', text: '`/deploy` is not a command of platform-medic; its command is `/platform` (try `/platform help`). Nothing was done.' });
    const button = interactionPayload(blockActionsBody({ user: requester, channel, message_ts: '1795100000.001000', action_id: 'remedy-frobnicate', value: '{}', block_id: 'b', response_url: stack.fake.responseUrl('socket-unknown-button', { channel, user: requester }) }));
    expect((await deliver(stack.fake, 'interactive', button)).ack.payload).toBeUndefined();
    const told = await stack.fake.waitFor((f) => f.responses('socket-unknown-button')[0]);
    expect(told.body.text).toBe('This button is not one platform-medic knows (it may come from an older version of the bot); nothing was done.');
  });

  it('logged, at trace level, neither token, nor what an envelope carried, nor the connection\'s ticket', () => {
    expect(botLog).toContain('"level":');
    for (const secret of [stack.fake.appToken, stack.fake.botToken]) expect(botLog.includes(secret), 'a Slack token in the log').toBe(false);
    // Envelope ids may be logged (they identify a delivery); what the envelopes carried may not.
    for (const { payload } of stack.fake.socketMode.envelopes) {
      for (const field of ['trigger_id', 'response_url'] as const) expect(botLog).not.toContain(String(payload[field]));
    }
    expect(botLog).not.toContain('/response/');
    // The connection address's ticket opens a connection for whoever holds it.
    expect(botLog).not.toContain('ticket=');
  });
});
