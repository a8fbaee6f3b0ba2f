import type { Logger } from 'pino';
import { verificationSchema } from '../../doctor/report-schema.js';
import type { Verification } from '../../doctor/verify.js';
import type { EndedRun } from './reporter.js';

/** What a look at the symptom after a run says, in the metrics' and the audit trail's words. */
export type VerificationResult = 'cleared' | 'still-present' | 'unknown' | 'not-observable';

export function resultOf(v: Verification): VerificationResult {
  const state = v.finding.state;
  return state === 'absent' ? 'cleared' : state === 'present' ? 'still-present' : state;
}

/**
 * A finished run as the bot may show it: the worker's look at the symptom is checked like a doctor's
 * report; one this bot cannot read is left out (the stage then ends as "every step finished").
 */
export function checkedRun(outcome: EndedRun, logger: Logger, requestId: string): EndedRun {
  if (outcome.status !== 'completed' || outcome.verification === undefined) return outcome;
  const parsed = verificationSchema.safeParse(outcome.verification);
  if (parsed.success) return { ...outcome, verification: parsed.data };
  logger.warn({ requestId, issue: parsed.error.issues[0]?.message }, "the worker's look at the symptom could not be read; is it older than the bot?");
  const { verification: _dropped, ...rest } = outcome;
  return rest;
}

const lookCount = (v: Verification) => `${v.looks} look${v.looks === 1 ? '' : 's'} over ${(v.waitedMs / 1000).toFixed(1)} s`;

/** One line for the audit trail: the verdict, how long it looked, and the first piece of evidence. */
export function auditDetail(v: Verification): string {
  const f = v.finding;
  switch (f.state) {
    case 'absent':
      return `symptom cleared (${lookCount(v)})`;
    case 'present': {
      const first = f.evidence[0];
      const more = f.evidence.length > 1 ? ` (and ${f.evidence.length - 1} more)` : '';
      return `still present after ${lookCount(v)}${first ? `: ${first.object} ${first.detail}${more}` : ''}`;
    }
    case 'unknown':
      return `could not tell (${f.reason ?? 'error'})${f.message ? `: ${f.message}` : ''}`;
    case 'not-observable':
      return 'not observable from the cluster';
  }
}
