import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approver, bystander, requester, startStack, type Stack } from '../support/stack.js';

/** Doctor jobs of the cluster's queue asked for by `user`, in any state. */
async function doctorJobsBy(stack: Stack, user: string): Promise<number> {
  const jobs = await stack.queue.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed']);
  return jobs.filter((j) => j.name === 'doctor' && (j.data as { requestedBy?: string }).requestedBy === user).length;
}

/** What each of the commands' response URLs got, once every one got something. */
async function answers(stack: Stack, ids: readonly string[]): Promise<{ response_type: string; text: string }[]> {
  return stack.fake.waitFor(
    (f) => {
      const got = ids.map((id) => f.responses(id)[0]?.body as { response_type: string; text: string } | undefined);
      return got.every((g) => g !== undefined) ? (got as { response_type: string; text: string }[]) : undefined;
    },
    { timeoutMs: 30_000 },
  );
}

describe('a flood of /platform doctor (a full scan of the cluster per command)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('doctor-flood', { hideMarkers: true });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('from one person: every command is answered, but the cluster is scanned a bounded number of times; the rest are told why, privately', async () => {
    const n = 12;
    const ids = Array.from({ length: n }, (_, i) => `flood-${i}`);
    const acks = await Promise.all(ids.map((id) => stack.slash('doctor', requester, { responseId: id })));
    expect(acks.map((a) => a.status)).toEqual(ids.map(() => 200));
    const got = await answers(stack, ids);
    const scans = got.filter((g) => g.response_type === 'in_channel');
    const refused = got.filter((g) => g.response_type === 'ephemeral');
    // The per-person budget (doctorsPerUserPerMinute, 3) admits three; those three share one scan.
    expect(scans).toHaveLength(stack.config.doctorsPerUserPerMinute);
    expect(refused).toHaveLength(n - stack.config.doctorsPerUserPerMinute);
    for (const s of scans) expect(s.text).toBe('Doctor on sim: no symptom present');
    for (const r of refused) expect(r.text).toMatch(/^You have asked for \d+ doctors? in the last minute, the most one person may; the last result is in `\/platform status sim`\. Try again in \d+ s\.$/);
    // One person's flood costs the cluster at most a few scans, not one per command.
    expect(await doctorJobsBy(stack, requester)).toBeLessThanOrEqual(3);
  });

  it('from several people at once: they share the scan under way rather than each queuing one', async () => {
    const people = [approver, bystander, 'U0OTHER1', 'U0OTHER2', 'U0OTHER3'];
    const ids = people.map((p) => `together-${p}`);
    await Promise.all(people.map((p, i) => stack.slash('doctor', p, { responseId: ids[i] })));
    const got = await answers(stack, ids);
    for (const g of got) expect(g).toMatchObject({ response_type: 'in_channel', text: 'Doctor on sim: no symptom present' });
    const jobs = (await Promise.all(people.map((p) => doctorJobsBy(stack, p)))).reduce((a, b) => a + b, 0);
    expect(jobs).toBeLessThanOrEqual(2);
  });
});
