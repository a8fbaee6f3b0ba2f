import { describe, expect, it } from 'vitest';
import { isSlackResponseUrl, maxClockSkewSeconds, shapeProblem, skewOf } from '../../src/slack/request-gate.js';
import { requestDigest } from '../../src/slack/replays.js';

describe('the clock skew a signed request may have', () => {
  const now = 1_800_000_000_000;
  const at = (deltaSeconds: number) => String(now / 1000 + deltaSeconds);

  it('accepts up to five minutes either way, and refuses one second more in words', () => {
    expect(maxClockSkewSeconds).toBe(300);
    expect(skewOf(at(300), now)).toBeUndefined();
    expect(skewOf(at(-300), now)).toBeUndefined();
    expect(skewOf(at(301), now)).toBe("timestamp 301 s ahead of this server's clock (at most 300 s either way)");
    expect(skewOf(at(-301), now)).toBe("timestamp 301 s behind this server's clock (at most 300 s either way)");
  });

  it("leaves a missing header to Bolt's own verification, and refuses a non-numeric one", () => {
    expect(skewOf(undefined, now)).toBeUndefined();
    expect(skewOf('yesterday', now)).toMatch(/not a time in seconds/);
  });
});

describe('timestamps that are not plain seconds', () => {
  const now = 1_800_000_000_000;

  it('refuses a timestamp that never goes stale (Infinity, 1e400) instead of passing it to Bolt', () => {
    // Bolt compares Number(header) with the clock: Infinity is never "older than five minutes".
    expect(skewOf('Infinity', now)).toMatch(/not a time in seconds/);
    expect(skewOf('1e400', now)).toMatch(/not a time in seconds/);
  });

  it('refuses respellings of a valid time (0-padded, decimals, a sign, an exponent), which Bolt would read as the same number', () => {
    const ts = String(now / 1000);
    for (const spelled of [`0${ts}`, `${ts}.0`, ` ${ts}`, `+${ts}`, `${ts}e0`]) expect(skewOf(spelled, now), spelled).toMatch(/not a time in seconds/);
    expect(skewOf(ts, now)).toBeUndefined();
  });

  it('gives one replay digest to one signed request, however its timestamp is spelled', () => {
    const ts = String(now / 1000);
    const digest = (t: string) => requestDigest({ headers: { 'x-slack-request-timestamp': t, 'x-slack-signature': 'v0=abc' } } as never).requestDigest;
    expect(digest(`0${ts}`)).toBe(digest(ts));
    expect(digest(`${ts}.0`)).toBe(digest(ts));
  });
});

describe("where a signed request may have the bot answer (its response_url)", () => {
  it("accepts Slack's hooks host over https and the configured API address, and nothing that only looks like them", () => {
    const api = 'http://127.0.0.1:4000/api/';
    expect(isSlackResponseUrl('https://hooks.slack.com/commands/T0/1/abc', undefined)).toBe(true);
    expect(isSlackResponseUrl('http://127.0.0.1:4000/response/abc', api)).toBe(true);
    for (const address of [
      'http://hooks.slack.com/commands/T0/1/abc',
      'https://hooks.slack.com:8443/commands/T0/1/abc',
      'https://hooks.slack.com.evil.example/x',
      'https://evil.example/hooks.slack.com',
      'https://user:pw@hooks.slack.com/x',
      'https://hooks-slack.com/x',
      'http://127.0.0.1:4001/response/abc',
      'not a url',
    ]) expect(isSlackResponseUrl(address, api), address).toBe(false);
  });

  it('names the shape Bolt would fail on, in words that follow "a signed body"', () => {
    expect(shapeProblem(null, undefined)).toBe('that is not an object (null)');
    expect(shapeProblem({ type: 'event_callback', event: null }, undefined)).toBe('of an event callback whose event is null');
    expect(shapeProblem({ type: 'view_submission', user: { name: 'x' } }, undefined)).toBe('of view_submission without the user who acted');
    expect(shapeProblem({ type: 'view_submission', user: { id: 'U1' }, view: { id: 'V1', state: { values: {} } }, response_urls: [{ response_url: 'https://evil.example/' }] }, undefined)).toBe("with a response_url that is not Slack's");
    expect(shapeProblem({ command: '/platform', response_url: 'https://hooks.slack.com/commands/T0/1/x' }, undefined)).toBeUndefined();
    // Found by an attacker's try: a repeated form field parses as a list, null actions, a message whose text is an object.
    expect(shapeProblem({ command: '/platform', text: ['help', 'list'] }, undefined)).toBe('of a slash command whose text is an array');
    expect(shapeProblem({ type: 'block_actions', user: { id: 'U1' }, actions: null }, undefined)).toBe('of block_actions whose actions are null');
    expect(shapeProblem({ type: 'event_callback', event: { type: 'message', text: { a: 1 } } }, undefined)).toBe('of an event whose text is object');
    expect(shapeProblem({ type: 'block_actions', user: { id: 'U1' }, actions: [] }, undefined)).toBeUndefined();
    expect(shapeProblem({ command: '/platform', text: 'help', user_id: ['U1', 'U2'] }, undefined)).toBe('of a slash command whose user_id is an array');
    expect(shapeProblem({ type: 'view_submission', user: { id: 'U1' } }, undefined)).toBe('of view_submission without its view');
    expect(shapeProblem({ type: 'event_callback', event: { type: 'message' }, authorizations: [null] }, undefined)).toBe('of an event callback whose first authorization is null');
    // Found by an attacker's round: shapes Slack never sends that failed after the acknowledgement, the person told
    // nothing (a button with no message or view around it, a form without its fields), or "📎 undefined is not a text
    // file" (files that are not a list).
    expect(shapeProblem({ type: 'block_actions', user: { id: 'U1' }, actions: [{ action_id: 'remedy-plan' }] }, undefined)).toBe('of block_actions without the message or view its buttons are in');
    expect(shapeProblem({ type: 'view_submission', user: { id: 'U1' }, view: { id: 'V1' } }, undefined)).toBe('of view_submission whose view has no state');
    expect(shapeProblem({ type: 'event_callback', event: { type: 'message', subtype: 'file_share', files: 'x' } }, undefined)).toBe('of an event whose files are string');
    expect(shapeProblem({ type: 'block_actions', user: { id: 'U1' }, container: { type: 'message' }, actions: [{ action_id: 'remedy-plan' }] }, undefined)).toBeUndefined();
  });

  it('names a body of no kind Slack sends, which Bolt would leave unanswered for 3 s, and lets every kind Slack sends through', () => {
    expect(shapeProblem({ type: 'frobnicate' }, undefined)).toBe('of no kind Slack sends (type "frobnicate")');
    expect(shapeProblem({ foo: 'bar' }, undefined)).toBe('of no kind Slack sends (no type)');
    expect(shapeProblem({ '{"type":"event_callback"}': '' }, undefined)).toBe('of no kind Slack sends (no type)');
    for (const body of [
      { type: 'app_rate_limited', team_id: 'T1', minute_rate_limited: 1518467820 },
      { type: 'dialog_cancellation', user: { id: 'U1' } },
      { type: 'url_verification', challenge: 'c' },
      { ssl_check: '1', token: 't' },
      { type: 'view_closed', user: { id: 'U1' }, view: { id: 'V1' } },
      { type: 'block_suggestion', user: { id: 'U1' } },
      { type: 'shortcut', user: { id: 'U1' } },
      { type: 'interactive_message', user: { id: 'U1' }, actions: [] },
      { type: 'dialog_submission', user: { id: 'U1' } },
      { type: 'event_callback', event: { type: 'reaction_added' } },
    ]) expect(shapeProblem(body, undefined), JSON.stringify(body)).toBeUndefined();
  });
});
