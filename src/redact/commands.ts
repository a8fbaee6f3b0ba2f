/** Redaction on command lines: each line read word by word with flags.ts's rules, a backslash carrying it to the next. */
import { DASH_P_TOOLS, GLUED_TOOLS, POSITIONAL_SECRETS, SECRET_SHORT_FLAGS, SHELL_PUNCTUATION, USER_PASS_TOOLS, awaitPositional, freshState, htpasswdWord, pairFlag, redactValueAt, secretFlag, secretKey, verbSecretWord, type CommandState } from './flags.js';

/** The program a word names, past the shell's punctuation, a path and `.exe`: `$(/usr/bin/docker.exe` → `docker`. */
export function programOf(word: string): string {
  let start = 0;
  for (let i = 0; i < word.length; i++) if (SHELL_PUNCTUATION.includes(word[i]!)) start = i + 1;
  let end = word.length;
  while (end > start && SHELL_PUNCTUATION.includes(word[end - 1]!)) end--;
  let name = word.slice(start, end).toLowerCase();
  name = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  return name.endsWith('.exe') ? name.slice(0, -4) : name;
}


/**
 * Passwords given on a command line by flag: after `-p` of any `… login` (docker, podman, helm registry, oc,
 * az acr, cf, …) and of sshpass or the mongo shells, glued to mysql's `-p`, after redis-cli's `-a`, and the
 * password half of curl's `-u user:password`. Elsewhere `-p` is a port or a publish flag (psql, docker run)
 * and is kept. Read word by word, a line at a time; a line ending in a backslash goes on in the next.
 */
export function commandLinePasswords(text: string): string {
  if (!mayHoldCommandSecret(text)) return text;
  let carried: CommandState | undefined;
  return text
    .split('\n')
    .map((line) => {
      const state = carried ?? freshState();
      carried = line.trimEnd().endsWith('\\') ? state : undefined;
      // A line that goes on in the next is read even without a flag: its command words count there.
      if (!carried && !state.pending && !state.login && !mayHoldCommandSecret(line)) return line;
      const parts = line.split(/([ \t]+)/);
      // Read once a line, not once a word: a line of many `echo` words read it whole for each of them.
      const passwordStdin = line.includes('--password-stdin');
      const feedsLogin = passwordStdin || line.includes('--with-token');
      const decodes = decodesBase64(line);
      for (let i = 0; i < parts.length; i += 2) {
        const word = parts[i]!;
        if (word === '') continue;
        if (state.pending) {
          // The backslash that carries the value to the next line keeps it pending.
          if (word === '\\') continue;
          state.pending = false;
          redactValueAt(parts, i, 0);
          continue;
        }
        if (secretFlag(word)) {
          flagValue(state, parts, i + 2);
          continue;
        }
        const program = programOf(word);
        const verbAt = state.secretAt === 0 ? state.verbs?.get(word) : undefined;
        if (verbAt !== undefined) awaitPositional(state, verbAt);
        else if (state.secretAt > 0 && !state.htpasswd) verbSecretWord(state, parts, i);
        if (state.htpasswd && program !== 'htpasswd') htpasswdWord(state, parts, i);
        const verbs = POSITIONAL_SECRETS.get(program);
        if (verbs) {
          state.verbs = verbs;
          state.htpasswd = false;
          state.secretAt = 0;
        }
        if (program === 'htpasswd') {
          awaitPositional(state, 0);
          state.htpasswd = true;
          state.batch = false;
          state.display = false;
        }
        state.secretFlags = SECRET_SHORT_FLAGS.get(program) ?? state.secretFlags;
        if (program === 'login' && state.command) state.login = true;
        if (DASH_P_TOOLS.has(program)) state.dashP = true;
        if (GLUED_TOOLS.has(program)) state.glued = true;
        if (USER_PASS_TOOLS.has(program)) state.userPass = true;
        if (!word.startsWith('-')) state.command = true;
        // What a herestring feeds a login (`gh auth login --with-token <<< …`) is its token.
        if (word.startsWith('<<<') && (state.login || feedsLogin)) {
          if (word === '<<<') redactValueAt(parts, i + 2, 0);
          else redactValueAt(parts, i, 3);
        }
        if (word[0] === '-') pairFlag(parts, i);
        if (word.startsWith('--')) {
          if (state.userPass && word === '--user') redactUserPass(parts, i + 2);
          else if (state.userPass && word.startsWith('--user=')) redactUserPass(parts, i, 7);
          else if (state.userPass && word === '--cookie') cookieValue(parts, i + 2, 0);
          else if (state.userPass && word.startsWith('--cookie=')) cookieValue(parts, i, 9);
          else if (word === '--from-literal') literalPair(parts, i + 2, 0);
          else if (word.startsWith('--from-literal=')) literalPair(parts, i, 15);
          continue;
        }
        if (state.login || state.dashP) {
          if (word === '-p') flagValue(state, parts, i + 2);
          else if (word.startsWith('-p=')) redactValueAt(parts, i, 3);
          else if (word.startsWith('-p') && word.length > 2) redactValueAt(parts, i, 2);
        } else if (state.glued && word.startsWith('-p') && word.length > 2) {
          redactValueAt(parts, i, word.startsWith('-p=') ? 3 : 2);
        }
        if (state.secretFlags?.has(word)) flagValue(state, parts, i + 2);
        if (state.userPass && word === '-b') cookieValue(parts, i + 2, 0);
        // `echo SECRET | docker login --password-stdin`: what echo prints is the password.
        if ((program === 'echo' || program === 'printf') && passwordStdin) redactValueAt(parts, i + 2, 0);
        // `echo VALUE | base64 -d`: what is decoded is a Secret's value (the guide reads the admin password so, 5.1).
        if ((program === 'echo' || program === 'printf') && decodes) redactValueAt(parts, pastFlags(parts, i + 2), 0);
        if (state.userPass && word === '-u') redactUserPass(parts, i + 2);
        else if (state.userPass && word.startsWith('-u') && word.length > 2) redactUserPass(parts, i, 2);
      }
      return parts.join('');
    })
    .join('\n');
}

/**
 * A flag's value, the word at `parts[i]`; when the line ends there or at the backslash that carries it on
 * (`docker login -u admin -p \\`), the next line's first word (a line not carried on drops what is pending:
 * `mysql -p` alone prompts for the password).
 */
export function flagValue(state: CommandState, parts: string[], i: number): void {
  const value = parts[i]?.trim();
  if (value === undefined || value === '' || value === '\\') state.pending = true;
  else redactValueAt(parts, i, 0);
}

/** Whether a text may hold a secret on a command line: a flag, or a verb whose secret is positional (`vault login s.…`). */
export function mayHoldCommandSecret(text: string): boolean {
  return mayHaveFlags(text) || text.includes(' login ') || text.includes(' auth ') || text.includes('authtoken ');
}

/** Whether a line decodes base64 (`| base64 -d`, `--decode`, macOS's `-D`). */
function decodesBase64(line: string): boolean {
  return ['base64 -d', 'base64 --decode', 'base64 -D'].some((decode) => line.includes(decode));
}

/** The first word from `parts[i]` on that is not a flag (`echo -n VALUE`). */
function pastFlags(parts: readonly string[], i: number): number {
  while (parts[i]?.startsWith('-')) i += 2;
  return i;
}

/** Whether a text may hold a command-line flag: a dash after a space or a tab, or at its start (not `kube-apiserver`). */
export function mayHaveFlags(text: string): boolean {
  return text.includes(' -') || text.includes('\t-') || text.startsWith('-');
}

/** curl's cookies at `parts[i]` (from `offset`): `-b "session=…"` is the cookie itself, `-b cookies.txt` a file that stays. */
export function cookieValue(parts: string[], i: number, offset: number): void {
  if (parts[i]?.includes('=', offset)) redactValueAt(parts, i, offset);
}

/** A Secret's `--from-literal` at `parts[i]` (from `offset`): its value goes when its key names a secret (`dbpassword=`, `apitoken=`). */
export function literalPair(parts: string[], i: number, offset: number): void {
  const word = parts[i];
  const eq = word?.indexOf('=', offset) ?? -1;
  if (eq > offset && secretKey(word!.slice(offset, eq))) redactValueAt(parts, i, eq + 1);
}

/** The password half of `user:password` at `parts[i]` (from `offset`), when there is one. */
export function redactUserPass(parts: string[], i: number, offset = 0): void {
  const word = parts[i];
  if (word === undefined) return;
  const colon = word.indexOf(':', offset);
  if (colon > offset && colon + 1 < word.length) redactValueAt(parts, i, colon + 1);
}
