import { UserFacingError } from '../errors.js';
import type { z } from 'zod';
import { shownBack } from '../redact.js';
import { closestWord } from '../spelling.js';
import { declaredKeys, valueAt } from './keys.js';

/** A configuration problem; its message names the key and what is expected, and never a secret value. */
export class ConfigError extends UserFacingError {
  constructor(readonly problems: string[]) {
    super('config', `Configuration is not valid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Where each key comes from, so an error can name what the user must change. */
const envNames = new Map(declaredKeys.filter((k) => k.env).map((k) => [k.path, k.env!]));
/** Keys whose values may be secret: their values are never quoted in a message. */
const secretKeys = new Set(declaredKeys.filter((k) => k.secret).map((k) => k.path));

/** Which keys each source set (paths such as `redisUrl`, `slack.botToken`), so that an error names the one to change. */
export interface KeySources {
  readonly env: ReadonlySet<string>;
  readonly file: ReadonlySet<string>;
}

/**
 * A value given for a key that holds no secret, quoted as a problem with it shows it: a secret in it hidden all the
 * same (a token pasted under the wrong key), cut to `max` characters, a control character escaped (`\u001b`), never raw.
 */
export const shownValue = (value: string, max = 80): string => JSON.stringify(shownBack(value, max));

/** What a schema issue is read against: where it came from, the input, the file and which source set each key. */
export interface IssueContext {
  readonly origin: 'file' | 'merged';
  /** The schema checked: its keys are the known ones an unknown key is compared with. */
  readonly schema?: z.ZodType;
  readonly input?: unknown;
  readonly file?: string;
  readonly sources?: KeySources;
}

type Def = { type: string; shape?: Record<string, z.ZodType>; element?: z.ZodType; innerType?: z.ZodType; in?: z.ZodType; options?: z.ZodType[]; discriminator?: string; values?: unknown[] };
const defOf = (schema: z.ZodType | undefined): Def | undefined => (schema as { _zod?: { def: Def } } | undefined)?._zod?.def;

/** The schema without its wrappers (optional, default, a transform's pipe…): the object, array or union inside. */
function unwrapped(schema: z.ZodType | undefined): Def | undefined {
  let def = defOf(schema);
  for (let i = 0; def && i < 10 && (def.innerType || def.in); i++) def = defOf(def.innerType ?? def.in);
  return def;
}

/** The object schemas a value may be at `path`: of a discriminated union, the option its discriminator names (all, when it names none). */
function objectsAt(schema: z.ZodType | undefined, path: readonly PropertyKey[], input: unknown): Def[] {
  const def = unwrapped(schema);
  if (!def) return [];
  if (def.type === 'union') {
    const at = (v: unknown) => (typeof v === 'object' && v !== null && def.discriminator ? (v as Record<string, unknown>)[def.discriminator] : undefined);
    const options = def.options ?? [];
    const named = options.filter((o) => unwrapped(unwrapped(o)?.shape?.[def.discriminator ?? ''])?.values?.includes(at(input)));
    return (named.length > 0 ? named : options).flatMap((o) => objectsAt(o, path, input));
  }
  if (path.length === 0) return def.type === 'object' ? [def] : [];
  const [head, ...rest] = path;
  const next = (input as Record<PropertyKey, unknown> | undefined)?.[head as string];
  if (def.type === 'object') return objectsAt(def.shape?.[head as string], rest, next);
  if (def.type === 'array') return objectsAt(def.element, rest, next);
  return [];
}

/** The keys the schema knows at `path` (of the input there), for a did-you-mean. */
function knownKeysAt(schema: z.ZodType | undefined, path: readonly PropertyKey[], input: unknown): string[] {
  return [...new Set(objectsAt(schema, path, input).flatMap((d) => Object.keys(d.shape ?? {})))];
}

/**
 * A path as a person finds it in the file: `clusters[0] (name "prod")`, `clusters[0].approval (cluster "prod")`,
 * `redisUrl`. A cluster is named by its index, as YAML's list has it, and by its name when it has one.
 */
function placeOf(path: readonly PropertyKey[], input: unknown): string {
  const written = path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i > 0 ? '.' : ''}${String(p)}`)).join('');
  if (path[0] !== 'clusters' || typeof path[1] !== 'number') return written;
  const name = valueAt(input, path.slice(0, 2).concat('name'));
  if (typeof name !== 'string' || name === '') return written;
  // Quoted as JSON: a control character in the name is shown escaped, on the one line.
  return `${written} (${path.length === 2 ? 'name' : 'cluster'} ${JSON.stringify(name.slice(0, 60))})`;
}

/**
 * `an unknown key "foo"`, with the known key meant when one is close, as the product's other did-you-means
 * read: `an unknown key "aprovers"; did you mean "approvers"?`; of several, each with its own.
 */
function unknownKeys(keys: readonly string[], known: readonly string[]): string {
  const meant = (k: string) => closestWord(k, known.filter((n) => !keys.includes(n)));
  if (keys.length === 1) {
    const near = meant(keys[0]!);
    return `an unknown key ${JSON.stringify(keys[0])}${near ? `; did you mean ${JSON.stringify(near)}?` : ''}`;
  }
  return `unknown keys ${keys.map((k) => `${JSON.stringify(k)}${meant(k) ? ` (did you mean ${JSON.stringify(meant(k))}?)` : ''}`).join(', ')}`;
}

/**
 * One issue of the file's or the merged configuration's schema, as a person reads it: where to change it (the
 * variable that set it, or the file and key), what is expected, and the value unless it may be secret. A key nobody
 * set is named with its variable, the way to set it. A cluster is named by its place in the list and its name.
 */
export function describeIssue(issue: z.core.$ZodIssue, context: IssueContext): string {
  const { origin, input, file, sources } = context;
  const key = issue.path.join('.');
  const top = issue.path.length > 0 && typeof issue.path[0] === 'string' ? issue.path[0] : '';
  const nested = issue.path.slice(0, 2).join('.');
  const declared = [key, nested, ...(top === 'clusters' ? [] : [top])].find((p) => envNames.has(p));
  // The file's key when the file set it and no variable did; otherwise the variable (set, or the way to set a missing one).
  const inFile = file !== undefined && (top === 'clusters' || (sources !== undefined && sources.file.has(declared ?? top) && !sources.env.has(declared ?? top)));
  const env = origin === 'merged' && declared !== undefined && !inFile ? envNames.get(declared) : undefined;
  const place = placeOf(issue.path, input);
  if (issue.code === 'unrecognized_keys') {
    const unknown = unknownKeys(issue.keys, knownKeysAt(context.schema, issue.path, input));
    // The file's top level: the file itself has the key (`FILE has an unknown key "redisURL"; did you mean "redisUrl"?`).
    if (place === '') return `${file ?? 'the config file'} has ${unknown}`;
    return `${inFile ? `${file}: ` : ''}${place} has ${unknown}`;
  }
  const where = env ? `${env} (${key})` : inFile ? `${file}: ${place}` : place || '(top level)';
  // Values are quoted only for keys that cannot hold a secret, so a person sees what was wrong.
  const secret = secretKeys.has(key) || secretKeys.has(nested);
  const value = secret ? undefined : valueAt(input, issue.path);
  if (issue.code === 'invalid_type' && input !== undefined && valueAt(input, issue.path) === undefined) return `${where}: missing: it is required`;
  // A rule of our own that quotes the value in its words already (a cluster that is not configured) is not followed by it again.
  const quoted = issue.code === 'custom' && typeof value === 'string' && issue.message.includes(`"${value}"`);
  const got = quoted ? '' : typeof value === 'string' || typeof value === 'number' ? ` (got ${shownValue(String(value))})` : issue.code === 'invalid_type' && !secret ? kindOf(value) : '';
  return `${where}: ${expectation(issue)}${got}`;
}

/** What a key takes, in the words the variables' problems use ("expected a number"), not the schema library's. */
function expectation(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') return `expected ${kinds[issue.expected] ?? issue.expected}`;
  if (issue.code === 'too_small' || issue.code === 'too_big') {
    const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
    const inclusive = issue.inclusive !== false;
    const side = issue.code === 'too_small' ? (inclusive ? 'at least' : 'more than') : inclusive ? 'at most' : 'less than';
    if (issue.origin === 'number' || issue.origin === 'int') return `must be ${side} ${bound}`;
    if (issue.origin === 'array' || issue.origin === 'set') return `must have ${side} ${bound} item${bound === 1 ? '' : 's'}`;
    if (issue.origin === 'string') return issue.code === 'too_small' && bound === 1 ? 'must not be empty' : `must be ${side} ${bound} character${bound === 1 ? '' : 's'}`;
  }
  return issue.message;
}

const kinds: Readonly<Record<string, string>> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list, such as [a, b]',
  object: 'a mapping of keys',
};

/** What was given instead, for a value that is not quoted (a list, a mapping, true). */
function kindOf(value: unknown): string {
  if (value === null) return ' (got an empty value)';
  if (Array.isArray(value)) return ' (got a list)';
  if (typeof value === 'object') return ' (got a mapping of keys)';
  if (typeof value === 'boolean') return ` (got ${String(value)})`;
  return '';
}
