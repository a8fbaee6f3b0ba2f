import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { ConfigError, describeIssue, shownValue } from './errors.js';
import { declaredKeys, type DeclaredKey, type Reading } from './keys.js';

/** Values by key path (`redisUrl`, `slack.botToken`), from one source. */
export type Values = Record<string, unknown>;

/** What the file may hold for each kind of key: the types alone; the merged schema checks the rest. */
const inFile: Record<Reading, z.ZodType> = {
  text: z.string(),
  number: z.number(),
  flag: z.boolean(),
  list: z.array(z.string()),
  objects: z.array(z.unknown()),
};

const fileSchema = z.object(Object.fromEntries(declaredKeys.filter((k) => k.inFile).map((k) => [k.path, inFile[k.read].optional()]))).strict();

/**
 * The YAML file's values and its full path; nothing when there is none and none was asked for. A key the file
 * gets wrong (or does not know) is a problem, and its value is left out, so that the rest is still checked
 * and every problem is told at once rather than one per try.
 */
export function readFile(path: string | undefined, explicit: boolean): { values: Values; path?: string; problems: string[] } {
  if (!path) return { values: {}, problems: [] };
  const full = resolve(path);
  if (!existsSync(full)) {
    if (explicit) throw new ConfigError([`config file ${full} does not exist`]);
    return { values: {}, problems: [] };
  }
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(full, 'utf8')) ?? {};
  } catch (err) {
    throw new ConfigError([`config file ${full} is not valid YAML: ${(err as Error).message.split('\n')[0]!.replace(/:$/, '')}`]);
  }
  const parsed = fileSchema.safeParse(raw);
  if (parsed.success) return { values: parsed.data, path: full, problems: [] };
  // An unknown key of the file's top level names the file itself; any other issue is the file's key.
  const problems = parsed.error.issues.map((i) => (i.code === 'unrecognized_keys' && i.path.length === 0 ? describeIssue(i, { origin: 'file', schema: fileSchema, input: raw, file: full }) : `${full}: ${describeIssue(i, { origin: 'file', schema: fileSchema, input: raw })}`));
  // Not a mapping of keys at all: nothing of it can be read.
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new ConfigError(problems);
  const shape = fileSchema.shape as Record<string, z.ZodType>;
  const values = Object.fromEntries(Object.entries(raw).filter(([k, v]) => shape[k]?.safeParse(v).success === true));
  return { values, path: full, problems };
}

/** The text of a variable as its key reads it, or the problem with it (never quoting a secret). */
function fromText(k: DeclaredKey, text: string): { value: unknown } | { problem: string } {
  // In the words the file's keys are told in (`port: expected a number (got "abc")`), naming the key the variable sets.
  const shown = k.secret ? '' : ` (got ${shownValue(text, k.read === 'flag' ? 20 : 80)})`;
  const where = `${k.env} (${k.path})`;
  switch (k.read) {
    case 'number': {
      const n = Number(text);
      return Number.isFinite(n) ? { value: n } : { problem: `${where}: expected a number${shown}` };
    }
    case 'flag':
      if (/^(true|1|yes)$/i.test(text)) return { value: true };
      if (/^(false|0|no)$/i.test(text)) return { value: false };
      return { problem: `${where}: expected true or false (also yes, no, 1, 0)${shown}` };
    case 'list': {
      const items = text.split(',').map((s) => s.trim()).filter(Boolean);
      return { value: items.length > 0 ? items : undefined };
    }
    default:
      return { value: text };
  }
}

/** The declared variables that are set (and not empty), read; each one that cannot be read is a problem, and left out. */
export function readEnvironment(env: Record<string, string | undefined>): { values: Values; problems: string[] } {
  const values: Values = {};
  const problems: string[] = [];
  for (const k of declaredKeys) {
    const text = k.env === undefined ? undefined : env[k.env];
    if (text === undefined || text.trim() === '') continue;
    const read = fromText(k, text);
    if ('problem' in read) problems.push(read.problem);
    else if (read.value !== undefined) values[k.path] = read.value;
  }
  return { values, problems };
}

/**
 * One object in Config's shape from the sources, the first that has a key winning: flags over the
 * environment over the file. Unset keys stay undefined and take their schema's default.
 */
export function merge(...sources: Values[]): Record<string, unknown> {
  const merged: Record<string, unknown> = { slack: {} };
  for (const k of declaredKeys) {
    const value = sources.find((s) => s[k.path] !== undefined)?.[k.path];
    const [group, name] = k.path.includes('.') ? k.path.split('.') : [undefined, k.path];
    if (group) (merged[group] as Record<string, unknown>)[name!] = value;
    else merged[name!] = value;
  }
  return merged;
}
