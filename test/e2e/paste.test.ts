import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { eventCallbackBody, messageShortcutBody, postSigned } from '../support/slack-requests.js';
import { channel, eventually, requester, requestsHandled, signingSecret, startStack, type Stack } from '../support/stack.js';

let seq = 0;
const nextTs = () => `${1_795_000_000 + ++seq}.000100`;

describe('pasted errors: messages, files, the "Find remedy" shortcut and /platform match', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack('paste');
  });
  afterAll(async () => {
    await stack?.stop();
  });
  // Each test pastes as a person of its own: a person gets 5 paste answers a minute (paste-flood.test.ts).
  let person = requester;
  let people = 0;
  beforeEach(() => {
    person = `U0PASTER${++people}`;
  });

  /** Sends a signed message event as Slack would, and returns the message's ts. */
  async function say(text: string, extra: Record<string, unknown> = {}, eventId?: string, headers?: Record<string, string>): Promise<string> {
    const ts = (extra.ts as string | undefined) ?? nextTs();
    const event = { type: 'message', channel, channel_type: 'channel', user: person, text, ts, event_ts: ts, ...extra };
    const res = await postSigned(stack.eventsUrl, eventCallbackBody(event, eventId), { secret: signingSecret, contentType: 'application/json', ...(headers ? { headers } : {}) });
    expect(res.status).toBe(200);
    return ts;
  }
  const replies = (ts: string): StoredMessage[] => stack.fake.messages(channel).filter((m) => m.thread_ts === ts);

  it('answers a pasted log in its thread: the entry, its confidence, the evidence line and a Plan fix button', async () => {
    const ts = await say('seeing this since the SSO change:\n```time="2026-11-21T09:12:03Z" level=error msg="Failed to verify token" error="no token provided"```');
    const answer = await stack.fake.waitFor(() => replies(ts)[0], { what: 'answer in thread' });
    const text = blocksText(answer.blocks);
    expect(text).toMatch(/SSO login fails with correct credentials\* \(`sso-login`, guide 7\.3\) — confidence \d+%/);
    expect(text).toContain('line 2: `time="2026-11-21T09:12:03Z" level=error msg="Failed to verify token" error="no token provided"');
    expect(text).toContain('Plan fix');
  });

  it('stays silent on chatter, and answers a redelivered event once', async () => {
    const handled = await requestsHandled(stack.eventsUrl, 'event');
    const chatter = await say('thanks, that worked! lunch at 12?');
    const eventId = 'Ev0REDELIVER1';
    const ts = nextTs();
    await say('git-sensor: fatal: could not read Username: exit status 128', { ts }, eventId);
    await say('git-sensor: fatal: could not read Username: exit status 128', { ts }, eventId, { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' });
    await stack.fake.waitFor(() => replies(ts)[0]);
    // The bot has finished with all three deliveries: whatever they would post, they have posted.
    await eventually(async () => (await requestsHandled(stack.eventsUrl, 'event')) >= handled + 3, { what: 'the three deliveries handled' });
    expect(replies(ts)).toHaveLength(1);
    expect(blocksText(replies(ts)[0]!.blocks)).toContain('`commits-exit-128`');
    expect(replies(chatter)).toHaveLength(0);
  });

  it('says "no catalogued remedy" to an error the guide does not cover, and proposes no fix', async () => {
    const ts = await say('my-app-7d9f 0/1 OOMKilled 5 (2m ago) — the pod keeps failing');
    const answer = await stack.fake.waitFor(() => replies(ts)[0]);
    expect(answer.text).toBe('No catalogued remedy matches this.');
    expect(JSON.stringify(answer.blocks)).not.toContain('match-plan-fix');
  });

  it('redacts secrets in the evidence it shows back', async () => {
    const ts = await say('login as admin with password=Sup3rS3cret! fails: invalid username or password');
    const answer = await stack.fake.waitFor(() => replies(ts)[0]);
    expect(JSON.stringify(answer.blocks)).not.toContain('Sup3rS3cret');
    expect(blocksText(answer.blocks)).toContain('password=[redacted]');
  });

  it('reads a shared log file with the bot token, and refuses one over the size cap with its size', async () => {
    const log = `${'I1121 10:00:00.000000 1 main.go:10] all good\n'.repeat(2000)}E1121 10:00:01.000000 1 sync.go:88] attempt to index a non-table object(nil) with key 'stableRS'\n`;
    const file = stack.fake.addFile({ id: 'F0LOG1', name: 'rollout.log', mimetype: 'text/plain', filetype: 'text', content: log });
    const ts = await say('', { subtype: 'file_share', files: [file] });
    const answer = await stack.fake.waitFor(() => replies(ts)[0]);
    expect(blocksText(answer.blocks)).toContain('`rollout-stable-rs`');
    expect(blocksText(answer.blocks)).toContain("line 2001: `E1121 10:00:01.000000 1 sync.go:88] attempt to index a non-table object(nil) with key 'stableRS'`");
    expect(stack.fake.calls('file_download').map((c) => c.args)).toContainEqual({ id: 'F0LOG1', authorised: true });

    const big = stack.fake.addFile({ id: 'F0BIG', name: 'huge.log', mimetype: 'text/plain', filetype: 'text', content: Buffer.alloc(11 * 1024 * 1024, 97) });
    const ts2 = await say('here is the whole log', { subtype: 'file_share', files: [big] });
    const refusal = await stack.fake.waitFor(() => replies(ts2)[0]);
    expect(blocksText(refusal.blocks)).toContain('huge.log is 11.0 MB; I read files up to 10.0 MB. Share the part around the error.');
  });

  it('refuses a shared file whose download address is not Slack, in the thread, and sends the token nowhere', async () => {
    const seen: (string | undefined)[] = [];
    const trap = createServer((req, res) => (seen.push(req.headers.authorization), res.end('error: no token provided')));
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
    const host = `127.0.0.1:${(trap.address() as AddressInfo).port}`;
    try {
      const file = { id: 'F0TRAP', name: 'build.log', mimetype: 'text/plain', filetype: 'text', size: 24, url_private: `http://${host}/files-pri/F0TRAP/build.log`, url_private_download: `http://${host}/files-pri/F0TRAP/build.log` };
      const ts = await say('', { subtype: 'file_share', files: [file] });
      const answer = await stack.fake.waitFor(() => replies(ts)[0]);
      expect(blocksText(answer.blocks)).toContain(`I did not download build.log: its address (${host}) is not one of Slack's file hosts.`);
      // The notification text says so too, not "no match".
      expect(answer.text).toContain("I did not download build.log");
      expect(seen).toEqual([]);
    } finally {
      trap.closeAllConnections();
      await new Promise((r) => trap.close(r));
    }
  });

  it("escapes a shared file's name: mentions and links in it stay text", async () => {
    const file = { id: 'F0NAME', name: '<!channel> <@U0APPROVER> <https://evil.test|click>.png', mimetype: 'image/png', filetype: 'png', size: 10, url_private: 'https://files.slack.com/x', url_private_download: 'https://files.slack.com/x' };
    const ts = await say('', { subtype: 'file_share', files: [file] });
    const answer = await stack.fake.waitFor(() => replies(ts)[0]);
    const shown = `${answer.text}\n${blocksText(answer.blocks)}`;
    expect(shown).toContain('&lt;!channel&gt; &lt;@U0APPROVER&gt; &lt;https://evil.test|click&gt;.png is not a text file');
    expect(shown).not.toContain('<!channel>');
    expect(shown).not.toContain('<@U0APPROVER>');
  });

  it('says a binary paste is not text it can read', async () => {
    const bin = stack.fake.addFile({ id: 'F0BIN', name: 'core.txt', mimetype: 'text/plain', filetype: 'text', content: Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256)) });
    const ts = await say('', { subtype: 'file_share', files: [bin] });
    const answer = await stack.fake.waitFor(() => replies(ts)[0]);
    expect(answer.text).toBe('This looks like binary data, not text I can read.');
  });

  it('reads a typed message with a NUL in it as text: answered, the NUL shown escaped, in the thread and to /platform match', async () => {
    // Slack passes a NUL typed or pasted into a message through; one character does not make a log a binary file.
    const ts = await say('git-sensor: fatal: could not read Username: exit status 128\u0000 on every poll');
    const answer = await stack.fake.waitFor(() => replies(ts)[0]);
    expect(answer.text).not.toContain('binary');
    expect(blocksText(answer.blocks)).toContain('line 1: `git-sensor: fatal: could not read Username: exit status 128\\x00 on every poll`');
    const res = await stack.slash('match git-sensor: fatal: could not read Username: exit status 128\u0000 on every poll');
    const privately = blocksText((res.json as { blocks: unknown }).blocks);
    expect(privately).toContain('`commits-exit-128`');
    expect(privately).toContain('exit status 128\\x00 on every poll');
  });

  it('answers the "Find remedy" shortcut in the message\'s thread, even for a plain sentence', async () => {
    const ts = nextTs();
    const body = messageShortcutBody({
      callback_id: 'find_remedy',
      user: requester,
      channel,
      message: { ts, text: 'build logs are not streaming and I cannot abort the build' },
      response_url: stack.fake.responseUrl('shortcut-1', { channel, user: requester }),
    });
    expect((await postSigned(stack.eventsUrl, body, { secret: signingSecret })).status).toBe(200);
    const answer = await stack.fake.waitFor(() => replies(ts)[0]);
    expect(blocksText(answer.blocks)).toContain('`build-logs`');
  });

  it('plans the fix in the same thread when "Plan fix" is clicked', async () => {
    const ts = await say('E1121 12:00:00.000000 1 oidc.go:77] Failed to query provider: Get "dex.example.com/.well-known/openid-configuration": unsupported protocol scheme ""');
    const answer = await stack.fake.waitFor(() => replies(ts)[0]);
    await stack.click(answer, 'match-plan-fix', requester);
    const card = await stack.fake.waitFor(() => replies(ts).find((m) => blocksText(m.blocks).includes('Approve: Reload the configuration')), { timeoutMs: 15_000 });
    expect(blocksText(card.blocks)).toContain('delete Pod `devtroncd/devtron-');
    expect(replies(ts).some((m) => m.text.includes('asked to fix *SSO login fails with correct credentials*'))).toBe(true);
  });

  it('answers /platform match privately, and /platform explain with every step', async () => {
    const res = await stack.slash('match Error: UPGRADE FAILED: cannot patch "postgresql-postgresql" with kind StatefulSet: StatefulSet.apps "postgresql-postgresql" is invalid: spec: Forbidden');
    const body = res.json as { response_type: string; blocks: unknown };
    expect(body.response_type).toBe('ephemeral');
    expect(blocksText(body.blocks)).toContain('`upgrade-cannot-patch-database`');
    const explain = (await stack.slash('explain git-sensor-volume-full')).json as { blocks: unknown };
    const text = blocksText(explain.blocks);
    expect(text).toContain("Make the claim's storage class allow volume expansion");
    expect(text).toContain('`size=20Gi` the new size of the claim (default 20Gi)');
  });
});
