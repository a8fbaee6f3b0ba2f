/** Redaction's judgments of a value: an error's own words, a Kubernetes name, a reference or a directory are no secret. */
import { redactionPatterns } from './patterns.js';

/**
 * What an error chain says after a key-like word ("failed to authorize: failed to fetch oauth token: 401",
 * "credentials: exec: …", "secret.yaml:12:5)"): an error's own word, a status or a position, never a secret.
 */
export function errorWord(value: string): boolean {
  return /^(?:failed|failure|error|invalid|expired|forbidden|unauthorized|denied|required|missing|not|no|unknown|exec|timeout|empty|unexpected|unable|cannot|decoding|authentication|rejected|refused|[0-9][0-9:.()]{0,8})[:,)\]]?$/i.test(value);
}

/**
 * Whether a value of several words is an error's sentence ("authentication failed for user", the next line's
 * "ERROR: database … is being accessed"): its first word starts one. Not `no` or `not`, which a passphrase may
 * start with ("no more secrets").
 */
export function errorSentence(value: string): boolean {
  const space = value.search(/[ \t]/);
  return space > 0 && /^(?:failed|failure|error|invalid|expired|forbidden|unauthorized|denied|required|missing|unknown|timeout|unexpected|unable|cannot|decoding|authentication|rejected|refused):?$/i.test(value.slice(0, space));
}

/**
 * The part of a value read to its line's end where an error's sentence starts (` ERROR: database …`, ` Failed to
 * pull image …`): a log's next words on the value's line, shown. Empty when none starts in it.
 */
export function errorAfter(value: string): string {
  const at = value.search(redactionPatterns.errorStart);
  return at < 0 ? '' : value.slice(at);
}

/** Words a sentence's verb starts with after a name: "regcred is missing", "secrets is forbidden", "x does not exist". */
export const PREDICATES = new Set(['is', 'was', 'are', 'were', 'has', 'have', 'had', 'does', 'did', 'could', 'can', 'cannot', 'not']);
/** A Kubernetes object's name (a DNS subdomain): lower case, digits, '-' and '.'. */
export const OBJECT_NAME = /^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/;

/**
 * Whether a value reads as a Secret's name as people give them: words (`regcred`, `secrets`), or parts joined by
 * '-' or '.' (`db-credentials`, `default-token-x2x5z`). A single run of letters and digits (`abc123`, a GitHub
 * client secret's 40 hex digits) reads as a secret.
 */
export function objectName(value: string): boolean {
  return OBJECT_NAME.test(value) && (/^[a-z]+$/.test(value) || value.includes('-') || value.includes('.'));
}

/**
 * Whether a one-word value is the error's own words, read with the words after it on its line (`after`):
 * - after a Secret's key, which names the Kubernetes object, an object's name the error goes on about
 *   ("secret: regcred is missing", "*v1.Secret: secrets is forbidden", "Secret: regcred (kubernetes.io/…)");
 *   under any other key a value the same words follow stays a secret ("password: hunter is wrong");
 * - the next part of an error chain, a lower-case word and a colon with an error's word after it
 *   ("in secret: tls: private key does not match");
 * - the shell's "command not found" ("bash: password: command not found").
 */
export function ownWords(key: string, value: string, after: string): boolean {
  const words = after.slice(0, 120).trim().split(/[ \t]+/);
  if (/^[a-z]+:$/.test(value) && words.slice(0, 6).some(errorWord)) return true;
  if (value === 'command' && words[0] === 'not' && words[1]?.startsWith('found')) return true;
  if (key.toLowerCase() !== 'secret' || !objectName(value)) return false;
  const [verb, next] = words;
  return verb !== undefined && (verb.startsWith('(') || (PREDICATES.has(verb) && (verb === 'not' || verb === 'cannot' || errorWord(next ?? ''))));
}

/** The key's word in a matched key and its separator (`  - Secret: ` → `Secret`). */
export function keyWord(key: string): string {
  let word = key.trim();
  if (word.startsWith('-')) word = word.slice(1).trimStart();
  return word.endsWith(':') ? word.slice(0, -1).trimEnd() : word;
}

/** Whether a value of a line's words is the error's own (ownWords), its first word read with the words after it. */
export function ownLine(key: string, value: string): boolean {
  const space = value.search(/[ \t]/);
  return space > 0 && ownWords(key, value.slice(0, space), value.slice(space));
}

/** How a key that starts with a secret's word ends when it names where a secret is, not the secret (`secretName`, `token_file`, `passwordSecret.name`). */
export const REFERENCE_ENDINGS = ['name', 'names', 'ref', 'file', 'path', 'dir', 'url', 'uri', 'endpoint', 'namespace', 'type'];

/** Whether what follows a secret's word in a key makes it a reference: `secretName: orchestrator-tls`, `secretKeyRef`, `token_url`. */
export function reference(rest: string): boolean {
  const lower = rest.toLowerCase();
  return REFERENCE_ENDINGS.some((end) => lower.endsWith(end));
}

/** Whether a key names a Secret that exists already, not a secret (`existingSecret: pg-auth`, a chart's convention). */
export function existing(key: string): boolean {
  return key.toLowerCase().startsWith('existing');
}

/** The shell's working directories: `PWD=/app`, `pwd=/home/user/x` and `OLDPWD` name a directory, not a password. */
export const DIRECTORY_KEYS = new Set(['pwd', 'oldpwd']);

/** Whether a key and its value are a working directory: the shell's own name and a path (`/app`, `~/x`, `C:\\x`). */
export function workingDirectory(key: string, value: string): boolean {
  let name = key.trim().toLowerCase();
  while (name !== '' && ':="\' '.includes(name[name.length - 1]!)) name = name.slice(0, -1);
  // The key's last word: a YAML item's dash or the line before it (nextLineSecret's key) are not its name.
  if (!DIRECTORY_KEYS.has(name.slice(Math.max(name.lastIndexOf(' '), name.lastIndexOf('\n')) + 1))) return false;
  const path = value[0] === '"' || value[0] === "'" ? value.slice(1) : value;
  return path.startsWith('/') || path.startsWith('~') || (path[1] === ':' && (path[2] === '\\' || path[2] === '/'));
}

/** Values too plain to be a secret (`password: true`, `token: null`, a `${VAR}` reference, a YAML block's `|`: its lines are the value). */
export function harmless(value: string): boolean {
  return /^(?:true|false|null|none|undefined|bearer|basic|token|digest|negotiate|""|''|\*+|\[redacted\]|\\|[|>][-+]?)$/i.test(unclosed(value)) || value.startsWith('${') || value.startsWith('<') || errorWord(value) || errorSentence(value);
}

/** Characters that close what a bare value stands in (`"password": null,`, `{token: none}`), read past at its end. */
export const CLOSERS = ',;})]';

/** A bare value without the closers at its end: a bare value runs to the next space, and takes them with it. */
export function unclosed(value: string): string {
  let end = value.length;
  while (end > 0 && CLOSERS.includes(value[end - 1]!)) end--;
  return value.slice(0, end);
}
