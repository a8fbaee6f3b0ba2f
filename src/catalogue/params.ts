import { carriesCredentials, endpointProblem } from '../remedies/dashboard/endpoint.js';
import { shownBack } from '../redact.js';
import type { CatalogueEntry } from './model.js';

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
    if (value === undefined) {
      problems.push(`\`${p.name}\` is required: ${p.description}, e.g. \`${p.name}=${p.example}\``);
    } else if (value.length > 500 || !new RegExp(p.pattern).test(value)) {
      // Shown back with its secrets hidden: a value that is not valid may be a credential pasted in the wrong place.
      problems.push(`\`${p.name}=${shownBack(value)}\` is not valid: ${p.description}, e.g. \`${p.name}=${p.example}\``);
    } else if (p.format === 'in-cluster-url' && endpointProblem(value)) {
      problems.push(`\`${p.name}=${shownBack(value)}\` is refused: ${endpointProblem(value)}, which a remedy never points at; give ${p.description}, e.g. \`${p.name}=${p.example}\``);
    } else if (p.format === 'in-cluster-url' && carriesCredentials(value)) {
      // Not repeated: the answer would show the secret back, and the value must go no further.
      problems.push(`\`${p.name}\` is refused: it carries credentials (a user or password before \`@\`, or a query), which a remedy would keep in its jobs and show in its thread; give ${p.description} alone, e.g. \`${p.name}=${p.example}\`, and keep its authentication in the dashboard's data source`);
    } else {
      params[p.name] = value;
    }
  }
  return problems.length > 0 ? { ok: false, message: problems.join('; ') + '.' } : { ok: true, params };
}
