import type { CatalogueEntry, Step } from '../../catalogue/model.js';
import { approvalOf } from '../../catalogue/model.js';
import { context, esc, fitLines, header, section, type Block } from './kit.js';

const risk = { 'read-only': 'read-only', restart: 'restart', destructive: 'destructive' } as const;
const approval = { none: 'no approval', approver: 'an approver', 'second-person': 'a second person' } as const;

function stepLine(n: number, step: Step): string[] {
  const head = `${n}. ${esc(step.does)} — _${risk[step.risk]}, ${approval[approvalOf(step)]}_`;
  if (step.kind === 'manual') return [head, ...step.items.map((i) => `    ☐ ${esc(i)}`)];
  if (step.kind === 'wait') return [`${n}. ${esc(step.does)} — _${step.minutes} min, a delayed continuation_`];
  return [head];
}

/** An entry of the catalogue, explained: symptom, cause, versions, parameters, and every step. */
export function explainBlocks(entry: CatalogueEntry): Block[] {
  const refs = [entry.ref, ...(entry.alsoRefs ?? [])].join(', ');
  const blocks: Block[] = [
    header(`${entry.title}`),
    section(`*Symptom:* ${esc(entry.symptom)}\n*Cause:* ${esc(entry.cause)}`),
    context(`\`${entry.id}\` · guide ${refs}${entry.versions ? ` · versions: ${esc(entry.versions.why)}` : ''}`),
  ];
  if (entry.signatures.errors.length > 0) blocks.push(context(`Error texts: ${entry.signatures.errors.map((e) => `\`${esc(e)}\``).join(' · ')}`));
  for (const [i, stage] of entry.stages.entries()) {
    const lines = stage.steps.flatMap((s, j) => stepLine(j + 1, s));
    const then = stage.then ? [`_Then: ${esc(stage.then.question)}_ ${stage.then.choices.map((c) => `[${esc(c.label)}]`).join(' ')}`] : [];
    blocks.push(section(fitLines([`*${entry.stages.length > 1 ? `Stage ${i + 1}: ` : ''}${esc(stage.title)}*`, ...lines, ...then])));
  }
  if (entry.params?.length) {
    blocks.push(context(`Parameters: ${entry.params.map((p) => `\`${p.name}=${p.default ?? p.example}\` ${esc(p.description)}${p.default ? ` (default ${p.default})` : ' (required)'}`).join(' · ')}`));
  }
  blocks.push(context(`Plan it with \`/platform fix ${entry.id}${entry.params?.some((p) => !p.default) ? ` ${entry.params.filter((p) => !p.default).map((p) => `${p.name}=${p.example}`).join(' ')}` : ''}\``));
  return blocks;
}
