import { isValidSlackRequest } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { blocksText } from '../fakes/slack-api.js';
import { blockActionsBody, eventCallbackBody, sign, slashCommandBody } from '../support/slack-requests.js';

describe('request signing', () => {
  it("matches the worked example of Slack's documentation", () => {
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar' +
      '&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com' +
      '%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    expect(sign('8f742231b10e8888abcd99yyyzzz85a5', 1531420618, body)).toBe(
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  it("is what Bolt's own verifier accepts, and only with the right secret", () => {
    const body = eventCallbackBody({ type: 'app_mention', text: 'hi' });
    const timestamp = Math.floor(Date.now() / 1000);
    const request = (secret: string) => ({
      signingSecret: 's3cret',
      body,
      headers: { 'x-slack-signature': sign(secret, timestamp, body), 'x-slack-request-timestamp': timestamp },
    });
    expect(isValidSlackRequest(request('s3cret'))).toBe(true);
    expect(isValidSlackRequest(request('other'))).toBe(false);
  });
});

describe('payload builders', () => {
  it("sends a slash command's fields in Slack's order", () => {
    const body = new URLSearchParams(
      slashCommandBody({ text: 'db down', user_id: 'U1', channel_id: 'C1', response_url: 'http://r/1', trigger_id: 't' }),
    );
    expect([...body.keys()]).toEqual([
      'token', 'team_id', 'team_domain', 'channel_id', 'channel_name', 'user_id', 'user_name',
      'command', 'text', 'api_app_id', 'is_enterprise_install', 'response_url', 'trigger_id',
    ]);
    expect(body.get('command')).toBe('/platform');
    expect(body.get('text')).toBe('db down');
  });

  it('puts a block_actions interaction in one form field holding JSON', () => {
    const body = blockActionsBody({
      user: 'U1', channel: 'C1', message_ts: '1.000001', thread_ts: '0.000001', action_id: 'approve',
      value: 'v', block_id: 'b', response_url: 'http://r/1', trigger_id: 't',
    });
    const payload = JSON.parse(new URLSearchParams(body).get('payload') ?? 'null') as Record<string, unknown>;
    expect(payload).toMatchObject({
      type: 'block_actions',
      container: { type: 'message', message_ts: '1.000001', channel_id: 'C1', is_ephemeral: false, thread_ts: '0.000001' },
      message: { ts: '1.000001', thread_ts: '0.000001' },
      actions: [{ action_id: 'approve', block_id: 'b', value: 'v', type: 'button' }],
    });
  });
});

describe('blocksText', () => {
  it('renders what a reader sees, in reading order', () => {
    const text = blocksText([
      { type: 'header', text: { type: 'plain_text', text: 'git-sensor stuck' } },
      { type: 'section', text: { type: 'mrkdwn', text: '*Cause*' }, fields: [{ type: 'mrkdwn', text: 'pod: git-sensor-0' }] },
      { type: 'divider' },
      { type: 'context', elements: [{ type: 'image', image_url: 'x', alt_text: 'icon' }, { type: 'mrkdwn', text: 'guide §4' }] },
      { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Approve' }, action_id: 'a' }] },
    ]);
    expect(text).toBe('git-sensor stuck\n*Cause*\npod: git-sensor-0\nguide §4\nApprove');
    expect(blocksText(undefined)).toBe('');
  });
});
