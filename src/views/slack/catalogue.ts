import { catalogue } from '../../catalogue/index.js';
import { context, esc, fitLines, header, section, type Block } from './kit.js';

/** The commands, for `/platform help`. */
export const commandHelp: readonly [string, string][] = [
  ['/platform help', 'this help'],
  ['/platform list', 'the catalogue of remedies'],
  ['/platform fix <id> [cluster] [name=value …]', 'plan a remedy; approvers approve it in the thread; progress and result follow there'],
  ['/platform explain <id>', 'what an entry is about and every step of its remedy'],
  ['/platform values check <values, --set flags or helm upgrade command>', 'installer values checked against the guide\'s rules, with corrected lines'],
  ['/platform values upgrade', 'the exact upgrade command for your storage provider'],
  ['/platform audit [n]', 'the newest records of the audit trail (approvers only)'],
  ['/platform match <error text>', 'find the remedy for an error (or paste it in a channel I am in, or use "Find remedy" on a message)'],
];

export function helpBlocks(clusters: readonly string[], defaultCluster: string): Block[] {
  return [
    header('platform-medic'),
    section('Repairs of the platform, from its troubleshooting guide: planned, shown, approved, then carried out.'),
    section(commandHelp.map(([c, d]) => `\`${c}\` — ${d}`).join('\n')),
    context(`Clusters: ${clusters.map((c) => `\`${c}\``).join(', ')} (default \`${defaultCluster}\`). Example: \`/platform fix build-logs\``),
  ];
}

export function listBlocks(): Block[] {
  const lines = catalogue.map((e) => `\`${e.id}\` (guide ${e.ref}) — ${esc(e.title)}`);
  return [section(`*Remedies in the catalogue* (${catalogue.length})`), section(fitLines(lines)), context('Plan one with `/platform fix <id> [cluster]`.')];
}

export function unknownEntryBlocks(typed: string, closest: readonly string[]): Block[] {
  return [
    section(`There is no remedy \`${esc(typed)}\` in the catalogue.${closest.length ? ` Closest: ${closest.map((c) => `\`${c}\``).join(', ')}.` : ''}`),
    context('See them all with `/platform list`.'),
  ];
}
