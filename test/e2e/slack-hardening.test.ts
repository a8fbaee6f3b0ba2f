import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { blockActionsBody, eventCallbackBody, messageShortcutBody, newTriggerId, postSigned, sign, slashCommandBody } from '../support/slack-requests.js';
import { approver, channel, eventually, requester, requestIdOf, requestsHandled, signingSecret, startStack, testRedisUrl, type Stack } from '../support/stack.js';

const hasButton = (m: StoredMessage, prefix: string) => JSON.stringify(m.blocks ?? []).includes(`"action_id":"${prefix}`);
const now = () => Math.floor(Date.now() / 1000);

describe('requests Slack did not send as they are: future timestamps, bodies that are not objects, replays, clicks from elsewhere', () => {
  let stack: Stack;
  let redis: Redis;
  /** What fix requests leave in Redis: their records and jobs. */
  const traces = async () => ({
    requests: await redis.keys(`${stack.config.queuePrefix}:request:*`),
    jobs: Object.values(await stack.queue.getJobCounts()).reduce((a, b) => a + b, 0),
  });
  /** Waits until the bot has finished handling `count` more requests of `kind` than `from`: by then, whatever they would do is done. */
  const handled = (kind: 'command' | 'event', from: number, count: number) =>
    eventually(async () => (await requestsHandled(stack.eventsUrl, kind)) >= from + count, { what: `${count} ${kind} request(s) handled` });
  /** Root messages of admin-password remedies that have ended. */
  const revealsDone = () => stack.fake.messages(channel).filter((m) => (m.thread_ts ?? m.ts) === m.ts && m.text.includes('admin-password') && m.text.endsWith('✅ done'));
  /** What the bot logged, as JSON lines, through the product's logger. */
  const logLines: string[] = [];
  const logged = (pattern: RegExp) => logLines.filter((l) => pattern.test(l)).map((l) => JSON.parse(l) as Record<string, unknown>);

  beforeAll(async () => {
    stack = await startStack('hardening', { botLog: new Writable({ write: (chunk: Buffer | string, _e, cb) => (logLines.push(...chunk.toString().split('\n').filter(Boolean)), cb()) }) });
    redis = new Redis(testRedisUrl);
  });
  afterAll(async () => {
    await stack?.stop();
    redis?.disconnect();
  });

  it('refuses timestamps 10 minutes and a year ahead with 401, says why in the log, and runs nothing', async () => {
    const before = stack.fake.calls().length;
    const left = await traces();
    for (const ahead of [10 * 60, 365 * 24 * 3600]) {
      const res = await stack.slash('fix git-sensor-stuck', requester, { timestamp: now() + ahead });
      expect(res.status).toBe(401);
    }
    // Refused before Bolt dispatches them: by these answers, no listener has run or will.
    expect(stack.fake.calls().slice(before)).toEqual([]);
    expect(await traces()).toEqual(left);
    const reasons = logged(/request refused/).map((l) => l.reason);
    expect(reasons).toContainEqual(expect.stringMatching(/^timestamp (59\d|60\d) s ahead of this server's clock \(at most 300 s either way\)$/));
    expect(reasons).toContainEqual(expect.stringMatching(/^timestamp 3153[56]\d{3} s ahead of this server's clock \(at most 300 s either way\)$/));
  });

  it('answers a signed slash command that carries no text field with the help, at once', async () => {
    const params = new URLSearchParams(slashCommandBody({ text: '', user_id: requester, channel_id: channel, response_url: stack.fake.responseUrl('no-text', { channel, user: requester }) }));
    params.delete('text');
    const res = await postSigned(stack.eventsUrl, params.toString(), { secret: signingSecret });
    expect(res.status).toBe(200);
    expect(blocksText((res.json as { blocks: unknown }).blocks)).toContain('/platform fix <id> [cluster]');
  });

  it('refuses a timestamp header that is not plain seconds (Infinity, a respelling) with 401', async () => {
    const body = slashCommandBody({ text: 'help', user_id: requester, channel_id: channel, response_url: stack.fake.responseUrl('odd-ts', { channel, user: requester }) });
    for (const spelled of ['Infinity', `0${now()}`, `${now()}.0`]) {
      // Signed over the header as spelled, as Bolt verifies it: only the gate can tell it apart.
      const res = await postSigned(stack.eventsUrl, body, { secret: signingSecret, signature: sign(signingSecret, spelled as unknown as number, body), headers: { 'x-slack-request-timestamp': spelled } });
      expect(res.status, spelled).toBe(401);
    }
  });

  it('accepts a timestamp a little ahead, as a clock a minute fast gives', async () => {
    const res = await stack.slash('help', requester, { timestamp: now() + 60 });
    expect(res.status).toBe(200);
    expect(blocksText((res.json as { blocks: unknown }).blocks)).toContain('/platform fix <id> [cluster]');
  });

  it('answers a signed body of null (JSON, or payload=null) and other non-objects with 400, and keeps serving', async () => {
    const bodies = [
      { body: 'null', contentType: 'application/json' },
      { body: 'payload=null', contentType: 'application/x-www-form-urlencoded' },
      { body: '[]', contentType: 'application/json' },
      { body: '42', contentType: 'application/json' },
      { body: 'payload=%22text%22', contentType: 'application/x-www-form-urlencoded' },
    ];
    for (const { body, contentType } of bodies) {
      const res = await postSigned(stack.eventsUrl, body, { secret: signingSecret, contentType });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    // The process is alive and answers the next request as usual.
    const help = await stack.slash('help');
    expect(help.status).toBe(200);
    expect(blocksText((help.json as { blocks: unknown }).blocks)).toContain('/platform fix <id> [cluster]');
    expect(logged(/request refused/).map((l) => l.reason)).toContain('a signed body that is not an object (null)');
    // An unsigned null is still a forgery first: 401.
    expect((await postSigned(stack.eventsUrl, 'null', { secret: signingSecret, contentType: 'application/json', signature: 'v0=' + '0'.repeat(64) })).status).toBe(401);
  });

  it('answers a signed event whose event is not an object, and a click or shortcut without the user who acted, with 400 at once', async () => {
    // Bolt reads body.event and payload.user.id outside any listener: a 500, or no acknowledgement for 3 s.
    const event = JSON.parse(eventCallbackBody({ type: 'message' })) as Record<string, unknown>;
    const click = new URLSearchParams(blockActionsBody({ user: requester, channel, message_ts: '1795100000.000200', action_id: 'remedy:approve', block_id: 'b', value: '{}', response_url: stack.fake.responseUrl('no-user', { channel, user: requester }) }));
    const withoutUser = (form: URLSearchParams) => {
      const payload = JSON.parse(form.get('payload')!) as Record<string, unknown>;
      delete payload.user;
      return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    };
    const shortcut = new URLSearchParams(messageShortcutBody({ callback_id: 'platform_match', user: requester, channel, message: { ts: '1795100000.000300', text: 'exit status 128' }, response_url: stack.fake.responseUrl('no-user-2', { channel, user: requester }) }));
    const bodies = [
      { body: JSON.stringify({ ...event, event: null }), contentType: 'application/json', reason: 'a signed body of an event callback whose event is null' },
      { body: JSON.stringify({ ...event, event: 'text' }), contentType: 'application/json', reason: 'a signed body of an event callback whose event is string' },
      { body: withoutUser(click), contentType: 'application/x-www-form-urlencoded', reason: 'a signed body of block_actions without the user who acted' },
      { body: withoutUser(shortcut), contentType: 'application/x-www-form-urlencoded', reason: 'a signed body of message_action without the user who acted' },
    ];
    // 400 from the gate, before any listener: Bolt itself failed these outside its handlers and Slack gave up after 3 s.
    for (const { body, contentType } of bodies) {
      const res = await postSigned(stack.eventsUrl, body, { secret: signingSecret, contentType });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const reasons = logged(/request refused/).map((l) => l.reason);
    for (const { reason } of bodies) expect(reasons).toContain(reason);
    expect(logged(/unhandled error|failed on a request/)).toEqual([]);
  });

  it('answers a signed body of no kind Slack sends (an unknown type, a form without its payload, JSON sent as a form) with 400, not after 3 s', async () => {
    // Bolt finds no kind of listener for these and would answer 404 once its 3-second timeout ran out.
    const bodies = [
      { body: JSON.stringify({ type: 'frobnicate', team_id: 'T0MEDIC01' }), contentType: 'application/json', reason: 'a signed body of no kind Slack sends (type "frobnicate")' },
      { body: 'foo=bar', contentType: 'application/x-www-form-urlencoded', reason: 'a signed body of no kind Slack sends (no type)' },
      { body: JSON.stringify({ type: 'event_callback', event: { type: 'message' } }), contentType: 'application/x-www-form-urlencoded', reason: 'a signed body of no kind Slack sends (no type)' },
    ];
    for (const { body, contentType } of bodies) {
      const res = await postSigned(stack.eventsUrl, body, { secret: signingSecret, contentType });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const reasons = logged(/request refused/).map((l) => l.reason);
    for (const { reason } of bodies) expect(reasons).toContain(reason);
    // A forgery of the same shape is still refused as a forgery.
    expect((await postSigned(stack.eventsUrl, 'foo=bar', { secret: signingSecret, signature: 'v0=' + '0'.repeat(64) })).status).toBe(401);
  });

  it("refuses a signed command or shortcut whose response_url is not Slack's, with 400, and writes nothing there", async () => {
    // A trap where an answer would go: nothing may reach it.
    const hits: string[] = [];
    const trap = createServer((req, res) => (hits.push(req.url ?? ''), res.end('ok')));
    await new Promise<void>((r) => trap.listen(0, '127.0.0.1', r));
    const trapUrl = `http://127.0.0.1:${(trap.address() as AddressInfo).port}/commands/T0/1/x`;
    try {
      const command = slashCommandBody({ text: 'help', user_id: requester, channel_id: channel, response_url: trapUrl });
      const lookAlike = slashCommandBody({ text: 'fix build-logs', user_id: requester, channel_id: channel, response_url: 'https://hooks.slack.com.evil.example/commands/T0/1/x' });
      const shortcut = messageShortcutBody({ callback_id: 'platform_match', user: requester, channel, message: { ts: '1795100000.000400', text: 'exit status 128' }, response_url: trapUrl });
      for (const body of [command, lookAlike, shortcut]) expect((await postSigned(stack.eventsUrl, body, { secret: signingSecret })).status).toBe(400);
      expect(logged(/request refused/).map((l) => l.reason)).toContain("a signed body with a response_url that is not Slack's");
      const help = await stack.slash('help');
      expect(help.status).toBe(200);
      expect(hits).toEqual([]);
    } finally {
      trap.close();
    }
  });

  it('answers a copy of a catalogue command again (it reveals and changes nothing) without asking Redis', async () => {
    const body = slashCommandBody({ text: 'list', user_id: requester, channel_id: channel, response_url: stack.fake.responseUrl('list-copy', { channel, user: requester }) });
    const timestamp = now();
    const first = await postSigned(stack.eventsUrl, body, { secret: signingSecret, timestamp });
    const copy = await postSigned(stack.eventsUrl, body, { secret: signingSecret, timestamp });
    expect(first.status).toBe(200);
    expect(copy.status).toBe(200);
    expect(blocksText((copy.json as { blocks: unknown }).blocks)).toEqual(blocksText((first.json as { blocks: unknown }).blocks));
    expect(blocksText((copy.json as { blocks: unknown }).blocks)).toContain('build-logs');
  });

  it("answers a copy of `/platform match` with nothing: its answer carries the cluster's evidence, not the catalogue alone", async () => {
    const backoff = 'Warning  BackoffLimitExceeded  job/postgresql-migrate-devtron  Job has reached the specified backoff limit';
    const body = slashCommandBody({ text: `match ${backoff}`, user_id: requester, channel_id: channel, response_url: stack.fake.responseUrl('match-copy', { channel, user: requester }) });
    const timestamp = now();
    const first = await postSigned(stack.eventsUrl, body, { secret: signingSecret, timestamp });
    expect(blocksText((first.json as { blocks: unknown }).blocks)).toContain('install-jobs-failed');
    // The person's answer gets the cluster's evidence (read once, then reused for a while).
    const evidenced = await stack.fake.waitFor((f) => f.responses('match-copy').find((r) => JSON.stringify(r.body).includes('in `sim`')), { timeoutMs: 20_000 });
    expect(blocksText((evidenced.body as { blocks: unknown }).blocks)).toMatch(/not seen in `sim` right now/);
    const replays = logged(/replayed request/).length;
    const copy = await postSigned(stack.eventsUrl, body, { secret: signingSecret, timestamp });
    expect(copy.status).toBe(200);
    expect(copy.text).not.toContain('sim');
    expect(copy.text).not.toContain('install-jobs-failed');
    expect(logged(/replayed request/)[replays]).toMatchObject({ kind: 'command' });
  });

  it('runs a replayed slash command once: the same signed request again is acknowledged and reveals nothing', async () => {
    const requestsBefore = (await redis.keys(`${stack.config.queuePrefix}:request:*`)).length;
    const ended = revealsDone().length;
    const revealed = stack.fake.ephemerals(approver).filter((e) => e.text.startsWith('🔑 Admin password')).length;
    const body = slashCommandBody({ text: 'fix admin-password', user_id: approver, channel_id: channel, response_url: stack.fake.responseUrl('reveal-1', { channel, user: approver }) });
    const timestamp = now();
    expect((await postSigned(stack.eventsUrl, body, { secret: signingSecret, timestamp })).status).toBe(200);
    const reveals = () => stack.fake.ephemerals(approver).filter((e) => e.text.startsWith('🔑 Admin password'));
    await stack.fake.waitFor(() => reveals()[revealed], { timeoutMs: 15_000, what: 'the password, privately' });
    // The remedy has ended (its entry is free again): a replay now would start a second one.
    await stack.fake.waitFor(() => revealsDone().length === ended + 1 || undefined, { timeoutMs: 15_000, what: 'the remedy to end' });

    const commands = await requestsHandled(stack.eventsUrl, 'command');
    const replays = logged(/replayed request/).length;
    const replay = await postSigned(stack.eventsUrl, body, { secret: signingSecret, timestamp });
    expect(replay.status).toBe(200);
    await handled('command', commands, 1);
    expect(reveals()).toHaveLength(revealed + 1);
    expect(await redis.keys(`${stack.config.queuePrefix}:request:*`)).toHaveLength(requestsBefore + 1);
    const line = logged(/replayed request/)[replays];
    expect(line).toMatchObject({ level: 30, kind: 'command' });
  });

  it('answers a second request with an already used trigger_id once', async () => {
    const triggerId = newTriggerId();
    const body = (n: number) => slashCommandBody({ text: 'fix admin-password', user_id: approver, channel_id: channel, trigger_id: triggerId, response_url: stack.fake.responseUrl(`trigger-${n}`, { channel, user: approver }) });
    const before = (await redis.keys(`${stack.config.queuePrefix}:request:*`)).length;
    const ended = revealsDone().length;
    expect((await postSigned(stack.eventsUrl, body(1), { secret: signingSecret })).status).toBe(200);
    await stack.fake.waitFor(() => revealsDone().length === ended + 1 || undefined, { timeoutMs: 15_000, what: 'the remedy to end' });
    // Another body and signature, the same interaction.
    const commands = await requestsHandled(stack.eventsUrl, 'command');
    expect((await postSigned(stack.eventsUrl, body(2), { secret: signingSecret, timestamp: now() - 1 })).status).toBe(200);
    await handled('command', commands, 1);
    expect(await redis.keys(`${stack.config.queuePrefix}:request:*`)).toHaveLength(before + 1);
    expect(revealsDone()).toHaveLength(ended + 1);
  });

  it("still answers Slack's own retry of an event (signed anew, X-Slack-Retry-Num) once, by its event id", async () => {
    const ts = '1795100000.000100';
    const event = { type: 'message', channel, channel_type: 'channel', user: requester, text: 'git-sensor: fatal: could not read Username: exit status 128', ts, event_ts: ts };
    const body = eventCallbackBody(event, 'Ev0HARDENRETRY');
    const events = await requestsHandled(stack.eventsUrl, 'event');
    expect((await postSigned(stack.eventsUrl, body, { secret: signingSecret, contentType: 'application/json', timestamp: now() - 2 })).status).toBe(200);
    expect((await postSigned(stack.eventsUrl, body, { secret: signingSecret, contentType: 'application/json', headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' } })).status).toBe(200);
    await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.thread_ts === ts));
    await handled('event', events, 2);
    expect(stack.fake.messages(channel).filter((m) => m.thread_ts === ts)).toHaveLength(1);
  });

  it('refuses a body changed after signing and a signature of another version with 401, a body over 4 MB with 413, and one neither form nor JSON with 400, running nothing', async () => {
    const before = stack.fake.calls().length;
    const left = await traces();
    const body = slashCommandBody({ text: 'fix git-sensor-stuck', user_id: requester, channel_id: channel, response_url: stack.fake.responseUrl('tampered-body', { channel, user: requester }) });
    const timestamp = now();
    const signature = sign(signingSecret, timestamp, body);
    const changed = await postSigned(stack.eventsUrl, body.replace('git-sensor-stuck', 'admin-password'), { secret: signingSecret, timestamp, signature });
    const v1 = await postSigned(stack.eventsUrl, body, { secret: signingSecret, timestamp, signature: signature.replace(/^v0=/, 'v1=') });
    const bare = await postSigned(stack.eventsUrl, body, { secret: signingSecret, timestamp, signature: signature.slice(3) });
    expect([changed.status, v1.status, bare.status]).toEqual([401, 401, 401]);
    const huge = await postSigned(stack.eventsUrl, `payload=${'a'.repeat(4 * 1024 * 1024 + 1)}`, { secret: signingSecret });
    expect(huge.status).toBe(413);
    for (const contentType of ['text/plain', 'application/xml']) expect((await postSigned(stack.eventsUrl, 'fix git-sensor-stuck', { secret: signingSecret, contentType })).status, contentType).toBe(400);
    expect(stack.fake.calls().slice(before)).toEqual([]);
    expect(await traces()).toEqual(left);
  });

  it("closes a connection whose body stops arriving soon after Slack's 3 s, so unsigned stalls cannot each hold up to 4 MB for minutes", async () => {
    // An unsigned request that sends most of a 4 MB body and then waits: its bytes are held until the body is done.
    const url = new URL(stack.eventsUrl);
    const stalled = Array.from({ length: 5 }, () => connect(Number(url.port), '127.0.0.1'));
    const closedAfter = stalled.map(
      (socket) =>
        new Promise<number>((resolve) => {
          const started = Date.now();
          socket.on('error', () => undefined);
          socket.once('close', () => resolve(Date.now() - started));
          socket.write(`POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${4 * 1024 * 1024 - 1}\r\nX-Slack-Request-Timestamp: ${now()}\r\nX-Slack-Signature: v0=${'0'.repeat(64)}\r\n\r\n`);
          socket.write(Buffer.alloc(3 * 1024 * 1024, 97));
        }),
    );
    try {
      // Slack gives up on an answer after 3 s: the bot closes each connection then (the log says by which deadline), not
      // after minutes; 15 s is only the bound past which the test calls it held (the machine's load moves the rest).
      await Promise.race([Promise.all(closedAfter), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('a stalled body was still held after 15 s')), 15_000))]);
      expect(logged(/request refused/).map((l) => l.reason)).toContain('body not received within 3 s');
      // And the bot serves on.
      expect((await stack.slash('help')).status).toBe(200);
    } finally {
      for (const socket of stalled) socket.destroy();
    }
  });

  it('closes a connection whose request headers are still arriving 3 s after it opened, not after a minute', async () => {
    // Slack sends its headers at once; a slow sender of headers (slow loris) was held for Node's 60 s (checked every 30 s).
    const url = new URL(stack.eventsUrl);
    const started = Date.now();
    const slow = Array.from({ length: 5 }, () => connect(Number(url.port), '127.0.0.1'));
    const closedAfter = slow.map(
      (socket) =>
        new Promise<number>((resolve) => {
          socket.on('error', () => undefined);
          socket.once('close', () => resolve(Date.now() - started));
          socket.write(`POST /slack/events HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(4000)}`);
        }),
    );
    // One more header byte a second: each keeps the connection busy, none ends the headers.
    const drip = setInterval(() => slow.forEach((s) => s.writable && s.write('a')), 1_000);
    try {
      // Node's own limit is 60 s, checked every 30 s: 15 s is only the bound past which the test calls them held.
      await Promise.race([Promise.all(closedAfter), new Promise<never>((_, reject) => setTimeout(() => reject(new Error('slow headers were still held after 15 s')), 15_000))]);
      expect((await stack.slash('help')).status).toBe(200);
    } finally {
      clearInterval(drip);
      for (const socket of slow) socket.destroy();
    }
  });

  it('holds at most 16 MiB of unverified bodies at once: past it the largest stall is closed at once, and a signed command is still answered', async () => {
    // Twelve unsigned requests each send 3 MB of a 4 MB body and wait: 36 MB held until the 3 s deadline, were nothing capped.
    const url = new URL(stack.eventsUrl);
    const refusedBefore = logged(/request refused/).length;
    const stalled = Array.from({ length: 12 }, () => connect(Number(url.port), '127.0.0.1'));
    const started = Date.now();
    const closedAt: number[] = [];
    for (const socket of stalled) {
      socket.on('error', () => undefined);
      socket.once('close', () => closedAt.push(Date.now() - started));
      socket.write(`POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${4 * 1024 * 1024 - 1}\r\nX-Slack-Request-Timestamp: ${now()}\r\nX-Slack-Signature: v0=${'0'.repeat(64)}\r\n\r\n`);
      socket.write(Buffer.alloc(3 * 1024 * 1024, 97));
    }
    try {
      // 16 MiB holds five of them: the other seven are closed by the cap as their bytes arrive, not by Slack's 3 s
      // deadline (the log says which closed each; a time measured here would only measure the machine's load).
      const capped = () => logged(/request refused/).slice(refusedBefore).filter((l) => l.reason === 'unverified bodies in flight over 16 MiB: the largest is closed').length;
      await eventually(async () => capped() >= 7 && closedAt.length >= 7, { what: 'seven stalls closed by the cap', timeoutMs: 20_000 });
      // A real command, small, is answered meanwhile.
      expect((await stack.slash('help')).status).toBe(200);
    } finally {
      for (const socket of stalled) socket.destroy();
    }
  });

  // Found by an attacker's try: a metrics store address with a password in it was accepted, kept in the plan job's data
  // and shown in the channel's thread.
  it('refuses a fix parameter that carries credentials, privately and without repeating them, and queues nothing', async () => {
    const left = await traces();
    const before = stack.fake.calls().length;
    for (const address of ['http://admin:Sup3rS3cret@prometheus-server.monitoring.svc:80', 'http://Sup3rS3cret@prometheus-server.monitoring.svc', 'http://prometheus-server.monitoring.svc:80/api?token=Sup3rS3cret']) {
      const res = await stack.slash(`fix dashboards-missing metricsStore=${address}`, requester);
      expect(res.status).toBe(200);
      const answer = res.json as { response_type: string; text: string };
      expect(answer.response_type).toBe('ephemeral');
      expect(answer.text).toContain('`metricsStore` is refused: it carries credentials');
      expect(res.text).not.toContain('Sup3rS3cret');
    }
    expect(JSON.stringify(stack.fake.calls().slice(before))).not.toContain('Sup3rS3cret');
    expect(await traces()).toEqual(left);
  });

  // Found in review: a refused value was repeated (up to 60 characters of it) in the answer, so a token pasted in the
  // wrong place was shown back; a URL that was not one ("port 99999") came back whole, password included.
  it('refuses a fix whose words carry a token or a URL password, saying what is wrong without repeating the secret', async () => {
    const token = 'ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5';
    const left = await traces();
    const before = stack.fake.calls().length;
    const logsBefore = logLines.length;
    const cases: Array<[string, string]> = [
      [`fix git-sensor-volume-full size=${token}`, '`size=[redacted]` is not valid: the new size of the claim, e.g. `size=20Gi`'],
      ['fix dashboards-missing metricsStore=http://admin:Sup3rS3cret@prometheus:99999', '`metricsStore=http://admin:[redacted]@prometheus:99999` is refused: http://admin:[redacted]@prometheus:99999 is not a URL'],
      [`fix dashboards-missing token=${token}`, 'Type `/platform fix dashboards-missing sim metricsStore=&lt;metrics-store-URL&gt; token=[redacted]`'],
      [`fix build-logs ${token}`, 'There is no cluster `[redacted]`.'],
      [`fix ${token}`, 'There is no remedy `[redacted]`.'],
    ];
    for (const [command, says] of cases) {
      const res = await stack.slash(command, requester);
      expect(res.status).toBe(200);
      const answer = res.json as { response_type: string; text: string };
      expect(answer.response_type, command).toBe('ephemeral');
      expect(answer.text, command).toContain(says);
      expect(res.text, command).not.toContain(token);
      expect(res.text, command).not.toContain('Sup3rS3cret');
    }
    const after = JSON.stringify(stack.fake.calls().slice(before)) + logLines.slice(logsBefore).join('\n');
    expect(after).not.toContain(token);
    expect(after).not.toContain('Sup3rS3cret');
    expect(await traces()).toEqual(left);
  });

  it('answers a 10 KB command, one with NUL bytes and one of only whitespace at once, privately, with a short answer', async () => {
    const answer = async (text: string) => {
      const res = await stack.slash(text);
      expect(res.status).toBe(200);
      return res.json as { response_type: string; text: string; blocks: unknown };
    };
    const long = await answer(`fix ${'a'.repeat(10_000)}`);
    expect(long).toMatchObject({ response_type: 'ephemeral', text: `There is no remedy \`${'a'.repeat(60)}\`.` });
    const nul = await answer('fix build-logs\u0000');
    expect(nul).toMatchObject({ response_type: 'ephemeral', text: 'There is no remedy `build-logs\\x00`. Closest: build-logs.' }); // the NUL shown escaped, never raw
    for (const blank of ['   ', '\t \n', '\u00a0\u2003']) expect(blocksText((await answer(blank)).blocks), JSON.stringify(blank)).toContain('/platform fix <id> [cluster]');
  });

  it("answers an event and Slack's retries of it arriving together (X-Slack-Retry-Num 1 and 2) once", async () => {
    const ts = '1795100000.000110';
    const event = { type: 'message', channel, channel_type: 'channel', user: requester, text: 'git-sensor: fatal: could not read Username: exit status 128', ts, event_ts: ts };
    const body = eventCallbackBody(event, 'Ev0HARDENRETRY3');
    const events = await requestsHandled(stack.eventsUrl, 'event');
    const deliveries = [0, 1, 2].map((n) =>
      postSigned(stack.eventsUrl, body, { secret: signingSecret, contentType: 'application/json', timestamp: now() - n, headers: n ? { 'x-slack-retry-num': String(n), 'x-slack-retry-reason': 'http_timeout' } : {} }),
    );
    expect((await Promise.all(deliveries)).map((r) => r.status)).toEqual([200, 200, 200]);
    await handled('event', events, 3);
    await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.thread_ts === ts));
    expect(stack.fake.messages(channel).filter((m) => m.thread_ts === ts)).toHaveLength(1);
  });

  it("refuses a click from another channel or another workspace than the card's, privately, audited, and runs nothing", async () => {
    await stack.sim.break('git-sensor-stuck');
    expect((await stack.slash('fix git-sensor-stuck')).status).toBe(200);
    const root = await stack.fake.waitFor((f) => f.messages(channel).find((m) => !m.thread_ts && m.text.includes('git-sensor-stuck')));
    const card = await stack.fake.waitFor((f) => f.thread(channel, root.ts).find((m) => hasButton(m, 'remedy-approve')), { timeoutMs: 15_000 });
    const requestId = requestIdOf(card);

    const elsewhere = await stack.click(card, 'remedy-approve', approver, { channel: 'C0ELSEWHERE' });
    const otherTeam = await stack.click(card, 'remedy-approve', approver, { teamId: 'T0OTHERTEAM' });
    for (const click of [elsewhere, otherTeam]) {
      expect(click.response.status).toBe(200);
      const answer = await stack.fake.waitFor((f) => f.responses(click.responseId)[0]);
      expect(answer.body).toMatchObject({ response_type: 'ephemeral', text: "This button belongs to an approval card in another channel or workspace; nothing was done." });
    }
    // Each refusal is sent once its click was decided: by now, the clicks have done all they would.
    expect((await stack.bot.coordinator.store.get(requestId))?.status).toBe('awaiting-approval');
    expect((await stack.queue.getJobs(['waiting', 'active', 'completed', 'delayed'])).filter((j) => j.name === 'run' && (j.data as { plan: { requestId: string } }).plan.requestId === requestId)).toEqual([]);
    const refusals = (await stack.bot.coordinator.audit.latest(20)).filter((r) => r.action === 'refused' && r.requestId === requestId);
    expect(refusals.map((r) => r.detail)).toEqual([
      `a click from channel ${channel} of workspace T0OTHERTEAM, not the card's (${channel} of T0MEDIC01)`,
      `a click from channel C0ELSEWHERE of workspace T0MEDIC01, not the card's (${channel} of T0MEDIC01)`,
    ]);

    // The card still works from where it is.
    await stack.click(card, 'remedy-approve', approver);
    // git-sensor-stuck's detector sees the symptom gone after the run (issue 12 item 8).
    await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.ts === root.ts && m.text.endsWith('✅ symptom cleared')), { timeoutMs: 20_000 });
  });
});
