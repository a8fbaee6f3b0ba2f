/** Redaction on command lines, word by word: which flags, positional words and key=value pairs carry a secret. */
import { MARK } from './patterns.js';
import { harmless, workingDirectory } from './values.js';

/** Tools that take the password after `-p` without a `login` word (`sshpass -p …`, `mongosh -u admin -p …`). */
export const DASH_P_TOOLS = new Set(['sshpass', 'mongo', 'mongosh', 'mongodump', 'mongorestore', 'mongoexport', 'mongoimport']);
/**
 * Tools' short flags whose value is a secret: redis-cli's `-a` (the password), openssl's `-k` and `-K` (a
 * password, the raw key), ssh-keygen's `-N` and `-P` (the new and the old passphrase).
 */
export const SECRET_SHORT_FLAGS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['redis-cli', new Set(['-a'])],
  ['openssl', new Set(['-k', '-K'])],
  ['ssh-keygen', new Set(['-N', '-P'])],
]);
/** Tools that take the password glued to `-p` (`mysql -u root -pSecret`); their `-P` is the port. */
export const GLUED_TOOLS = new Set(['mysql', 'mysqldump', 'mysqladmin', 'mariadb', 'mysqlsh']);
/** Tools that take `user:password` after `-u` or `--user` (`curl -u admin:…`). */
export const USER_PASS_TOOLS = new Set(['curl']);
/** Characters around a command word that belong to the shell, not to the word (`$(docker`, `"docker`, `build;docker`). */
export const SHELL_PUNCTUATION = '"\'`$();&|{}';
/** Characters that end an unquoted value and belong to what surrounds it (`-p secret)`, `-p secret"`). */
export const VALUE_END = '"\'`);&|}';

/**
 * Long flags whose name ends in one of these carry a secret as their value (`--pass`, `--auth-token`,
 * `--client-secret`, `--src-creds`, az's `--account-key`, `--auth`).
 */
export const SECRET_FLAG_ENDINGS = ['password', 'passwd', 'passphrase', 'pass', 'token', 'secret', 'api-key', 'access-key', 'account-key', 'secret-key', 'creds', 'credentials', 'auth'];
/** How a switch that turns a secret off starts: the word after `--no-auth` is the command's own. */
export const SWITCH_OFF = ['--no-', '--skip-', '--disable-', '--without-'];

/** Whether a word is a long flag (no `=value` glued) whose name ends in a secret's word. */
export function secretFlag(word: string): boolean {
  const lower = word.toLowerCase();
  return lower.startsWith('--') && !lower.includes('=') && SECRET_FLAG_ENDINGS.some((end) => lower.endsWith(end)) && !SWITCH_OFF.some((off) => lower.startsWith(off));
}

/** What a command line has said so far about the flags that carry a password. */
export interface CommandState {
  /** A secret flag ended the last line, continued by a backslash: its value is the next line's first word. */
  pending: boolean;
  command: boolean;
  login: boolean;
  dashP: boolean;
  glued: boolean;
  userPass: boolean;
  /** The named tool's short flags that take a secret (SECRET_SHORT_FLAGS). */
  secretFlags: ReadonlySet<string> | undefined;
  /** The verbs of a command whose secret is a positional word (POSITIONAL_SECRETS), once the command is named. */
  verbs: ReadonlyMap<string, number> | undefined;
  /** Which positional word after the verb (or after htpasswd's flags) is the secret; 0 when none is awaited. */
  secretAt: number;
  /** Positional words read since the verb. */
  positionals: number;
  /** The word after the last one is a flag's value (`vault login -method userpass`), not a positional. */
  flagValue: boolean;
  /** htpasswd, and what its flags said: `-b` takes the password from the command line, `-n` writes no file. */
  htpasswd: boolean;
  batch: boolean;
  display: boolean;
}

export const freshState = (): CommandState => ({
  pending: false,
  command: false,
  login: false,
  dashP: false,
  glued: false,
  userPass: false,
  secretFlags: undefined,
  verbs: undefined,
  secretAt: 0,
  positionals: 0,
  flagValue: false,
  htpasswd: false,
  batch: false,
  display: false,
});

/**
 * Commands that take a token or a password as a positional word after a verb, and which positional it is:
 * `vault login s.…`, `snyk auth …`, `ngrok config add-authtoken …`, `cf auth admin …` (the second).
 */
export const POSITIONAL_SECRETS: ReadonlyMap<string, ReadonlyMap<string, number>> = new Map([
  ['vault', new Map([['login', 1]])],
  ['snyk', new Map([['auth', 1]])],
  ['ngrok', new Map([['authtoken', 1], ['add-authtoken', 1]])],
  ['cf', new Map([['auth', 2]])],
]);
/** Their flags that take no value: the word after one is a positional (`vault login -no-print s.…`). */
export const BOOLEAN_FLAGS = new Set(['-no-print', '-no-store', '-token-only', '-non-interactive', '-tls-skip-verify', '--no-print', '--no-store', '--client-credentials']);
/** Words that are the shell's, not a command's positional (`<<<`, `|`, `&&`, `2>&1` aside). */
export const SHELL_OPERATORS = '<>|&;()';

/** A Vault token by its prefix (service `s.`/`hvs.`, batch `b.`/`hvb.`, recovery `r.`/`hvr.`), wherever it stands after `vault login`. */
export function vaultToken(word: string): boolean {
  const dot = word.indexOf('.');
  return (dot === 1 || dot === 3) && ['s', 'b', 'r', 'hvs', 'hvb', 'hvr'].includes(word.slice(0, dot)) && word.length - dot > 8;
}

/**
 * A word after a command whose secret is positional: flags and their values, `key=value` arguments (an auth
 * method's `username=bob`, read by keyValue) and the shell's operators are not counted.
 */
export function verbSecretWord(state: CommandState, parts: string[], i: number): void {
  const word = parts[i]!;
  if (word === '\\') return;
  if (state.flagValue) {
    state.flagValue = false;
    if (!vaultToken(word)) return;
  }
  if (word.startsWith('-') && word.length > 1) {
    state.flagValue = !word.includes('=') && !BOOLEAN_FLAGS.has(word);
    if (commandEnds(word)) state.secretAt = 0;
    return;
  }
  // `&&`, `|`, `;`: the command ended before its secret (`vault login -method=oidc && vault kv get …`).
  if (SHELL_OPERATORS.includes(word[0]!)) state.secretAt = 0;
  if (word.includes('=') || state.secretAt === 0) return;
  state.positionals++;
  if (state.positionals < state.secretAt && !commandEnds(word)) return;
  if (state.positionals === state.secretAt) redactValueAt(parts, i, 0);
  state.secretAt = 0;
}

/** Positional words are counted from here on; the `at`th is the secret (0: none yet). */
export function awaitPositional(state: CommandState, at: number): void {
  state.secretAt = at;
  state.positionals = 0;
  state.flagValue = false;
}

/** Whether a word ends its command (`admin;`, `x&&`). */
export function commandEnds(word: string): boolean {
  return ';&|'.includes(word[word.length - 1]!);
}

/**
 * A word after htpasswd: with `-b` the password is on the command line, its last positional (after the file
 * and the user, or the user alone with `-n`); `-C` and `-r` take a number. Its flags come before the rest.
 */
export function htpasswdWord(state: CommandState, parts: string[], i: number): void {
  const word = parts[i]!;
  if (word === '\\') return;
  if (state.flagValue) {
    state.flagValue = false;
    return;
  }
  if (word.startsWith('-') && word.length > 1 && state.positionals === 0) {
    if (word.includes('b')) state.batch = true;
    if (word.includes('n')) state.display = true;
    state.secretAt = state.batch ? (state.display ? 2 : 3) : 0;
    state.flagValue = word.endsWith('C') || word.endsWith('r');
    return;
  }
  if (SHELL_OPERATORS.includes(word[0]!)) return;
  state.positionals++;
  if (state.positionals === state.secretAt) redactValueAt(parts, i, 0);
}

/** Flags whose value is a list of `key=value` (helm's `--set a=1,b.c=2`, ansible's `-e "k=v k2=v2"`, `--build-arg`). */
export const PAIR_FLAGS = new Set(['--set', '--set-string', '-e', '--extra-vars', '--env', '--build-arg']);
/** A key whose last part ends in one of these (lower case, without `_` and `-`) holds a secret: `x.dbpass`, `auth.postgresPassword`, `global.secretKey`. */
export const SECRET_KEY_ENDINGS = ['password', 'passwd', 'passphrase', 'pass', 'pwd', 'secret', 'secretkey', 'token', 'apikey', 'accesskey', 'privatekey', 'credential', 'creds'];

/** Whether a `key=value` key names a secret by its last dotted part (`global.secretKey`, `users[0].password`). */
export function secretKey(key: string): boolean {
  let last = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  const bracket = last.indexOf('[');
  if (bracket >= 0) last = last.slice(0, bracket);
  last = last.replaceAll('_', '').replaceAll('-', '');
  return SECRET_KEY_ENDINGS.some((end) => last.endsWith(end) || last.endsWith(`${end}s`));
}

/**
 * A list of `key=value` with the values of secret keys replaced; commas escaped by a backslash stay in their value.
 * `hiding`: the list goes on a hidden value from the word before (`"a.password=x y"`), so its first part without
 * a `=` is that value's and goes too (`goesOn`). Says whether the list ends on a hidden value.
 */
export function redactPairList(list: string, hiding: boolean): { text: string; hiding: boolean; goesOn: boolean } {
  const out: string[] = [];
  let from = 0;
  let hidden = false;
  let goesOn = false;
  for (let at = 0; at <= list.length; at++) {
    if (at < list.length && (list[at] !== ',' || list[at - 1] === '\\')) continue;
    const pair = list.slice(from, at);
    if (hiding && from === 0 && !pair.includes('=')) {
      out.push('');
      hidden = goesOn = true;
    } else {
      const shown = redactPair(pair);
      out.push(shown);
      hidden = shown !== pair;
    }
    from = at + 1;
  }
  return { text: out.join(','), hiding: hidden, goesOn };
}

export function redactPair(pair: string): string {
  const eq = pair.indexOf('=');
  if (eq <= 0 || !secretKey(pair.slice(0, eq))) return pair;
  let end = eq + 1;
  while (end < pair.length && !VALUE_END.includes(pair[end]!)) end++;
  const value = pair.slice(eq + 1, end);
  if (value === '' || value.startsWith('$') || harmless(value) || workingDirectory(pair.slice(0, eq), value)) return pair;
  return `${pair.slice(0, eq + 1)}${MARK}${pair.slice(end)}`;
}

/** A PAIR_FLAGS flag at `parts[i]`, its list the next word (`--set a=1`) or glued after `=` (`--set=a=1`). */
export function pairFlag(parts: string[], i: number): void {
  const word = parts[i]!;
  if (PAIR_FLAGS.has(word)) return redactPairs(parts, i + 2, 0);
  const eq = word.indexOf('=');
  if (eq > 0 && PAIR_FLAGS.has(word.slice(0, eq))) redactPairs(parts, i, eq + 1);
}

/**
 * The `key=value` list that starts at `offset` in `parts[i]`, the value of a PAIR_FLAGS flag: quoted, it runs
 * across words to its closing quote (`-e "a=1 ansible_password=…"`).
 */
export function redactPairs(parts: string[], i: number, offset: number): void {
  const first = parts[i];
  if (first === undefined) return;
  const quote = first[offset] === '"' || first[offset] === "'" ? first[offset]! : '';
  let hiding = false;
  for (let j = i; j < parts.length; j += 2) {
    const word = parts[j]!;
    const from = j === i ? offset + quote.length : 0;
    const close = quote ? word.indexOf(quote, from) : -1;
    const end = close >= 0 ? close : word.length;
    const list = redactPairList(word.slice(from, end), hiding);
    // A hidden value's words after its first go with the space before them.
    if (list.goesOn) parts[j - 1] = '';
    hiding = list.hiding;
    parts[j] = `${word.slice(0, from)}${list.text}${word.slice(end)}`;
    if (!quote || close >= 0) return;
  }
}

/**
 * Replaces the value that starts at `offset` in `parts[i]` (a word of a line split with its separators) by
 * the mark: a quoted value up to its closing quote, across words; an unquoted one up to the shell's
 * punctuation after it. Variables (`$PASS`) and what is not a secret stay.
 */
export function redactValueAt(parts: string[], i: number, offset: number): void {
  const word = parts[i];
  if (word === undefined) return;
  const head = word.slice(0, offset);
  let rest = word.slice(offset);
  const escaped = rest.startsWith('\\"') || rest.startsWith("\\'");
  const quote = escaped ? rest.slice(0, 2) : rest[0] === '"' || rest[0] === "'" ? rest[0] : '';
  if (quote) {
    rest = rest.slice(quote.length);
    const close = rest.indexOf(quote);
    if (close >= 0) {
      if (close > 0 && !rest.startsWith('$')) parts[i] = `${head}${quote}${MARK}${rest.slice(close)}`;
      return;
    }
    // The closing quote is in a later word: everything up to it goes, spaces and all. The words between are emptied
    // in place (the line's reader skips empty words), not removed: removing them moved every word after, for each
    // such value of a line (22 s for 1.6 MB of `echo 'x`).
    for (let j = i + 2; j < parts.length; j += 2) {
      const at = parts[j]!.indexOf(quote);
      if (at < 0) continue;
      parts[i] = `${head}${quote}${MARK}${parts[j]!.slice(at)}`;
      parts.fill('', i + 1, j + 1);
      return;
    }
    parts.splice(i, parts.length - i, `${head}${quote}${MARK}`);
    return;
  }
  let end = 0;
  while (end < rest.length && !VALUE_END.includes(rest[end]!)) end++;
  const value = rest.slice(0, end);
  if (value === '' || value.startsWith('-') || value.startsWith('$') || harmless(value)) return;
  parts[i] = `${head}${MARK}${rest.slice(end)}`;
}
