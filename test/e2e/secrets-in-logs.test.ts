import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RecordedCall, StoredMessage } from '../fakes/slack-api.js';
import { eventCallbackBody, postSigned, type SignedResponse } from '../support/slack-requests.js';
import { approver, channel, secondApprover, signingSecret, startStack, testRedisUrl, type Stack } from '../support/stack.js';

const secretRef = { group: '', version: 'v1', plural: 'secrets' };
const hasButton = (m: StoredMessage, prefix: string) =>
  (m.blocks ?? []).some((b) => b.type === 'actions' && (b as unknown as { elements: { action_id: string }[] }).elements.some((e) => e.action_id.startsWith(prefix)));

/** Every key under the prefix with its whole value, whatever its type, as text to search. */
async function redisDump(redis: Redis, prefix: string): Promise<{ keys: string[]; types: Set<string>; text: string }> {
  const keys: string[] = [];
  const types = new Set<string>();
  const parts: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  for (const key of keys) {
    const type = await redis.type(key);
    types.add(type);
    const value =
      type === 'string' ? await redis.get(key)
      : type === 'hash' ? await redis.hgetall(key)
      : type === 'list' ? await redis.lrange(key, 0, -1)
      : type === 'set' ? await redis.smembers(key)
      : type === 'zset' ? await redis.zrange(key, 0, -1, 'WITHSCORES')
      : type === 'stream' ? await redis.xrange(key, '-', '+')
      : `unsearched type ${type}`;
    parts.push(`${key} ${type} ${JSON.stringify(value)}`);
  }
  return { keys, types, text: parts.join('\n') };
}

/** Which secret shows up where, by the secret's name: the failure message must not print the secret itself. */
function leaks(haystacks: Record<string, string>, needles: Record<string, string>): string[] {
  return Object.entries(haystacks).flatMap(([where, text]) =>
    Object.entries(needles)
      .filter(([, value]) => text.includes(value))
      .map(([name]) => `${where} contains the ${name}`),
  );
}

describe('no secret reaches a log, Redis, the audit trail or a public Slack call, at the most verbose log level', () => {
  let stack: Stack;
  let botLog = '';
  const acks: SignedResponse[] = [];
  const passwordOf = (s: Stack) => Buffer.from((s.sim.get(secretRef, 'devtroncd', 'devtron-secret') as { data: Record<string, string> }).data['ADMIN_PASSWORD']!, 'base64').toString('utf8');
  // A paste carrying secrets the redaction recognises by shape, not by being known.
  const pastedPassword = 'Pa55-pasted-7Qz!';
  const pastedToken = `ghp_${'Zq8'.repeat(12)}`;

  beforeAll(async () => {
    // 'trace' is the most verbose level config.ts accepts.
    stack = await startStack('secrets', { env: { LOG_LEVEL: 'trace' }, botLog: new Writable({ write: (c: Buffer, _e, cb) => ((botLog += c.toString()), cb()) }) });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function slash(text: string, user: string): Promise<void> {
    const res = await stack.slash(text, user);
    expect(res.status).toBe(200);
    acks.push(res);
  }

  /**
   * Everything that handles a secret, done once by whichever test needs it first: the password shown
   * (5.1), reset and shown again (5.2), a paste carrying secrets, and the audit trail read. Each test
   * asserts its part; the last searches everywhere these went.
   */
  let handled: Promise<Awaited<ReturnType<typeof handleSecrets>>> | undefined;
  const secretsHandled = () => (handled ??= handleSecrets());
  async function handleSecrets() {
    const firstPassword = passwordOf(stack);
    await slash('fix admin-password', approver);
    const firstShown = await stack.fake.waitFor((f) => f.ephemerals(approver).find((e) => e.text.includes(firstPassword)), { what: 'ephemeral password', timeoutMs: 20_000 });
    const notice = await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.text.startsWith(`🔑 Sent privately to <@${approver}>`)), { what: 'thread notice' });

    await stack.sim.break('admin-password-reset');
    await slash('fix admin-password-reset', approver);
    const card = await stack.fake.waitFor((f) => f.messages(channel).find((m) => hasButton(m, 'remedy-approve') && m.text.includes('admin')), { what: 'approval card', timeoutMs: 15_000 });
    await stack.click(card, 'remedy-approve', secondApprover);
    const secondShown = await stack.fake.waitFor((f) => f.ephemerals(approver).filter((e) => e.text.startsWith('🔑 Admin password'))[1], { what: 'second ephemeral password', timeoutMs: 30_000 });
    const secondPassword = passwordOf(stack);
    const resetRoot = await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.text.includes('(`admin-password-reset`, guide 5.2)') && m.text.endsWith('✅ done')), { what: 'root marked done', timeoutMs: 15_000 });

    const ts = '1795100000.000100';
    const event = { type: 'message', channel, channel_type: 'channel', user: approver, text: `login fails: invalid username or password; tried password=${pastedPassword} and token ${pastedToken}`, ts, event_ts: ts };
    const res = await postSigned(stack.eventsUrl, eventCallbackBody(event), { secret: signingSecret, contentType: 'application/json' });
    expect(res.status).toBe(200);
    // Its candidates are checked on the cluster (a doctor job, whose findings must not leak either); the answer then carries them.
    const pasteAnswer = await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.thread_ts === ts && m.edited), { what: 'paste answer with the cluster evidence', timeoutMs: 20_000 });
    await slash('audit 50', approver);
    return { firstPassword, firstShown, notice, secondPassword, secondShown, resetRoot, pasteAnswer };
  }

  it('shows the admin password (5.1) only to the approver who asked, as an ephemeral message', async () => {
    const { firstPassword, firstShown, notice } = await secretsHandled();
    expect(firstShown.text).toBe(`🔑 Admin password (only you can see this; it is not stored): \`${firstPassword}\``);
    expect(notice.text).not.toContain(firstPassword);
  });

  it('resets the admin password (5.2) after a second approver approves, and shows the new one only to the asker', async () => {
    const { firstPassword, secondPassword, secondShown, resetRoot } = await secretsHandled();
    expect(secondPassword).not.toBe(firstPassword);
    expect(secondShown.text).toContain(`\`${secondPassword}\``);
    expect(resetRoot.text).not.toContain(secondPassword);
  });

  it('answers a paste carrying secrets, showing them redacted', async () => {
    const { pasteAnswer } = await secretsHandled();
    expect(JSON.stringify(pasteAnswer.blocks)).toContain('password=[redacted]');
  });

  it('finds neither password nor the pasted secrets in any log line, Redis key or value, the audit trail or public Slack call', async () => {
    const { firstPassword, secondPassword } = await secretsHandled();
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const needles = {
      'revealed password': firstPassword,
      'reset password': secondPassword,
      'revealed password in base64': b64(firstPassword),
      'reset password in base64': b64(secondPassword),
      'pasted password': pastedPassword,
      'pasted token': pastedToken,
    };
    // The worker's log arrives through a pipe: wait until it has a line for every job that finished.
    const finished = (await stack.queue.getJobs(['completed'])).length;
    // The two fixes' jobs (4) and the doctor job of the paste's candidates (1).
    expect(finished).toBe(5);
    await vi.waitFor(() => expect(stack.workerLog().split('"job finished"').length - 1).toBeGreaterThanOrEqual(finished), { timeout: 10_000 });

    const botLines = botLog.split('\n').filter(Boolean);
    const workerLines = stack.workerLog().split('\n').filter(Boolean);
    // The search means something only if the verbose lines are there: the Web API client's own debug lines and the worker's trace.
    expect(botLines.some((l) => l.includes('"level":20') && l.includes('http request url'))).toBe(true);
    expect(workerLines.some((l) => l.includes('job finished'))).toBe(true);

    const redis = new Redis(testRedisUrl, { maxRetriesPerRequest: 1 });
    const dump = await redisDump(redis, stack.config.queuePrefix);
    const audit = (await redis.xrange(`${stack.config.queuePrefix}:audit`, '-', '+')).map(([, f]) => f.join(' ')).join('\n');
    redis.disconnect();
    expect(dump.keys).toContain(`${stack.config.queuePrefix}:audit`);
    expect([...dump.types]).toEqual(expect.arrayContaining(['hash', 'stream', 'zset']));
    expect(audit).toContain('admin-password-reset');

    // Everything Slack received except the two ephemerals that were meant to carry a password.
    const isTheReveal = (c: RecordedCall) => c.method === 'chat.postEphemeral' && c.args['user'] === approver && String(c.args['text']).startsWith('🔑 Admin password');
    const reveals = stack.fake.calls().filter(isTheReveal);
    expect(reveals).toHaveLength(2);
    const publicCalls = stack.fake.calls().filter((c) => !isTheReveal(c));

    expect(
      leaks(
        {
          'bot log': botLines.join('\n'),
          'worker log': workerLines.join('\n'),
          redis: dump.text,
          'audit trail': audit,
          'Slack calls': JSON.stringify(publicCalls),
          'command answers': acks.map((a) => a.text).join('\n'),
        },
        needles,
      ),
    ).toEqual([]);
  });
});
