import { findEntry } from '../catalogue/index.js';
import type { EntryParam } from '../catalogue/model.js';
import { redact } from '../redact.js';
import { code, joined, t, type Inline } from './view.js';

/**
 * How an answer says what planning a fix takes when the entry needs values a click cannot carry
 * (`dashboards-missing` needs the metrics store's address): the command with a slot for each, and a
 * line saying what goes in it. Entries without such values keep the plain `fix <id> [cluster]`.
 */

/** The parameters of an entry without a default: its fix is not planned without them. */
export function requiredParams(entryId: string): readonly EntryParam[] {
  return findEntry(entryId)?.params?.filter((p) => p.default === undefined) ?? [];
}

/** What stands for a value to fill in: `<metrics-store-URL>`. */
export const placeholderOf = (p: EntryParam): string => `<${p.placeholder ?? 'value'}>`;

/** A value to fill in, as a template: `metricsStore=<metrics-store-URL>` (one word, so the line still reads as a fix). */
export const paramSlot = (p: EntryParam): string => `${p.name}=${placeholderOf(p)}`;

/**
 * The line that plans an entry's fix, with a slot for each value it needs:
 * `fix dashboards-missing prod-eu metricsStore=<metrics-store-URL>`. Typed as it is, the slot is
 * refused with what it should be. Values given already (`given`, a person's words) are kept as typed, but for
 * a secret among them (a token typed as a setting, a value named password), which the line shows as `[redacted]` rather than repeat it:
 * each is redacted with its name, which says what the value is.
 */
export function fixCommand(entryId: string, cluster?: string, given: Readonly<Record<string, string>> = {}): string {
  const values = requiredParams(entryId).map((p) => {
    const value = given[p.name];
    return value !== undefined ? redact(`${p.name}=${value}`) : paramSlot(p);
  });
  const others = Object.entries(given).filter(([name]) => !requiredParams(entryId).some((p) => p.name === name)).map(([name, value]) => redact(`${name}=${value}`));
  return ['fix', entryId, ...(cluster ? [cluster] : []), ...values, ...others].join(' ');
}

/**
 * What "Plan fix" needs besides the click, said next to it: each value, what it is, an example.
 * Undefined when it needs nothing, or when the doctor saw every value (`seen`) and the button carries them.
 */
export function needsLine(entryId: string, seen: Readonly<Record<string, string>> = {}): Inline | undefined {
  const required = requiredParams(entryId).filter((p) => seen[p.name] === undefined);
  if (required.length === 0) return undefined;
  const each = required.map((p) => t`${code(p.name)}, ${p.description} (e.g. ${code(p.example)})`);
  return t`Plan fix needs ${required.length === 1 ? 'a value' : 'values'} the button cannot carry: ${joined(each, '; ')}.`;
}
