import { carriesCredentials, endpointProblem } from '../remedies/dashboard/endpoint.js';
import { redact, shownBack } from '../redact.js';
import type { CatalogueEntry, EntryParam } from './model.js';

/** What is wrong with a value given for one parameter, or undefined when the fix takes it. */
export function paramProblem(p: EntryParam, value: string): string | undefined {
  if (value.length > 500 || !new RegExp(p.pattern).test(value)) {
    // Shown back with its secrets hidden: a value that is not valid may be a credential pasted in the wrong place.
    return `\`${p.name}=${shownBack(value)}\` is not valid: ${p.description}, e.g. \`${p.name}=${p.example}\``;
  }
  if (p.format === 'in-cluster-url' && endpointProblem(value)) {
    return `\`${p.name}=${shownBack(value)}\` is refused: ${endpointProblem(value)}, which a remedy never points at; give ${p.description}, e.g. \`${p.name}=${p.example}\``;
  }
  if (p.format === 'in-cluster-url' && carriesCredentials(value)) {
    // Not repeated: the answer would show the secret back, and the value must go no further.
    return `\`${p.name}\` is refused: it carries credentials (a user or password before \`@\`, or a query), which a remedy would keep in its jobs and show in its thread; give ${p.description} alone, e.g. \`${p.name}=${p.example}\`, and keep its authentication in the dashboard's data source`;
  }
  return undefined;
}

/**
 * Checks the values a person gave with a fix against the entry's parameters and fills in the
 * guide's defaults. Returns the values, or a message saying exactly what is wrong.
 */
export function resolveParams(entry: CatalogueEntry, given: Readonly<Record<string, string>>): { ok: true; params: Record<string, string> } | { ok: false; message: string } {
  const declared = entry.params ?? [];
  const problems: string[] = [];
  for (const name of Object.keys(given)) {
    if (!declared.some((p) => p.name === name)) {
      problems.push(declared.length > 0 ? `\`${name}\` is not a parameter of \`${entry.id}\` (it takes ${declared.map((p) => `\`${p.name}\``).join(', ')})` : `\`${entry.id}\` takes no parameters (got \`${name}\`)`);
    }
  }
  const params: Record<string, string> = {};
  for (const p of declared) {
    const value = given[p.name] ?? p.default;
    const problem = value === undefined ? `\`${p.name}\` is required: ${p.description}, e.g. \`${p.name}=${p.example}\`` : paramProblem(p, value);
    if (problem !== undefined) problems.push(problem);
    else if (value !== undefined) params[p.name] = value;
  }
  return problems.length > 0 ? { ok: false, message: problems.join('; ') + '.' } : { ok: true, params };
}

/** Characters of Slack's markup (a code span's end, a mention or link's brackets, an entity): a value from the cluster holding one is not offered. */
const slackMarkup = /[`<>&|]/;

/**
 * The values a detector saw that the entry's fix line may carry: only parameters the entry declares,
 * each a value the fix takes as typed, and never one that reads as a secret (the line is shown and
 * typed in a channel), nor one holding Slack's markup, which the cluster's data could use to end the line's code and
 * mention or link. A value left out leaves its slot in the line (`database=<database-name>`).
 */
export function offeredParams(entry: CatalogueEntry, seen: Readonly<Record<string, string>> | undefined): Record<string, string> | undefined {
  const offered: Record<string, string> = {};
  for (const p of entry.params ?? []) {
    const value = seen?.[p.name];
    if (value === undefined || paramProblem(p, value) !== undefined || redact(`${p.name}=${value}`) !== `${p.name}=${value}` || slackMarkup.test(value)) continue;
    offered[p.name] = value;
  }
  return Object.keys(offered).length > 0 ? offered : undefined;
}
