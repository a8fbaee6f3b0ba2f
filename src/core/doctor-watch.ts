import type { Finding } from '../doctor/index.js';
import type { ClearedBy } from '../jobs/watch/doctor-watch.js';
import { planFixChoice, type DoctorPlanFixRef } from './doctor.js';
import { needsLine } from './fix-hint.js';
import { code, command, joined, lines, note, para, person, strong, t, type Inline, type Part, type View } from './view.js';

/**
 * What the scheduled doctor says in a cluster's channel, before any surface renders it: a symptom
 * newly present (with Plan fix and Snooze), its clearing and return, one that keeps changing, the ones folded past the hour's budget, a
 * doctor that could not run and runs again, a snooze, and the message of a watch without a record.
 */

/** The action of the scheduled doctor's "Snooze 24 h" button; its value is a DoctorPlanFixRef (entry, cluster). */
export const watchActionIds = { snooze: 'doctor-snooze' } as const;

const hhmm = (d: Date) => `${d.toISOString().slice(11, 16)} UTC`;
const dayAndTime = (d: Date) => `${d.toISOString().slice(0, 10)} ${hhmm(d)}`;
const every = (ms: number) => (ms < 60_000 ? `${ms / 1000} s` : `${Math.round(ms / 60_000)} min`);
const span = (ms: number) => (ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : every(ms));
const evidence = (f: Finding) => lines(f.evidence.map((e) => t`${code(e.object)} ${e.detail}`));

/** A symptom with its evidence, Plan fix and Snooze: what a person needs to act on it from the channel. */
function symptomParts(f: Finding, cluster: string, headline: Inline): Part[] {
  const ref: DoctorPlanFixRef = { e: f.id, c: cluster };
  const needs = needsLine(f.id, f.fixParams);
  return [
    para(headline),
    lines([...f.evidence.map((e) => t`${code(e.object)} ${e.detail}`), ...(needs ? [needs] : [])]),
    {
      kind: 'choices',
      id: `watch-${f.id}`,
      choices: [
        planFixChoice(f, cluster),
        // The scheduled doctor posts in Slack alone, so no terminal shows this; its command names what it silences.
        { label: 'Snooze 24 h', action: watchActionIds.snooze, value: ref, command: `snooze ${f.id} ${cluster}` },
      ],
    },
  ];
}

const titled = (f: Pick<Finding, 'id' | 'ref' | 'title'>, cluster: string): Inline => t`${strong(f.title)} (${code(f.id)}, guide ${f.ref}) — present in ${code(cluster)}`;

/** A symptom newly present: one message, whose thread gets what becomes of it. */
export function appearedView(f: Finding, cluster: string): View {
  return {
    summary: t`New on ${cluster}: ${f.title} (${f.id})`,
    parts: [
      ...symptomParts(f, cluster, t`🩺 ${strong('New')}: ${titled(f, cluster)}`),
      note(t`The scheduled doctor saw this now; what becomes of it follows in this thread. Snooze silences it on ${code(cluster)} for 24 h (an approver, or whoever asked to fix it).`),
    ],
  };
}

/** Symptoms newly present past the hour's budget of posts: one message naming them. */
export function foldedView(findings: readonly Finding[], cluster: string, perHour: number): View {
  const n = findings.length === 1 ? '1 more symptom' : `${findings.length} more symptoms`;
  return {
    summary: t`${n} newly present in ${cluster}`,
    parts: [
      para(t`🩺 ${strong(n)} newly present in ${code(cluster)}: ${joined(findings.map((f) => [code(f.id)]), ', ')}.`),
      note(t`Not posted one by one: the scheduled doctor posts at most ${perHour} new symptoms an hour here. ${command(`/platform doctor ${cluster}`)} shows them all with their evidence and Plan fix; their clearing is said in this thread.`),
    ],
  };
}

/**
 * The first message of a watch that has no record of the cluster (its first scan, or Redis lost its
 * data): what it does from now on, and what is present now, once.
 */
export function startedView(present: readonly Finding[], cluster: string, options: { everyMs: number; detailed: number }): View {
  // Three blocks each: ten keep the message within Slack's fifty whatever the budget.
  const detailed = Math.min(options.detailed, 10);
  const shown = present.slice(0, detailed);
  const rest = present.slice(detailed);
  const parts: Part[] = [
    para(t`🩺 ${strong('The scheduled doctor watches')} ${code(cluster)} every ${every(options.everyMs)} and posts here only what changes: a symptom newly present, its clearing, and when it cannot run.`),
    para(
      present.length === 0
        ? t`It has no record of earlier posts about ${code(cluster)} (its first scan, or its record in Redis was lost). No symptom of the guide is present now.`
        : t`It has no record of earlier posts about ${code(cluster)} (its first scan, or its record in Redis was lost), so the ${present.length === 1 ? 'symptom' : `${present.length} symptoms`} present now ${present.length === 1 ? 'is' : 'are'} listed here once, not posted again:`,
    ),
    ...shown.flatMap((f) => symptomParts(f, cluster, t`🩺 ${titled(f, cluster)}`)),
  ];
  if (rest.length > 0) parts.push(para(t`And ${rest.length} more: ${joined(rest.map((f) => [code(f.id)]), ', ')}; ${command(`/platform doctor ${cluster}`)} shows them with their evidence.`));
  return { summary: t`The scheduled doctor watches ${cluster}: ${present.length === 0 ? 'no symptom present' : present.map((f) => f.id).join(', ')}`, parts };
}

/** A symptom announced before is absent now; credited to our remedy when one finished shortly before. */
export function clearedView(entry: { id: string; title: string }, cluster: string, at: Date, by?: ClearedBy): View {
  const after: Inline = by ? t`, after remedy ${code(by.requestId)} by ${person(by.requestedBy)}` : [];
  const text = t`✅ Cleared at ${hhmm(at)}${after}: ${strong(entry.title)} (${code(entry.id)}) is no longer present in ${code(cluster)}.`;
  return { summary: text, parts: [para(text)] };
}

/** The doctor could not run on the cluster: said once, until it runs again. */
export function unavailableView(cluster: string, message: string): View {
  return {
    summary: t`The doctor could not run on ${cluster}`,
    parts: [
      para(t`⚠️ ${strong('The doctor could not run on')} ${code(cluster)}: ${message}.`),
      note(t`Until it runs again nothing it watches there is known, and nothing is said about it; this thread will say once when it does.`),
    ],
  };
}

/** The doctor runs again after it could not. */
export function recoveredView(cluster: string, since: Date, at: Date): View {
  const text = t`✅ The doctor runs again on ${code(cluster)} (${hhmm(at)}); it could not since ${hhmm(since)}.`;
  return { summary: text, parts: [para(text)] };
}

/** A person silenced a symptom on the cluster. */
export function snoozedView(entry: { id: string; title: string }, cluster: string, by: string, until: Date): View {
  const text = t`🔕 Snoozed by ${person(by)} until ${dayAndTime(until)}: the scheduled doctor says nothing more about ${code(entry.id)} on ${code(cluster)} until then.`;
  return { summary: text, parts: [para(text)] };
}

/** A symptom cleared shortly before is present again: said in its thread, with its evidence, instead of a new post. */
export function returnedView(f: Finding, cluster: string, at: Date): View {
  const text = t`⚠️ Present again at ${hhmm(at)}: ${strong(f.title)} (${code(f.id)}) in ${code(cluster)}.`;
  return { summary: text, parts: [para(text), evidence(f)] };
}

/** A symptom whose clearings and returns passed its thread's budget: its state now, and that the thread goes quiet. */
export function restlessView(entry: { id: string; title: string }, cluster: string, present: Finding | undefined, at: Date, quietMs: number, perHour: number): View {
  const now: Inline = present ? t`present again at ${hhmm(at)}` : t`cleared at ${hhmm(at)}`;
  const text = t`🔁 ${strong(entry.title)} (${code(entry.id)}) keeps changing in ${code(cluster)}: ${now}, after ${perHour} changes said here within the hour.`;
  return {
    summary: text,
    parts: [
      para(text),
      ...(present ? [evidence(present)] : []),
      note(t`The scheduled doctor says nothing more about it in this thread until it stays the same for ${span(quietMs)}, then once how it settled. ${command(`/platform doctor ${cluster}`)} shows it now.`),
    ],
  };
}

/** A symptom that kept changing has stayed the same for the quiet period: how it settled. */
export function settledView(entry: { id: string; title: string }, cluster: string, present: boolean, since: Date, unsaid: number): View {
  const meanwhile = unsaid === 0 ? '' : ` (${unsaid === 1 ? '1 change' : `${unsaid} changes`} not said here before that)`;
  const text = present
    ? t`⚠️ Steady: ${strong(entry.title)} (${code(entry.id)}) has been present in ${code(cluster)} since ${hhmm(since)}${meanwhile}; its changes are said here again.`
    : t`✅ Steady: ${strong(entry.title)} (${code(entry.id)}) has been cleared in ${code(cluster)} since ${hhmm(since)}${meanwhile}; should it return, it gets a new post.`;
  return { summary: text, parts: [para(text)] };
}
