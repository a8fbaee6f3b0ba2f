import type { Verification } from '../../doctor/verify.js';
import type { EndedRun } from '../../jobs/lifecycle/reporter.js';
import type { Plan } from '../../remedies/plan.js';
import { unknownWhy } from '../../core/doctor.js';
import { esc } from './kit.js';

const looks = (v: Verification) => (v.looks === 1 ? '1 look' : `${v.looks} looks over ${(v.waitedMs / 1000).toFixed(1)} s`);
const evidenceLines = (v: Verification) => v.finding.evidence.map((e) => `• \`${esc(e.object)}\` ${esc(e.detail)}`);
const whatItRead = (v: Verification) => (v.looked.length > 0 ? ` It read ${esc(v.looked.join('; '))}.` : '');

/** What the detector's look says of the remedy: the symptom cleared or still present; undefined where it could not tell, or did not look. */
export function verdictOf(outcome: EndedRun): 'cleared' | 'still-present' | undefined {
  const state = outcome.status === 'completed' ? outcome.verification?.finding.state : undefined;
  return state === 'absent' ? 'cleared' : state === 'present' ? 'still-present' : undefined;
}

/**
 * The lines under a remedy's last stage when every step finished: what the entry's detector saw. It
 * decides: "symptom cleared", or "still present" with the evidence and no claim of resolution. Where it
 * cannot tell, one line says why and "every step finished" stands.
 */
export function verificationLines(v: Verification, plan: Plan): string[] {
  const f = v.finding;
  const cluster = `\`${esc(plan.cluster)}\``;
  if (f.state === 'absent') return [`🎉 *Symptom cleared*: the doctor no longer sees it in ${cluster} (${looks(v)}).${whatItRead(v)}`, ...evidenceLines(v)];
  if (f.state === 'present') {
    const manual = plan.steps.some((s) => s.kind === 'manual');
    const next = manual ? 'Do the steps marked "Your turn", then run the doctor again.' : 'The evidence above says where to look; the doctor shows it again at any time.';
    return [`⚠️ *Still present*: every step finished, but the doctor still sees the symptom in ${cluster} after ${looks(v)}:`, ...evidenceLines(v), `Not resolved. ${next}`];
  }
  if (f.state === 'not-observable') return [`🩺 The cluster does not show this symptom; check it yourself: ${esc(f.message ?? 'see the guide')}`];
  if (f.reason === 'no-detector') return ['🩺 The doctor has no check of this symptom yet.'];
  return [`🩺 The doctor could not tell whether the symptom is gone: ${unknownWhy[f.reason ?? 'error'] ?? 'could not be read'}${f.message ? ` (${esc(f.message)})` : ''}.`];
}

/** The notification's words for a last stage whose detector saw the symptom gone, or still there (the cluster's text escaped, as in the blocks). */
export function verificationText(v: Verification): string {
  const first = v.finding.evidence[0];
  if (v.finding.state === 'absent') return '🎉 Symptom cleared.';
  return `⚠️ Still present${first ? `: ${esc(first.object)} ${esc(first.detail)}` : ''}`;
}
