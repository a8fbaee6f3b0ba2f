import { WebAPIRateLimitedError } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WriteScheduler, type WriteSchedulerOptions } from '../../src/slack/write-scheduler.js';

/**
 * The order of the bot's writes to Slack, on the scheduler alone: each "write" records when it ran and
 * can be held open or refused with Slack's rate-limited error. The clock is vitest's fake one, so
 * Retry-After seconds and ages pass instantly and exactly.
 */

const rateLimited = (seconds: number) => new WebAPIRateLimitedError(seconds);

describe('the write scheduler: remedy messages first, paste answers after', () => {
  let log: string[];
  let stale: number;
  let limited: string[];

  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
    log = [];
    stale = 0;
    limited = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const scheduler = (options: Partial<WriteSchedulerOptions> = {}) =>
    new WriteScheduler({ pasteMaxAgeMs: 30_000, pasteIntervalMs: 1000, concurrency: 1, rateLimitRetries: 5, onStale: () => stale++, onRateLimited: (lane) => limited.push(lane), ...options });
  /** A write that records its name and the time it ran. */
  const write = (name: string) => async () => {
    log.push(`${name}@${Date.now()}`);
    return name;
  };
  /** A write held open until `release` is called. */
  function held(name: string): { call: () => Promise<string>; release: () => void } {
    let release = () => undefined as void;
    const open = new Promise<void>((r) => (release = r));
    return {
      call: async () => {
        log.push(`${name}@${Date.now()}`);
        await open;
        return name;
      },
      release: () => release(),
    };
  }

  it('sends a remedy message queued behind many paste answers before all of them but the one in flight', async () => {
    const s = scheduler();
    const first = held('paste-0');
    const done = [s.paste('C1', first.call)];
    // Each paste in a channel of its own, so pacing holds none of them back: only the lanes decide.
    for (let i = 1; i <= 5; i++) done.push(s.paste(`C${i + 1}`, write(`paste-${i}`)));
    const card = s.remedy('C9', write('card'));
    first.release();
    await Promise.all([...done, card]);
    expect(log.map((l) => l.split('@')[0])).toEqual(['paste-0', 'card', 'paste-1', 'paste-2', 'paste-3', 'paste-4', 'paste-5']);
  });

  it('holds every paste answer while a remedy message waits out a Retry-After, even in another channel', async () => {
    const s = scheduler({ concurrency: 4 });
    let refusals = 1;
    const progress = s.remedy('C1', async () => {
      log.push(`progress@${Date.now()}`);
      if (refusals-- > 0) throw rateLimited(2);
      return 'progress';
    });
    await vi.advanceTimersByTimeAsync(0);
    const answer = s.paste('C2', write('answer'));
    await vi.advanceTimersByTimeAsync(1999);
    expect(log).toEqual(['progress@0']);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all([progress, answer]);
    expect(log).toEqual(['progress@0', 'progress@2000', 'answer@2000']);
    expect(limited).toEqual(['remedy']);
  });

  it('after a 429 the paste lane backs off first and longest: the remedy message gets the reopened window', async () => {
    const s = scheduler({ concurrency: 4 });
    let refusals = 1;
    const refused = s.paste('C1', async () => {
      log.push(`answer-1@${Date.now()}`);
      if (refusals-- > 0) throw rateLimited(1);
      return 'answer-1';
    });
    await vi.advanceTimersByTimeAsync(0);
    const next = s.paste('C1', write('answer-2'));
    const card = s.remedy('C1', write('card'));
    await vi.advanceTimersByTimeAsync(10_000);
    await Promise.all([refused, next, card]);
    // The card waits only for Slack's Retry-After (1 s); paste answers for twice that plus their pacing.
    expect(log).toEqual(['answer-1@0', 'card@1000', 'answer-1@3000', 'answer-2@4000']);
    expect(limited).toEqual(['paste']);
  });

  it("paces paste answers to one a second per channel, without holding other channels' answers", async () => {
    const s = scheduler({ concurrency: 8 });
    const all = [s.paste('C1', write('a1')), s.paste('C1', write('a2')), s.paste('C1', write('a3')), s.paste('C2', write('b1'))];
    await vi.advanceTimersByTimeAsync(5000);
    await Promise.all(all);
    expect(log).toEqual(['a1@0', 'b1@0', 'a2@1000', 'a3@2000']);
  });

  it('drops paste answers that waited longer than the bound, counts them, and never sends them late', async () => {
    const s = scheduler({ concurrency: 8, pasteMaxAgeMs: 3500 });
    const answers = Array.from({ length: 10 }, (_, i) => s.paste('C1', write(`a${i}`)));
    await vi.advanceTimersByTimeAsync(60_000);
    const results = await Promise.all(answers);
    // Paced at 1 s, four go out (0, 1, 2, 3 s); at 3.5 s the six still waiting are dropped.
    expect(log).toEqual(['a0@0', 'a1@1000', 'a2@2000', 'a3@3000']);
    expect(results).toEqual(['a0', 'a1', 'a2', 'a3', undefined, undefined, undefined, undefined, undefined, undefined]);
    expect(stale).toBe(6);
  });

  it("drops a paste answer's follow-up (its cluster evidence) that waited too long without counting an answer lost", async () => {
    const s = scheduler({ concurrency: 8, pasteMaxAgeMs: 1500 });
    const writes = [s.paste('C1', write('answer')), s.paste('C1', write('late answer')), s.paste('C1', write('evidence'), true)];
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await Promise.all(writes)).toEqual(['answer', 'late answer', undefined]);
    expect(stale).toBe(0);
  });

  it('never drops a remedy message, and fails it with Slack\'s error only after the retries are spent', async () => {
    const s = scheduler({ rateLimitRetries: 2, pasteMaxAgeMs: 1000 });
    const always = s.remedy('C1', async () => {
      log.push(`result@${Date.now()}`);
      throw rateLimited(5);
    });
    const outcome = always.catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await outcome).toBeInstanceOf(WebAPIRateLimitedError);
    expect(log).toEqual(['result@0', 'result@5000', 'result@10000']);
    expect(stale).toBe(0);
  });

  it('on close, drops the paste answers still waiting and sends the remedy messages', async () => {
    const s = scheduler();
    const first = held('answer-0');
    const answers = [s.paste('C1', first.call), s.paste('C2', write('answer-1'))];
    const result = s.remedy('C1', write('result'));
    const closed = s.close();
    first.release();
    await closed;
    expect(await Promise.all([...answers, result])).toEqual(['answer-0', undefined, 'result']);
    expect(await s.paste('C3', write('late'))).toBeUndefined();
    expect(log.map((l) => l.split('@')[0])).toEqual(['answer-0', 'result']);
  });
});
