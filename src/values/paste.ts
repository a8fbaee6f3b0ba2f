import { keyText } from './keys.js';
import { keyTooDeep, shapeProblem, tooManyAssignments, valuesLimits } from './limits.js';
import type { Origin, PasteForm, PastedValues } from './pasted.js';
import type { HelmCommand } from './schema.js';
import { secretsOf } from './secrets.js';
import { ownValue, parseSetArgument, setOwn, setPath, type Assignment, type SetKind } from './set-flags.js';
import { knownSubstitution, parseShell, type Word } from './shell.js';
import { readYaml } from './yaml.js';

/** Text pasted in chat often arrives in a code fence and with typographic quotes. */
export function normalisePaste(text: string): string {
  const plain = text
    .replace(/\r\n/g, '\n')
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2018\u2019]/g, "'")
    // A language tag counts only when the fence's line ends after it (```installer: is YAML, not a tag).
    .replace(/^[ \t]*```(?:[A-Za-z]{1,12}[ \t]*\n|[ \t]*\n?)/, '')
    .trimEnd();
  // The closing fence is cut by hand: an unanchored pattern for it would rescan runs of blanks.
  return plain.endsWith('```') ? plain.slice(0, -3) : plain;
}

/**
 * Whether the text holds a `helm … upgrade|install` command: `helm` as a word, then `upgrade` or
 * `install` among its next seven words (global flags may stand between). Written as a scan rather than
 * one pattern: the single regular expression took the ReDoS checker ~9 s to prove linear, which timed
 * out on a busy machine.
 */
function isHelmCommand(text: string): boolean {
  for (const line of text.split('\n')) {
    const words = line.split(/[ \t]+/);
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!;
      const at = word.lastIndexOf('helm');
      if (at < 0 || at + 4 !== word.length || (at > 0 && !/[;&|(]/.test(word[at - 1]!))) continue;
      const next = words.slice(i + 1, i + 8);
      const verb = next.findIndex((w) => /^(?:upgrade|install)(?:$|[^\w])/.test(w));
      if (verb >= 0 && next.slice(0, verb).every((w) => /^[-\w=./]{1,200}$/.test(w))) return true;
    }
  }
  return false;
}
const setFlagStart = /^(?:--set(?:-string|-json|-literal|-file)?|-f|--values|--reuse-values|--reset-values)(?:[ \t=]|$)/;
const assignmentStart = /^[A-Za-z_][A-Za-z0-9_.\\-]{0,200}(?:\[[0-9]{1,4}\])?=/;

/** Reads pasted values in any of the three forms, or says why it cannot. */
export function readPaste(raw: string): PastedValues | { error: string } {
  const text = normalisePaste(raw).trim();
  if (text === '') return { error: 'There is nothing to check: paste a values file, --set flags or a helm upgrade command.' };
  if (isHelmCommand(text)) return readHelm(text);
  if (setFlagStart.test(text)) return readFlags(parseShell(text).commands.flat(), new Map(), 'set');
  if (assignmentStart.test(text)) return readFlags(parseShell(text).commands.flat().flatMap((w) => [{ text: '--set', dynamic: false }, w]), new Map(), 'set');
  return readYaml(text);
}

const setKinds: Record<string, SetKind> = { '--set': 'set', '--set-string': 'set-string', '--set-json': 'set-json', '--set-literal': 'set-literal', '--set-file': 'set-file' };
/** Helm flags that take a value, so that the words after them are not taken for the release or chart. */
const flagsWithValue = new Set([
  '-n', '--namespace', '-f', '--values', '--version', '--timeout', '--kube-context', '--kubeconfig', '--description', '--post-renderer',
  '--post-renderer-args', '--repo', '--username', '--password', '--ca-file', '--cert-file', '--key-file', '--keyring', '--history-max',
  '--kube-apiserver', '--kube-as-user', '--kube-as-group', '--kube-ca-file', '--kube-token', '--registry-config', '--repository-cache',
  '--repository-config', '--labels', '-l', '--burst-limit', '--qps', '-o', '--output', '--wait-for', ...Object.keys(setKinds),
]);

interface FlagsRead {
  positionals: string[];
  namespace?: string;
  valuesFiles: string[];
  reuseValues: boolean;
  resetValues: boolean;
  install: boolean;
}

/** Reads helm's flags from words: --set family into the values tree, the rest into `read`. */
function readFlags(words: readonly Word[], files: ReadonlyMap<string, string>, form: PasteForm, read?: FlagsRead): PastedValues | { error: string } {
  const values: Record<string, unknown> = {};
  const origins = new Map<string, Origin>();
  const notes: string[] = [];
  const secrets = new Set<string>();
  const r: FlagsRead = read ?? { positionals: [], valuesFiles: [], reuseValues: false, resetValues: false, install: false };
  // Helm merges values files first, then --set-json, --set, --set-string, --set-file, --set-literal.
  const order: SetKind[] = ['set-json', 'set', 'set-string', 'set-file', 'set-literal'];
  const sets: { kind: SetKind; word: Word }[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const eq = w.text.startsWith('--') ? w.text.indexOf('=') : -1;
    const name = eq > 0 ? w.text.slice(0, eq) : w.text;
    const inline = eq > 0 ? w.text.slice(eq + 1) : undefined;
    const value = () => (inline !== undefined ? { text: inline, dynamic: w.dynamic } : words[++i]);
    if (name in setKinds) {
      const v = value();
      if (v) sets.push({ kind: setKinds[name]!, word: v });
    } else if (name === '-f' || name === '--values') {
      const v = value();
      if (v) r.valuesFiles.push(...v.text.split(','));
    } else if (name === '-n' || name === '--namespace') r.namespace = value()?.text;
    else if (name === '--reuse-values' || name === '--reset-then-reuse-values') r.reuseValues = true;
    else if (name === '--reset-values') r.resetValues = true;
    else if (name === '--install' || name === '-i') r.install = true;
    else if (name === '--password') {
      const v = value();
      if (v) secrets.add(v.text);
    } else if (flagsWithValue.has(name)) value();
    else if (!w.text.startsWith('-')) r.positionals.push(w.text);
  }
  for (const file of r.valuesFiles) {
    if (/(?:^|\/)devtron-bom\.yaml$/.test(file)) continue;
    const body = files.get(file);
    if (body === undefined) {
      notes.push(`The values file ${file} is not in the paste, so it was not checked; paste it to check it.`);
      continue;
    }
    const inner = readYaml(body);
    if ('error' in inner) notes.push(`${file}: ${inner.error}`);
    else mergeInto(values, inner.values);
  }
  // Every flag is read before any is applied, so that too many assignments or too deep a key is refused
  // before the values grow, and each repeated key is noted once.
  const parsedSets: { kind: SetKind; assignments: Assignment[] }[] = [];
  let assignments = 0;
  for (const kind of order) {
    for (const { word } of sets.filter((s) => s.kind === kind)) {
      const text = substitute(word.text, files);
      if (word.braceExpands) notes.push(`\`${word.text.slice(0, 80)}\` is not quoted: the shell expands {a,b} into separate words before helm sees them. Quote the whole flag value.`);
      const parsed = parseSetArgument(text, kind);
      if (!parsed.ok) return { error: `--${kind} ${word.text.slice(0, 80)}: ${parsed.message}` };
      const deep = parsed.assignments.find((a) => a.path.length > valuesLimits.depth);
      if (deep) return { error: keyTooDeep(deep.path) };
      assignments += parsed.assignments.length;
      if (assignments <= valuesLimits.assignments) parsedSets.push({ kind, assignments: parsed.assignments });
    }
  }
  if (assignments > valuesLimits.assignments) return { error: tooManyAssignments(assignments) };
  const times = new Map<string, number>();
  for (const { kind, assignments: list } of parsedSets) {
    for (const a of list) {
      const key = keyText(a.path);
      times.set(key, (times.get(key) ?? 0) + 1);
      if (kind === 'set-file') {
        notes.push(`--set-file reads ${String(a.value)} on your machine for ${key}, so that value was not checked.`);
        continue;
      }
      const v = a.value;
      if (typeof v === 'string' && v.includes('$(')) notes.push(`${key} is computed by the shell (\`$(…)\`), so its value was not checked.`);
      setPath(values, a.path, v);
      origins.set(key, { flag: kind });
    }
  }
  for (const [key, n] of times) if (n > 1) notes.push(`${key} is set ${n.toLocaleString('en')} times; helm keeps the last.`);
  const shape = shapeProblem(values);
  if (shape) return { error: shape };
  for (const s of secretsOf(values, files)) secrets.add(s);
  return { form, values, origins, notes, secrets };
}

/**
 * The word as the shell would hand it to helm, as far as it can be known: each `$(…)` that reads a file
 * of the paste is replaced by its value (before helm's own parsing, as the shell does); others are kept.
 */
function substitute(word: string, files: ReadonlyMap<string, string>): string {
  let out = '';
  let i = 0;
  for (;;) {
    const start = word.indexOf('$(', i);
    if (start === -1) return out + word.slice(i);
    let depth = 0;
    let end = start + 1;
    for (; end < word.length; end++) {
      if (word[end] === '(') depth++;
      else if (word[end] === ')' && --depth === 0) break;
    }
    const whole = word.slice(start, end + 1);
    out += word.slice(i, start) + (knownSubstitution(whole, files) ?? whole);
    i = end + 1;
  }
}

function readHelm(text: string): PastedValues | { error: string } {
  const script = parseShell(text);
  const commands = script.commands.filter((c) => c[0]?.text === 'helm' || c[0]?.text.endsWith('/helm'));
  const command = commands.find((c) => c.some((w) => w.text === 'upgrade' || w.text === 'install'));
  if (!command) return { error: 'I found no helm upgrade or helm install command in this paste.' };
  const subAt = command.findIndex((w) => w.text === 'upgrade' || w.text === 'install');
  const read: FlagsRead = { positionals: [], valuesFiles: [], reuseValues: false, resetValues: false, install: false };
  const result = readFlags(command.slice(subAt + 1), script.files, 'helm', read);
  if ('error' in result) return result;
  const [release, chart] = read.positionals;
  const helm: HelmCommand = {
    sub: command[subAt]!.text as 'upgrade' | 'install',
    install: read.install,
    reuseValues: read.reuseValues,
    resetValues: read.resetValues,
    ...(read.namespace !== undefined ? { namespace: read.namespace } : {}),
    ...(release !== undefined ? { release } : {}),
    ...(chart !== undefined ? { chart } : {}),
    valuesFiles: read.valuesFiles,
  };
  const notes = [...result.notes];
  if (commands.filter((c) => c.some((w) => w.text === 'upgrade' || w.text === 'install')).length > 1) notes.push('The paste has more than one helm upgrade or install; only the first was checked.');
  return { ...result, notes, helm };
}

/** Merges values files as helm does: maps key by key, anything else replaced. Iterative; both trees are already bounded. */
function mergeInto(into: Record<string, unknown>, from: Record<string, unknown>): void {
  const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const stack: [Record<string, unknown>, Record<string, unknown>][] = [[into, from]];
  while (stack.length > 0) {
    const [to, add] = stack.pop()!;
    for (const [k, v] of Object.entries(add)) {
      const cur = ownValue(to, k);
      if (isMap(v) && isMap(cur)) stack.push([cur, v]);
      else setOwn(to, k, v);
    }
  }
}
