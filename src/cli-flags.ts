import { InputError } from './errors.js';
import { closestWord } from './spelling.js';

/**
 * The flags a command takes: `value` takes the next word (or `--flag=value`), `values` the same and
 * may be repeated, `switch` none.
 */
export type FlagSpec = Readonly<Record<string, 'value' | 'values' | 'switch'>>;

/** A command line read against its FlagSpec. */
export interface ParsedFlags {
  /** The value given to a flag (the same each time it is repeated), or undefined. */
  value(name: string): string | undefined;
  /** Every value given to a repeatable flag, in order. */
  values(name: string): string[];
  has(name: string): boolean;
  /** The words that are not flags, in order (`-` is standard input, not a flag). */
  readonly positional: readonly string[];
}

/**
 * The one-line refusal of a flag the command does not take, naming the flag it most likely meant: a
 * typo (`--kubconfig`) must not be ignored and leave the person on another cluster than they asked for.
 */
export function unknownFlagMessage(flag: string, known: readonly string[]): string {
  const typed = flag.slice(0, 60);
  const near = closestWord(typed, known);
  return near ? `unknown flag ${typed}; did you mean ${near}?` : `unknown flag ${typed} (flags: ${known.join(', ')})`;
}

/**
 * The one-line refusal of a flag that takes one value given two different ones: the last one must not win
 * unseen, on another cluster or another broken state than the person read first.
 */
export function givenTwiceMessage(flag: string, first: string, second: string): string {
  return `${flag} is given twice (${first.slice(0, 60)}, then ${second.slice(0, 60)}); give it once`;
}

/**
 * Reads `args` against `spec`, allowing at most `maxPositional` other words. Throws InputError (one
 * line, exit 2) on an unknown flag, a flag without its value, a flag of one value given two, or a word too many.
 */
export function parseFlags(command: string, args: readonly string[], spec: FlagSpec, maxPositional = 0): ParsedFlags {
  const known = Object.keys(spec);
  if (known.length === 0 && maxPositional === 0 && args.length > 0) throw new InputError(`${command} takes no arguments (unknown: ${args.join(' ').slice(0, 80)})`);
  const given = new Map<string, string[]>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const word = args[i]!;
    if (!word.startsWith('-') || word === '-') {
      if (positional.length >= maxPositional) throw new InputError(`${command}: unexpected argument ${word.slice(0, 60)}${maxPositional === 0 ? ` (${command} takes flags only)` : ''}`);
      positional.push(word);
      continue;
    }
    const eq = word.indexOf('=');
    const name = eq === -1 ? word : word.slice(0, eq);
    const kind = spec[name];
    if (!kind) throw new InputError(known.length === 0 ? `${command} takes no flags (unknown: ${name.slice(0, 60)})` : `${command}: ${unknownFlagMessage(name, known)}`);
    if (kind === 'switch') {
      if (eq !== -1) throw new InputError(`${command}: ${name} takes no value`);
      given.set(name, [...(given.get(name) ?? []), '']);
      continue;
    }
    const value = eq === -1 ? args[++i] : word.slice(eq + 1);
    if (value === undefined || value === '' || (eq === -1 && value.startsWith('--'))) throw new InputError(`${command}: ${name} needs a value`);
    const before = given.get(name)?.[0];
    if (kind === 'value' && before !== undefined && before !== value) throw new InputError(`${command}: ${givenTwiceMessage(name, before, value)}`);
    given.set(name, [...(kind === 'values' ? (given.get(name) ?? []) : []), value]);
  }
  return {
    value: (name) => given.get(name)?.at(-1),
    values: (name) => given.get(name) ?? [],
    has: (name) => given.has(name),
    positional,
  };
}
