import { UserFacingError } from '../errors.js';
import type { z } from 'zod';
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
 * One issue of the file's or the merged configuration's schema, as a person reads it: where to change it (the
 * variable that set it, or the file and key), what is expected, and the value unless it may be secret. A key nobody
 * set is named with its variable, the way to set it.
 */
export function describeIssue(issue: z.core.$ZodIssue, origin: 'file' | 'merged', input?: unknown, file?: string, sources?: KeySources): string {
  const key = issue.path.join('.');
  const top = issue.path.length > 0 && typeof issue.path[0] === 'string' ? issue.path[0] : '';
  const nested = issue.path.slice(0, 2).join('.');
  const declared = [key, nested, ...(top === 'clusters' ? [] : [top])].find((p) => envNames.has(p));
  // The file's key when the file set it and no variable did; otherwise the variable (set, or the way to set a missing one).
  const inFile = file !== undefined && (top === 'clusters' || (sources !== undefined && sources.file.has(declared ?? top) && !sources.env.has(declared ?? top)));
  const env = origin === 'merged' && declared !== undefined && !inFile ? envNames.get(declared) : undefined;
  const where = env ? `${env} (${key})` : inFile ? `${file}: ${key}` : key || '(top level)';
  if (issue.code === 'unrecognized_keys') return `unknown key(s) ${issue.keys.join(', ')} at ${where}`;
  // Values are quoted only for keys that cannot hold a secret, so a person sees what was wrong.
  const value = secretKeys.has(key) || secretKeys.has(nested) ? undefined : valueAt(input, issue.path);
  const got = typeof value === 'string' || typeof value === 'number' ? ` (got "${String(value).slice(0, 80)}")` : '';
  return `${where}: ${issue.message}${got}`;
}
