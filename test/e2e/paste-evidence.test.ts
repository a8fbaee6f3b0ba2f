import { Queue } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clusterQueueName } from '../../src/jobs/names.js';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { eventCallbackBody, postSigned } from '../support/slack-requests.js';
import { approver, channel, eventually, requestsHandled, signingSecret, startStack, testRedisUrl, type Stack } from '../support/stack.js';

/**
 * Issue 12 item 7, through the whole product: Bolt's HTTP receiver with signed events, Redis, the
 * worker process, the simulated cluster showing only real signals (its fault marker hidden). A paste
 * is answered from its text at once; its candidates' detectors then run on the cluster and the same
 * message is updated with what they found. Findings are not reused here (reuse 0 s), so each paste
 * reads the cluster as it is; the flood test keeps the default reuse.
 */

let seq = 0;
const nextTs = () => `${1_797_000_000 + ++seq}.000100`;
const backoff = 'Warning  BackoffLimitExceeded  job/postgresql-migrate-devtron  Job has reached the specified backoff limit';

type Button = { action_id: string; value: string; style?: string; text: { text: string } };
const buttons = (m: { blocks?: unknown[] }): Button[] => ((m.blocks ?? []) as { type: string; elements?: Button[] }[]).filter((b) => b.type === 'actions').flatMap((b) => b.elements ?? []);
const primary = (m: { blocks?: unknown[] }) => buttons(m).filter((b) => b.style === 'primary').map((b) => `${b.text.text} ${b.value}`);

describe('pasted errors answered with the cluster\'s evidence', () => {
  let stack: Stack;
  let person = '';
  let people = 0;

  beforeAll(async () => {
    stack = await startStack('paste-evidence', {
      hideMarkers: true,
      // prod-us is configured but no worker serves it: its evidence cannot come.
      extraClusters: [{ name: 'prod-us', approvers: [approver] }],
      env: { PLATFORM_MEDIC_PASTE_EVIDENCE_REUSE_SECONDS: '0' },
    });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });
  beforeEach(() => {
    // A person of their own per test: a person gets 5 paste answers a minute.
    person = `U0EVIDENCE${++people}`;
  });

  async function paste(text: string): Promise<string> {
    const ts = nextTs();
    const event = { type: 'message', channel, channel_type: 'channel', user: person, text, ts, event_ts: ts };
    expect((await postSigned(stack.eventsUrl, eventCallbackBody(event), { secret: signingSecret, contentType: 'application/json' })).status).toBe(200);
    return ts;
  }
  const answerTo = (ts: string): StoredMessage | undefined => stack.fake.messages(channel).find((m) => m.thread_ts === ts);
  /** The answer as first posted (chat.postMessage), before any update. */
  const firstPosted = (ts: string) => stack.fake.calls('chat.postMessage').find((c) => c.args.thread_ts === ts)!.args as { text: string; blocks: unknown[] };
  const updated = (ts: string) => stack.fake.waitFor(() => (answerTo(ts)?.edited ? answerTo(ts) : undefined), { timeoutMs: 20_000, what: 'the answer updated with the evidence' });

  it('on a healthy cluster: answers from the text at once, then says the symptom is not seen and pushes no fix, still letting a person plan it', async () => {
    const ts = await paste(backoff);
    const answer = await updated(ts);
    const first = firstPosted(ts);
    expect(first.text).toMatch(/^Possibly install-jobs-failed \(guide 7\.1\), confidence \d+%$/u);
    expect(blocksText(first.blocks as StoredMessage['blocks'])).toContain('🩺 Checking `sim` for this symptom (read-only)…');
    expect(primary(first)).toEqual(['Plan fix {"e":"install-jobs-failed"}']);

    expect(answer.text).toMatch(/^Possibly install-jobs-failed \(guide 7\.1\) by the text, confidence \d+%; not seen in sim right now$/u);
    expect(blocksText(answer.blocks)).toContain('🩺 not seen in `sim` right now, so I am not proposing this fix; plan it anyway if you know better');
    expect(primary(answer)).toEqual([]);
    expect(buttons(answer).map((b) => b.text.text)).toContain('Plan fix');
    // One message in the thread: updated, not answered twice.
    expect(stack.fake.messages(channel).filter((m) => m.thread_ts === ts)).toHaveLength(1);
  });

  it("on a cluster with the entry's symptom: seen in sim, with the cluster's own objects, and the fix proposed", async () => {
    await stack.sim.break('install-jobs-failed');
    await stack.sim.settle();
    const ts = await paste(backoff);
    const answer = await updated(ts);
    expect(answer.text).toMatch(/^Likely install-jobs-failed \(guide 7\.1\), confidence \d+%; seen in sim$/u);
    expect(blocksText(answer.blocks)).toMatch(/🩺 seen in `sim`: `job\/devtroncd\/postgresql-migrate-devtron` 0\/1 completions, BackoffLimitExceeded \d+[sm] ago; pod postgresql-migrate-devtron-\w+ Failed \(Error, exit 1\)/);
    expect(primary(answer)).toEqual(['Plan fix {"e":"install-jobs-failed"}']);
  });

  it('lets the cluster decide between two equally likely entries: the one seen is proposed, first', async () => {
    // install-jobs-failed is still broken from the test before; build-logs is healthy.
    const ts = await paste('unauthorized when saving global configuration, build logs not visible');
    const answer = await updated(ts);
    const first = firstPosted(ts);
    expect(first.text).toBe('Could be build-logs or install-jobs-failed: which one?');
    expect(primary(first)).toEqual([]);
    expect(answer.text).toBe('Seen in sim: install-jobs-failed (guide 7.1), proposed');
    const text = blocksText(answer.blocks);
    expect(text).toContain('🩺 The cluster decides: of the 2 entries this could be, *Unauthorized error when saving global configuration after install* is the one seen in `sim`.');
    expect(text).toMatch(/`build-logs` — Build logs not visible and build cannot be aborted \(\d+%\) — 🩺 not seen in `sim` right now/);
    expect(primary(answer)).toEqual(['Plan fix {"e":"install-jobs-failed"}']);
    expect(buttons(answer).map((b) => b.text.text)).toContain('Plan fix build-logs');
  });

  it('answers a paste naming a cluster that is not configured with the clusters there are, and the text answer', async () => {
    const handled = await requestsHandled(stack.eventsUrl, 'event');
    const ts = await paste(`cluster: prod-ap\n${backoff}`);
    const answer = await stack.fake.waitFor(() => answerTo(ts), { what: 'the answer' });
    expect(blocksText(answer.blocks)).toContain('🩺 Cluster evidence unavailable: There is no cluster `prod-ap`. Configured clusters: `sim`, `prod-us`. This answer is from the text alone.');
    expect(primary(answer)).toEqual(['Plan fix {"e":"install-jobs-failed"}']);
    // Nothing to read on a cluster that does not exist: once the listener is done, the answer stands as posted.
    await eventually(async () => (await requestsHandled(stack.eventsUrl, 'event')) > handled, { what: 'the paste handled' });
    expect(answerTo(ts)!.edited).toBeUndefined();
  });

  it("says the evidence is unavailable, and why, when the named cluster's worker is not running; the text answer stands and no job is left queued", async () => {
    const ts = await paste(`seeing this on prod-us since 09:12:\n${backoff}`);
    const answer = await updated(ts);
    expect(blocksText(firstPosted(ts).blocks as StoredMessage['blocks'])).toContain('🩺 Checking `prod-us` for this symptom (read-only)…');
    expect(answer.text).toMatch(/^Possibly install-jobs-failed \(guide 7\.1\), confidence \d+%$/u);
    expect(blocksText(answer.blocks)).toContain('🩺 Cluster evidence unavailable: no worker of prod-us answered within 5 s. This answer is from the text alone.');
    // The cluster was named: Plan fix plans there.
    expect(primary(answer)).toEqual(['Plan fix {"e":"install-jobs-failed","c":"prod-us"}']);
    const queue = new Queue(clusterQueueName('prod-us'), { connection: { url: testRedisUrl }, prefix: stack.config.queuePrefix });
    try {
      expect(await queue.getJobs(['waiting', 'delayed', 'prioritized'])).toEqual([]);
    } finally {
      await queue.close();
    }
  });

  it("answers a paste that shows the guide's fix in place with no fix at all, the line that shows it (redacted), then what the cluster shows of it", async () => {
    const applied = [
      'I set this on our ingress and uploads still fail with 413:',
      '  annotations:',
      '    nginx.ingress.kubernetes.io/proxy-body-size: 200m # PGPASSWORD=Sup3rSecret99',
      '<html><head><title>413 Request Entity Too Large</title></head>',
    ].join('\n');
    const ts = await paste(applied);
    const answer = await updated(ts);
    const first = firstPosted(ts);
    expect(first.text).toBe("The guide's remedy for upload-too-large appears to be applied already; no further remedy");
    expect(blocksText(first.blocks as StoredMessage['blocks'])).toContain('🩺 Checking `sim` for this symptom (read-only)…');
    // Healthy: the platform ingress has its body-size annotation.
    expect(answer.text).toBe("The guide's remedy for upload-too-large appears to be applied already; no further remedy");
    const text = blocksText(answer.blocks);
    expect(text).toContain("appears to be applied already and the error persists; the guide has nothing further for it. I am not proposing it again");
    expect(text).toContain('line 3: `nginx.ingress.kubernetes.io/proxy-body-size: 200m # PGPASSWORD=[redacted]`');
    expect(text).toContain('🩺 not seen in `sim` right now');
    expect(JSON.stringify(answer)).not.toContain('Sup3rSecret99');
    // Nothing to plan: only explaining, and no primary choice.
    expect(primary(answer)).toEqual([]);
    expect(buttons(answer).map((b) => b.text.text)).toEqual(['Explain upload-too-large']);
    expect(stack.fake.messages(channel).filter((m) => m.thread_ts === ts)).toHaveLength(1);

    // With the symptom present, the cluster's objects are shown, and still no fix is proposed.
    await stack.sim.break('upload-too-large');
    await stack.sim.settle();
    const again = await paste(applied);
    const seen = await updated(again);
    expect(seen.text).toBe("The guide's remedy for upload-too-large appears to be applied already; no further remedy");
    expect(blocksText(seen.blocks)).toMatch(/🩺 seen in `sim`: `ingress\/devtroncd\/[\w-]+`/);
    expect(buttons(seen).map((b) => b.text.text)).toEqual(['Explain upload-too-large']);
  });

  it('answers /platform match privately from the text, then replaces that answer with the evidence', async () => {
    const res = await stack.slash(`match cluster: sim ${backoff}`, person, { responseId: 'match-evidence' });
    expect(res.json).toMatchObject({ response_type: 'ephemeral', text: expect.stringMatching(/^Possibly install-jobs-failed \(guide 7\.1\), confidence \d+%$/) });
    expect(JSON.stringify(res.json)).toContain('Checking `sim` for this symptom');
    const response = await stack.fake.waitFor((f) => f.responses('match-evidence')[0], { timeoutMs: 20_000, what: 'the evidence' });
    const body = response.body as { response_type: string; replace_original: boolean; text: string; blocks: StoredMessage['blocks'] };
    expect(body).toMatchObject({ response_type: 'ephemeral', replace_original: true, text: expect.stringMatching(/^Likely install-jobs-failed \(guide 7\.1\), confidence \d+%; seen in sim$/) });
    expect(primary(body)).toEqual(['Plan fix {"e":"install-jobs-failed","c":"sim"}']);
  });
});
