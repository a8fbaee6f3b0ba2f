import { parseFlags, type ParsedFlags } from '../cli-flags.js';
import { readInput } from './input.js';
import { closestWord } from '../spelling.js';
import { visible } from '../views/visible.js';
import { InputError } from '../errors.js';
import { upgradeAnswer, upgradeFlagsUsage, upgradeFromFlags, upgradeView, valuesCheckAnswer, valuesCheckView } from '../core/values.js';
import { defaultPlatformNames, type PlatformNames } from '../platform-names.js';
import { checkValues, type CheckOptions, type ValuesCheck } from '../values/check.js';
import { bothIamRoleFlags, type ValuesCommand } from '../values/parse-command.js';
import { buildUpgradeCommand } from '../values/upgrade.js';
import { toText } from '../views/plain.js';

/** Streams a CLI command uses. */
export interface ValuesIO {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/** Values files are small; anything bigger is not one. */
const MAX_BYTES = 1024 * 1024;

export const valuesCliUsage = `usage: platform-medic values check [--json] [--iam-role | --no-iam-role] [--s3-compatible] [FILE]
       platform-medic values upgrade ${upgradeFlagsUsage}`;

const readValues = (file: string | undefined, stdin: NodeJS.ReadableStream) => readInput(file, stdin, MAX_BYTES, 'a values file is at most 1 MB');

/** The `--json` answer: one object, problems with their key, problem, rule and fix (secrets redacted); notes beyond the first 50 counted in notesLeftOut. */
export function valuesJson(check: Extract<ValuesCheck, { ok: true }>): string {
  const problems = check.problems.map((p) => ({ key: p.key, problem: p.problem, rule: p.rule, fix: p.fix }));
  return JSON.stringify({ form: check.form, problems, notes: check.notes, ...(check.notesLeftOut > 0 ? { notesLeftOut: check.notesLeftOut } : {}) });
}

/** The upgrade command from flags that mirror the modal, or what is wrong with them. */
export function valuesUpgradeText(args: readonly string[], names: Pick<PlatformNames, 'platformNamespace' | 'installerReleaseName'> = defaultPlatformNames): { ok: true; text: string; script: string } | { ok: false; message: string } {
  const read = upgradeFromFlags(args);
  if (!read.ok) return { ok: false, message: read.message };
  const command = buildUpgradeCommand(read.request, names);
  return { ok: true, text: toText(upgradeView(read.request, command)), script: command.script };
}

/**
 * `platform-medic values check [FILE]` (standard input without a file): exit 0 when clean, 1 with
 * problems, 2 on bad input. `platform-medic values upgrade …` prints the command (exit 0, or 2).
 */
export async function runValuesCommand(args: string[], io: ValuesIO): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === 'upgrade') {
    const r = valuesUpgradeText(rest);
    if (!r.ok) {
      // One line, as every bad input on the command line: the fields' problems side by side.
      io.stderr.write(`platform-medic values upgrade: ${r.message.split('\n').join('; ')}\n`);
      return 2;
    }
    io.stdout.write(`${r.script}\n`);
    return 0;
  }
  if (sub !== 'check') {
    // A mistyped subcommand is named with the closest one, as an unknown command is (src/cli.ts); none given, the usage alone.
    const near = sub === undefined ? undefined : closestWord(sub, ['check', 'upgrade']);
    const named = sub === undefined ? '' : `platform-medic values: unknown subcommand "${visible(sub.slice(0, 60))}".${near ? ` Did you mean "${near}"?` : ''}\n`;
    io.stderr.write(`${named}${valuesCliUsage}\n`);
    return 2;
  }
  let flags: ParsedFlags;
  try {
    flags = parseFlags('values check', rest, { '--json': 'switch', '--iam-role': 'switch', '--no-iam-role': 'switch', '--s3-compatible': 'switch' }, 1);
    if (flags.has('--iam-role') && flags.has('--no-iam-role')) throw new InputError(`values check: ${bothIamRoleFlags.replaceAll('`', '')}`);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`platform-medic ${err.safeMessage}\n`);
    return 2;
  }
  const file = flags.positional[0];
  // Read from a terminal, it says what it waits for, as match does: a blank line alone looks hung.
  if ((!file || file === '-') && (io.stdin as { isTTY?: boolean }).isTTY) io.stderr.write('platform-medic values check: paste the values file, --set flags or helm upgrade command, then Ctrl-D on a line of its own (or give a FILE)\n');
  const input = await readValues(file, io.stdin);
  if (!input.ok) {
    io.stderr.write(`platform-medic values check: ${input.message}\n`);
    return 2;
  }
  if (input.note) io.stderr.write(`platform-medic values check: ${input.note}\n`);
  const options: CheckOptions = {
    ...(flags.has('--iam-role') ? { nodeIamRole: true } : flags.has('--no-iam-role') ? { nodeIamRole: false } : {}),
    ...(flags.has('--s3-compatible') ? { s3Compatible: true } : {}),
  };
  const check = checkValues(input.text, options);
  if (!check.ok) {
    io.stderr.write(`platform-medic values check: ${check.message}\n`);
    return 2;
  }
  io.stdout.write(`${flags.has('--json') ? valuesJson(check) : toText(valuesCheckView(check))}\n`);
  return check.problems.length === 0 ? 0 : 1;
}

/** `values check <text>` and `values upgrade --provider …` as a line typed in the terminal: the core's answer, as text. */
export function valuesTerminalAnswer(command: ValuesCommand, names: Pick<PlatformNames, 'platformNamespace' | 'installerReleaseName'> = defaultPlatformNames): string {
  return toText(command.action === 'upgrade' ? upgradeAnswer(command.args, names) : valuesCheckAnswer(command, names));
}
