import { catalogue, closestIds, findEntry, guideRefs } from '../catalogue/index.js';
import { approvalOf, type CatalogueEntry, type Step } from '../catalogue/model.js';
import { shownBack } from '../redact.js';
import { forAPerson } from '../remedies/steps/for-a-person.js';
import { code, command, heading, joined, lines, note, para, soft, strong, t, type Inline, type Part, type View } from './view.js';

/** The commands, for help: the command to type and what it does. */
export const commandHelp: readonly [string, string][] = [
  ['/platform help', 'this help'],
  ['/platform list', 'the catalogue of remedies'],
  ['/platform fix <id> [cluster] [name=value …]', 'plan a remedy; approvers approve it in the thread; progress and result follow there'],
  ['/platform explain <id>', 'what an entry is about and every step of its remedy'],
  ['/platform values check <values, --set flags or helm upgrade command>', "installer values checked against the guide's rules, with corrected lines"],
  ['/platform values upgrade', 'the exact upgrade command for your storage provider'],
  ['/platform doctor [cluster]', "check the cluster for every symptom of the guide, from the cluster's own evidence (read-only)"],
  ['/platform status [cluster]', "the remedies open (who asked, the entry, the state, since when, the thread) and the doctor's last result per cluster"],
  ['/platform cancel <id>', 'cancel a remedy by its id (from its thread or status), wherever its thread is (the person who asked, or an approver of its cluster)'],
  ['/platform audit [n]', 'the newest records of the audit trail (approvers only)'],
  ['/platform match <error text>', 'find the remedy for an error (or paste it in a channel I am in, or use "Find remedy" on a message)'],
];

/**
 * The help lines whose Slack words (a thread, a channel, a message shortcut) have no place in the terminal: there a
 * remedy asks at the prompt, and any line that is no command is a paste.
 */
const terminalWords: Readonly<Record<string, string>> = {
  '/platform fix <id> [cluster] [name=value …]': 'plan a remedy; it asks for approval at the prompt; progress and result follow here',
  '/platform match <error text>': 'find the remedy for an error (or paste the error itself: a line that is no command is read as a paste)',
};

const clusterList = (clusters: readonly string[]): Inline => joined(clusters.map((c) => [code(c)]), ', ');

/** `help`: what the bot does, its commands, the clusters; `terminal`, in the terminal's words where Slack's would mislead. */
export function helpView(clusters: readonly string[], defaultCluster: string, extra: readonly Part[] = [], terminal = false): View {
  return {
    summary: t`platform-medic help`,
    parts: [
      heading('platform-medic'),
      para(t`Repairs of the platform, from its troubleshooting guide: planned, shown, approved, then carried out.`),
      lines(commandHelp.map(([c, d]) => t`${command(c)} — ${(terminal && terminalWords[c]) || d}`)),
      note(t`Clusters: ${clusterList(clusters)} (default ${code(defaultCluster)}). Example: ${command('/platform fix build-logs')}`),
      ...extra,
    ],
  };
}

/**
 * How a surface says where a fix line (`fix <id> …`) is typed, after "Plan it": Slack's and the terminal's
 * `/platform fix …` by default; the command line, which plans nothing itself, names the terminal and Slack.
 */
export type PlanWhere = (fixLine: string) => Inline;
const withSlash: PlanWhere = (fixLine) => t`with ${command(`/platform ${fixLine}`)}`;

/** `list`: every entry, its guide reference and title. */
export function listView(planWhere: PlanWhere = withSlash): View {
  return {
    summary: t`The catalogue of remedies`,
    parts: [
      para(t`${strong(`Remedies in the catalogue`)} (${catalogue.length})`),
      lines(catalogue.map((e) => t`${code(e.id)} (guide ${guideRefs(e).join(', ')}) — ${e.title}`)),
      note(t`Plan one ${planWhere('fix <id> [cluster]')}.`),
    ],
  };
}

/** An id that names no entry: the closest ids, and where to see them all. One wording on every surface. */
export function unknownEntryView(typed: string, closest: readonly string[] = closestIds(typed)): View {
  const shown = shownBack(typed);
  const near = closest.length > 0 ? t` Closest: ${joined(closest.map((c) => [code(c)]), ', ')}.` : [];
  return {
    summary: t`There is no remedy ${code(shown)}.${closest.length > 0 ? ` Closest: ${closest.join(', ')}.` : ''}`,
    parts: [para(t`There is no remedy ${code(shown)} in the catalogue.${near}`), note(t`See them all with ${command('/platform list')}.`)],
  };
}

const risk = { 'read-only': 'read-only', restart: 'restart', destructive: 'destructive' } as const;
const approval = { none: 'no approval', approver: 'an approver', 'second-person': 'a second person' } as const;

function stepLines(n: number, step: Step): Inline[] {
  if (step.kind === 'wait') return [t`${n}. ${step.does} — ${soft(`${step.minutes} min, a delayed continuation`)}`];
  const head = t`${n}. ${forAPerson(step.does)} — ${soft(`${risk[step.risk]}, ${approval[approvalOf(step)]}`)}`;
  if (step.kind === 'manual') return [head, ...step.items.map((i) => t`    ☐ ${forAPerson(i)}`)];
  return [head];
}

/** `explain <id>`: symptom, cause, versions, parameters, and every step. */
export function explainView(entry: CatalogueEntry, planWhere: PlanWhere = withSlash): View {
  const refs = guideRefs(entry).join(', ');
  const parts: Part[] = [
    heading(entry.title),
    para(t`${strong('Symptom:')} ${entry.symptom}\n${strong('Cause:')} ${entry.cause}`),
    note(t`${code(entry.id)} · guide ${refs}${entry.versions ? ` · versions: ${entry.versions.why}` : ''}`),
  ];
  if (entry.signatures.errors.length > 0) parts.push(note(t`Error texts: ${joined(entry.signatures.errors.map((e) => [code(e)]), ' · ')}`));
  for (const [i, stage] of entry.stages.entries()) {
    const steps = stage.steps.flatMap((s, j) => stepLines(j + 1, s));
    const then = stage.then ? [t`${soft(`Then: ${stage.then.question}`)} ${stage.then.choices.map((c) => `[${c.label}]`).join(' ')}`] : [];
    parts.push(lines([t`${strong(`${entry.stages.length > 1 ? `Stage ${i + 1}: ` : ''}${stage.title}`)}`, ...steps, ...then]));
  }
  if (entry.params?.length) {
    parts.push(note(t`Parameters: ${joined(entry.params.map((p) => t`${code(`${p.name}=${p.default ?? p.example}`)} ${p.description}${p.default ? ` (default ${p.default})` : ' (required)'}`), ' · ')}`));
  }
  const required = entry.params?.filter((p) => !p.default) ?? [];
  parts.push(note(t`Plan it ${planWhere(`fix ${entry.id}${required.length > 0 ? ` ${required.map((p) => `${p.name}=${p.example}`).join(' ')}` : ''}`)}.`));
  return { summary: t`${entry.title}`, parts };
}

/** `explain <id>`, checked: the entry, or the closest ids. */
export function explainAnswer(id: string): View {
  const entry = findEntry(id);
  return entry ? explainView(entry) : unknownEntryView(id);
}
