import type { Agent } from 'node:http';
import { slashCommandBody } from '../../test/support/slack-requests.js';
import { postSigned, type Outcome } from './http.js';
import { percentiles, type Percentiles } from './stats.js';

/**
 * The open-loop load of the Slack bar: at every tick of a fixed schedule, the same signed
 * `/platform` command goes to every target (their order alternating tick by tick), whether or not
 * earlier requests have been answered. Bounded: `ticks` requests per target, each given up on after
 * Slack's 3 s.
 */

/** One app under load. */
export interface LoadTarget {
  readonly name: string;
  readonly port: number;
  readonly agent: Agent;
}

/** The realistic mix: 8 in 10 answered in the ack (help, list, explain), 2 in 10 fixes. */
const commandMix = ['help', 'list', 'explain build-logs', 'fix', 'list', 'help', 'explain git-sensor-stuck', 'list', 'help', 'fix'] as const;

/**
 * The entries the fixes ask for, in turn: build-logs first, and three more whose plans need no
 * parameter, because the product runs one remedy per entry and cluster at a time.
 */
export const fixEntries = ['build-logs', 'sso-login', 'terminal-disconnects', 'rollout-invalid-json'] as const;

/**
 * The command of a tick, and who sends it: 10,000 people in turn. Fixes fall on 2 ticks in 10, so
 * 2,000 people ask for them, each at most 7 times in a run with the 10-minute soak: the hourly limit per person
 * (10) never refuses, and the soak keeps planning, posting cards and denying to its end.
 */
export function commandAt(tick: number): { text: string; user: string } {
  const word = commandMix[tick % commandMix.length]!;
  const fixes = Math.floor(tick / commandMix.length) * 2 + (tick % commandMix.length > 3 ? 1 : 0);
  return { text: word === 'fix' ? `fix ${fixEntries[fixes % fixEntries.length]}` : word, user: `U0LOAD${tick % 10_000}` };
}

/** What one target saw under the load. */
export interface TargetLoad {
  readonly name: string;
  readonly sent: number;
  /** Over the 200 responses only. */
  readonly latency: Percentiles;
  /** Non-200 answers, socket errors and timeouts. */
  readonly errors: number;
  readonly errorKinds: Record<string, number>;
  /** Latency by command word (help, list, explain, fix). */
  readonly byCommand: Record<string, Percentiles>;
}

/** The whole load run. */
export interface LoadResult {
  readonly targets: TargetLoad[];
  /** How late the generator's ticks fired, p99 and max: lateness of the sender, not of the targets. */
  readonly tickLag: Percentiles;
  readonly fixesPerTarget: number;
  readonly wallMs: number;
}

/** What a load run needs. */
export interface LoadOptions {
  readonly targets: readonly LoadTarget[];
  readonly perSecond: number;
  readonly ticks: number;
  readonly secret: string;
  readonly channel: string;
  /** Base of the response URLs put in the commands (the fake Slack's). */
  readonly responseBase: string;
  readonly timeoutMs?: number;
}

/** Runs the schedule and waits for every request's answer (or its timeout). */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { targets, perSecond, ticks, secret } = options;
  const interval = 1000 / perSecond;
  const results: { target: number; command: string; outcome: Outcome }[] = [];
  const inFlight: Promise<void>[] = [];
  const lags: number[] = [];
  const start = performance.now() + 20;

  const fire = (tick: number): void => {
    const { text, user } = commandAt(tick);
    const order = tick % 2 === 0 ? targets.map((_, i) => i) : targets.map((_, i) => targets.length - 1 - i);
    for (const t of order) {
      const body = slashCommandBody({ text, user_id: user, channel_id: options.channel, response_url: `${options.responseBase}/response/load-${t}-${tick}` });
      inFlight.push(
        postSigned(targets[t]!.port, targets[t]!.agent, body, secret, options.timeoutMs ?? 3_000).then((outcome) => {
          results.push({ target: t, command: text.split(' ')[0]!, outcome });
        }),
      );
    }
  };

  await new Promise<void>((resolve) => {
    let next = 0;
    const tick = (): void => {
      const now = performance.now();
      while (next < ticks && start + next * interval <= now) {
        lags.push(now - (start + next * interval));
        fire(next++);
      }
      if (next >= ticks) return resolve();
      setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
    };
    setTimeout(tick, 20);
  });
  await Promise.all(inFlight);
  const wallMs = performance.now() - start;

  return {
    targets: targets.map((target, t) => {
      const mine = results.filter((r) => r.target === t);
      const good = mine.filter((r) => r.outcome.status === 200);
      const errorKinds: Record<string, number> = {};
      for (const r of mine) {
        if (r.outcome.status === 200) continue;
        const kind = r.outcome.error ?? `HTTP ${r.outcome.status}`;
        errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
      }
      const byCommand: Record<string, Percentiles> = {};
      for (const command of new Set(good.map((r) => r.command))) {
        byCommand[command] = percentiles(good.filter((r) => r.command === command).map((r) => r.outcome.ms));
      }
      return {
        name: target.name,
        sent: mine.length,
        latency: percentiles(good.map((r) => r.outcome.ms)),
        errors: mine.length - good.length,
        errorKinds,
        byCommand,
      };
    }),
    tickLag: percentiles(lags),
    fixesPerTarget: Array.from({ length: ticks }, (_, i) => commandAt(i).text).filter((c) => c.startsWith('fix')).length,
    wallMs,
  };
}
