import type { Config } from '../config.js';
import { findCluster } from '../config.js';
import type { DoctorReport, Finding } from '../doctor/index.js';
import type { RemedyCoordinator } from '../jobs/lifecycle/coordinator.js';
import { fixCommand, needsLine } from './fix-hint.js';
import { noSuchCluster } from './fix.js';
import { matchActionIds } from './match.js';
import { code, command, joined, lines, note, para, says, strong, t, type Choice, type Inline, type Part, type View } from './view.js';

/** The queue side's part of `doctor`, as the core uses it (the coordinator's public method). */
export type DoctorDesk = Pick<RemedyCoordinator, 'runDoctor'>;

/**
 * What a "Plan fix" under a doctor's finding carries: the entry, the cluster it was seen on, and the
 * values of the fix's parameters the evidence shows (the finding's `fixParams`), when there are any.
 */
export interface DoctorPlanFixRef {
  e: string;
  c: string;
  p?: Readonly<Record<string, string>>;
}

/** The Plan fix of a finding: its button's value and the line that plans the same fix, with the values the doctor saw. */
export function planFixChoice(f: Finding, cluster: string): Choice {
  const value: DoctorPlanFixRef = { e: f.id, c: cluster, ...(f.fixParams ? { p: f.fixParams } : {}) };
  return { label: 'Plan fix', action: matchActionIds.planFix, value, style: 'primary', command: fixCommand(f.id, cluster, f.fixParams) };
}

/** Why a detector could not tell, in the person's terms. */
export const unknownWhy: Record<string, string> = {
  forbidden: 'the worker may not read it',
  // The cluster's API, or what the detector reads beside it (the metrics dashboard, the database): the message says which.
  unreachable: 'no answer',
  'not-installed': 'not installed',
  error: 'could not be read',
};

/** Symptoms shown with their evidence and Plan fix in one answer; the rest are named in one line. */
const detailedMax = 12;

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

/** Entries that could not be judged for the same reason share one line (an unreachable cluster is one line, not twenty). */
function unknownLines(unknown: readonly Finding[]): Inline[] {
  const groups = new Map<string, Finding[]>();
  for (const f of unknown) {
    const key = `${f.reason ?? 'error'}\u0000${f.message ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  return [...groups.values()].map((fs) => {
    const { reason, message } = fs[0]!;
    return t`${joined(fs.map((f) => [code(f.id)]), ', ')} — ${unknownWhy[reason ?? 'error'] ?? 'could not be read'}${message ? `: ${message}` : ''}`;
  });
}

function presentParts(f: Finding, cluster: string): Part[] {
  const needs = needsLine(f.id, f.fixParams);
  return [
    para(t`🩺 ${strong(f.title)} (${code(f.id)}, guide ${f.ref}) — seen in ${code(cluster)}`),
    // What Plan fix needs goes with the evidence: three blocks a symptom keep the answer within Slack's fifty.
    lines([...f.evidence.map((e) => t`${code(e.object)} ${e.detail}`), ...(needs ? [needs] : [])]),
    { kind: 'choices', id: `doctor-${f.id}`, choices: [planFixChoice(f, cluster)] },
  ];
}

/**
 * A doctor's answer: each symptom present with its evidence and Plan fix; the entries it could not
 * judge, with why; the not-observable ones folded into one line; how long it took.
 */
export function doctorView(report: DoctorReport, cluster: string): View {
  const present = report.findings.filter((f) => f.state === 'present');
  const unknown = report.findings.filter((f) => f.state === 'unknown' && f.reason !== 'no-detector');
  const pending = report.findings.filter((f) => f.reason === 'no-detector');
  const hidden = report.findings.filter((f) => f.state === 'not-observable');
  // "No symptom present" only when every entry that could be checked was: a cluster that cannot be read shows none.
  const untold = unknown.length === 1 ? '1 entry' : `${unknown.length} entries`;
  const headline: Inline =
    present.length > 0
      ? t`${present.length === 1 ? '1 symptom' : `${present.length} symptoms`} of the guide present in ${code(cluster)}.${unknown.length > 0 ? ` ${untold} could not be told (below).` : ''}`
      : unknown.length === 0
        ? t`No symptom of the guide is present in ${code(cluster)}.`
        : t`No symptom of the guide seen in ${code(cluster)}, but ${untold} could not be told (below).`;
  // Three blocks each: past a dozen, a message would pass Slack's fifty blocks and not be shown at all.
  const folded = present.slice(detailedMax);
  const parts: Part[] = [para(t`${strong('Doctor')}: ${headline}`), ...present.slice(0, detailedMax).flatMap((f) => presentParts(f, cluster))];
  if (folded.length > 0) {
    const example = `/platform ${fixCommand(folded[0]!.id, cluster, folded[0]!.fixParams)}`;
    parts.push(para(t`🩺 And ${folded.length} more present in ${code(cluster)}: ${joined(folded.map((f) => [code(f.id)]), ', ')}. Each is planned like the others, e.g. ${command(example)}.`));
  }
  if (unknown.length > 0) parts.push(lines([t`${strong('Could not tell')}`, ...unknownLines(unknown)]));
  const notes: Inline[] = [];
  if (pending.length > 0) notes.push(t`Not checked yet (no detector): ${joined(pending.map((f) => [code(f.id)]), ', ')}.`);
  if (hidden.length > 0) notes.push(t`Not observable from the cluster (a browser, a cloud console, chart values): ${joined(hidden.map((f) => [code(f.id)]), ', ')}; ${code('explain <id>')} says what to check.`);
  notes.push(t`Checked ${report.findings.length - pending.length} entries in ${seconds(report.tookMs)}, read-only.`);
  parts.push(note(...notes));
  const seen = present.length > 0 ? present.map((f) => f.id).join(', ') : unknown.length > 0 ? `no symptom seen, ${unknown.length} could not be told` : 'no symptom present';
  return { summary: t`Doctor on ${cluster}: ${seen}`, parts };
}

/** The cluster a doctor runs on, checked: the one named, or the default. */
export function checkDoctor(config: Config, cluster: string | undefined): { ok: true; cluster: string } | { ok: false; view: View } {
  const name = cluster ?? config.defaultCluster;
  return findCluster(config, name) ? { ok: true, cluster: name } : { ok: false, view: says(noSuchCluster(name, config)) };
}

/** Runs the doctor on a cluster through its queue and answers with what it found. */
export async function doctorAnswer(desk: DoctorDesk, cluster: string, user: string): Promise<View> {
  const result = await desk.runDoctor(cluster, user);
  if (!result.ok) return says(t`The doctor could not run on ${code(cluster)}: ${result.message}`);
  return doctorView(result.report, cluster);
}
