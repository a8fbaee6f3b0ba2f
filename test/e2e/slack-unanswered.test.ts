/**
 * Requests of a kind the bot has no listener for: another slash command, a button, shortcut or form it
 * does not know, a modal closed, a menu asking for options, Slack's app_rate_limited. Bolt left each
 * unanswered until its 3-second timeout, then answered 404, which Slack shows the person as an error
 * (and counts as a failed delivery). Each must be answered at once, the way Slack shows that kind: so
 * every test asserts what only the immediate answer has (status 200 and its refusal), never 404.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText } from '../fakes/slack-api.js';
import { modalErrors } from '../fakes/slack/block-kit-limits.js';
import { blockActionsBody, eventCallbackBody, messageShortcutBody, newTriggerId, postSigned, slashCommandBody } from '../support/slack-requests.js';
import { FAKE_WORKSPACE } from '../support/slack-workspace.js';
import { channel, requester, requestsHandled, signingSecret, startStack, eventually, type Stack } from '../support/stack.js';

const FORM = 'application/x-www-form-urlencoded';
/** An interaction as Slack posts it: one form field, `payload`, holding JSON. */
const interaction = (payload: Record<string, unknown>) => new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
const user = { id: requester, username: 'requester', name: 'requester', team_id: FAKE_WORKSPACE.teamId };
const team = { id: FAKE_WORKSPACE.teamId, domain: FAKE_WORKSPACE.teamDomain };
/** A modal as Slack echoes it in view_submission and view_closed. */
const modal = (callbackId: string) => ({ id: 'V0UNKNOWN', type: 'modal', callback_id: callbackId, private_metadata: '', state: { values: {} }, blocks: [], hash: 'h.1', title: { type: 'plain_text', text: 'Old form' }, app_id: FAKE_WORKSPACE.appId, team_id: FAKE_WORKSPACE.teamId });

describe('requests of a kind the bot has no listener for, answered at once as Slack shows each', () => {
  let stack: Stack;
  const logLines: string[] = [];
  const logged = (pattern: RegExp) => logLines.filter((l) => pattern.test(l)).map((l) => JSON.parse(l) as Record<string, unknown>);
  const post = (body: string, contentType = FORM) => postSigned(stack.eventsUrl, body, { secret: signingSecret, contentType });

  beforeAll(async () => {
    stack = await startStack('unanswered', { botLog: new Writable({ write: (chunk: Buffer | string, _e, cb) => (logLines.push(...chunk.toString().split('\n').filter(Boolean)), cb()) }) });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers a slash command other than /platform privately, naming the command it does answer', async () => {
    const res = await post(slashCommandBody({ command: '/deploy', text: 'prod', user_id: requester, channel_id: channel, response_url: stack.fake.responseUrl('other-command', { channel, user: requester }) }));
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ response_type: 'ephemeral', text: '`/deploy` is not a command of platform-medic; its command is `/platform` (try `/platform help`). Nothing was done.' });
  });

  it('acknowledges a button it does not know and tells only the person who clicked', async () => {
    const body = blockActionsBody({ user: requester, channel, message_ts: '1795100000.000500', action_id: 'remedy-frobnicate', value: '{"r":"x"}', block_id: 'b', response_url: stack.fake.responseUrl('unknown-button', { channel, user: requester }) });
    const res = await post(body);
    expect(res.status).toBe(200);
    const answer = await stack.fake.waitFor((f) => f.responses('unknown-button')[0]);
    expect(answer.body).toEqual({ response_type: 'ephemeral', replace_original: false, text: 'This button is not one platform-medic knows (it may come from an older version of the bot); nothing was done.' });
  });

  it('acknowledges a message shortcut it does not know and tells only the person who used it', async () => {
    const body = messageShortcutBody({ callback_id: 'summarise_thread', user: requester, channel, message: { ts: '1795100000.000600', text: 'exit status 128' }, response_url: stack.fake.responseUrl('unknown-shortcut', { channel, user: requester }) });
    const res = await post(body);
    expect(res.status).toBe(200);
    const answer = await stack.fake.waitFor((f) => f.responses('unknown-shortcut')[0]);
    expect(answer.body).toMatchObject({ response_type: 'ephemeral', text: 'platform-medic has no shortcut `summarise_thread` (it may come from an older version of the bot); nothing was done.' });
  });

  it('answers a shortcut from the composer it does not know with a modal saying so', async () => {
    const triggerId = newTriggerId();
    const res = await post(interaction({ type: 'shortcut', token: FAKE_WORKSPACE.verificationToken, action_ts: '1795100000.000700', team, user, callback_id: 'open_dashboard', trigger_id: triggerId, is_enterprise_install: false, enterprise: null }));
    expect(res.status).toBe(200);
    const opened = await stack.fake.waitFor((f) => f.calls('views.open').find((c) => c.args.trigger_id === triggerId));
    expect(opened.ok).toBe(true);
    expect(blocksText((opened.args.view as { blocks: unknown }).blocks)).toBe('platform-medic has no shortcut `open_dashboard` (it may come from an older version of the bot); nothing was done.');
  });

  it("replaces a submitted form it does not know with a modal saying so (the modal's own answer, not Slack's error)", async () => {
    const res = await post(interaction({ type: 'view_submission', team, user, api_app_id: FAKE_WORKSPACE.appId, token: FAKE_WORKSPACE.verificationToken, trigger_id: newTriggerId(), view: modal('old_form'), response_urls: [], is_enterprise_install: false, enterprise: null }));
    expect(res.status).toBe(200);
    const answer = res.json as { response_action: string; view: { blocks: unknown } };
    expect(answer.response_action).toBe('update');
    expect(modalErrors(answer.view)).toEqual([]);
    expect(blocksText(answer.view.blocks)).toBe('This form is not one platform-medic knows (it may come from an older version of the bot); nothing was done.');
  });

  it('acknowledges a modal closed, and gives a menu asking for options none, at once', async () => {
    const closed = await post(interaction({ type: 'view_closed', team, user, api_app_id: FAKE_WORKSPACE.appId, token: FAKE_WORKSPACE.verificationToken, view: modal('old_form'), is_cleared: false }));
    expect({ status: closed.status, text: closed.text }).toEqual({ status: 200, text: '' });
    const options = await post(interaction({ type: 'block_suggestion', team, user, api_app_id: FAKE_WORKSPACE.appId, token: FAKE_WORKSPACE.verificationToken, action_id: 'cluster_search', block_id: 'cluster', value: 'pro', container: { type: 'view', view_id: 'V0UNKNOWN' } }));
    expect(options.status).toBe(200);
    expect(options.json).toEqual({ options: [] });
  });

  it("acknowledges a legacy message button and dialog (never the bot's) and tells the person", async () => {
    const legacy = { team, user, token: FAKE_WORKSPACE.verificationToken, channel: { id: channel, name: channel.toLowerCase() }, action_ts: '1795100000.000800' };
    const button = await post(interaction({ ...legacy, type: 'interactive_message', callback_id: 'old_card', actions: [{ name: 'approve', type: 'button', value: 'x' }], attachment_id: '1', message_ts: '1795100000.000800', trigger_id: newTriggerId(), response_url: stack.fake.responseUrl('legacy-button', { channel, user: requester }) }));
    const dialog = await post(interaction({ ...legacy, type: 'dialog_submission', callback_id: 'old_dialog', submission: { name: 'x' }, state: '', response_url: stack.fake.responseUrl('legacy-dialog', { channel, user: requester }) }));
    expect([button.status, dialog.status]).toEqual([200, 200]);
    // An empty acknowledgement: a body would replace the legacy message, or be read as the dialog's errors.
    expect([button.text, dialog.text]).toEqual(['', '']);
    expect((await stack.fake.waitFor((f) => f.responses('legacy-button')[0])).body.text).toBe('This button is not one platform-medic knows (it may come from an older version of the bot); nothing was done.');
    expect((await stack.fake.waitFor((f) => f.responses('legacy-dialog')[0])).body.text).toBe('This form is not one platform-medic knows (it may come from an older version of the bot); nothing was done.');
  });

  it("answers Slack's app_rate_limited with 200 at once (Slack counts anything else as a failed delivery) and warns in the log", async () => {
    const res = await post(JSON.stringify({ token: FAKE_WORKSPACE.verificationToken, type: 'app_rate_limited', team_id: FAKE_WORKSPACE.teamId, minute_rate_limited: 1795100040, api_app_id: FAKE_WORKSPACE.appId }), 'application/json');
    expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: '' });
    const warning = await eventually(async () => logged(/rate limiting the events/)[0], { what: 'the warning' });
    expect(warning).toMatchObject({ level: 40, team: FAKE_WORKSPACE.teamId, minute: 1795100040 });
  });

  it('acknowledges an event it does not subscribe to with 200 and does nothing with it', async () => {
    const events = await requestsHandled(stack.eventsUrl, 'event');
    const before = stack.fake.calls().length;
    const res = await post(eventCallbackBody({ type: 'reaction_added', user: requester, reaction: 'eyes', item: { type: 'message', channel, ts: '1795100000.000900' }, event_ts: '1795100000.000901' }), 'application/json');
    expect({ status: res.status, text: res.text }).toEqual({ status: 200, text: '' });
    await eventually(async () => (await requestsHandled(stack.eventsUrl, 'event')) > events, { what: 'the event handled' });
    expect(stack.fake.calls().slice(before)).toEqual([]);
  });
});
