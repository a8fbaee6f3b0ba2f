import { parseFlags, unknownFlagMessage, type ParsedFlags } from '../cli-flags.js';
import { readInput } from '../commands/input.js';
import { InputError } from '../errors.js';
import { upgradeCommandBlocks, valuesAnswer } from '../handlers/blocks/values.js';
import { defaultPlatformNames, type PlatformNames } from '../platform-names.js';
import { blocksToText } from '../terminal/render.js';
import { checkValues, type CheckOptions, type ValuesCheck } from './check.js';
import type { ValuesCommand } from './parse-command.js';
import { buildUpgradeCommand, upgradeRequestErrors, upgradeRequestSchema, type UpgradeRequestInput } from './upgrade.js';

/** Streams a CLI command uses. */
export interface ValuesIO {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/** Values files are small; anything bigger is not one. */
const MAX_BYTES = 1024 * 1024;

export const valuesCliUsage = `usage: platform-medic values check [--json] [--iam-role | --no-iam-role] [--s3-compatible] [FILE]
       platform-medic values upgrade --provider S3|AZURE|GCP|BUNDLED [--logs-bucket B] [--cache-bucket B]
             [--logs-region R] [--cache-region R] [--iam-role] [--endpoint URL] [--azure-account NAME]
             [--azure-logs-container C] [--azure-cache-container C] [--volume-size 20Gi]`;

const readValues = (file: string | undefined, stdin: NodeJS.ReadableStream) => readInput(file, stdin, MAX_BYTES, 'a values file is at most 1 MB');

/** The `--json` answer: one object, problems with their key, problem, rule and fix (secrets redacted); notes beyond the first 50 counted in notesLeftOut. */
export function valuesJson(check: Extract<ValuesCheck, { ok: true }>): string {
  const problems = check.problems.map((p) => ({ key: p.key, problem: p.problem, rule: p.rule, fix: p.fix }));
  return JSON.stringify({ form: check.form, problems, notes: check.notes, ...(check.notesLeftOut > 0 ? { notesLeftOut: check.notesLeftOut } : {}) });
}

/** The answer to a check as terminal text (the same blocks Slack shows). */
export function valuesCheckText(text: string, options: CheckOptions = {}): string {
  return blocksToText(valuesAnswer(checkValues(text, options)).blocks);
}

const upgradeFlags: Record<string, keyof UpgradeRequestInput> = {
  '--provider': 'provider',
  '--logs-bucket': 'logsBucket',
  '--cache-bucket': 'cacheBucket',
  '--logs-region': 'logsRegion',
  '--cache-region': 'cacheRegion',
  '--endpoint': 'endpoint',
  '--azure-account': 'azureAccount',
  '--azure-logs-container': 'azureLogsContainer',
  '--azure-cache-container': 'azureCacheContainer',
  '--volume-size': 'volumeSize',
};

/** The upgrade command from flags that mirror the modal, or what is wrong with them. */
export function valuesUpgradeText(args: readonly string[], names: Pick<PlatformNames, 'platformNamespace' | 'installerReleaseName'> = defaultPlatformNames): { ok: true; text: string; script: string } | { ok: false; message: string } {
  const input: Record<string, unknown> = { iamRole: false };
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = args[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    if (name === '--iam-role') {
      input.iamRole = true;
      continue;
    }
    const field = upgradeFlags[name];
    const value = inline ?? args[++i];
    if (!field) return { ok: false, message: unknownFlagMessage(name, ['--iam-role', ...Object.keys(upgradeFlags)]) };
    if (value === undefined || value.startsWith('--')) return { ok: false, message: `${name} needs a value` };
    input[field] = field === 'provider' ? value.toUpperCase() : value;
  }
  const parsed = upgradeRequestSchema.safeParse(input);
  if (!parsed.success) return { ok: false, message: parsed.error.issues.map((i) => `--${String(i.path[0]).replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${i.message}`).join('\n') };
  const errors = Object.entries(upgradeRequestErrors(parsed.data));
  if (errors.length > 0) return { ok: false, message: errors.map(([f, m]) => `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${m}`).join('\n') };
  const command = buildUpgradeCommand(parsed.data, names);
  return { ok: true, text: blocksToText(upgradeCommandBlocks(parsed.data, command).blocks), script: command.script };
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
      io.stderr.write(`platform-medic values upgrade: ${r.message}\n`);
      return 2;
    }
    io.stdout.write(`${r.script}\n`);
    return 0;
  }
  if (sub !== 'check') {
    io.stderr.write(`${valuesCliUsage}\n`);
    return 2;
  }
  let flags: ParsedFlags;
  try {
    flags = parseFlags('values check', rest, { '--json': 'switch', '--iam-role': 'switch', '--no-iam-role': 'switch', '--s3-compatible': 'switch' }, 1);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    io.stderr.write(`platform-medic ${err.safeMessage}\n`);
    return 2;
  }
  const input = await readValues(flags.positional[0], io.stdin);
  if (!input.ok) {
    io.stderr.write(`platform-medic values check: ${input.message}\n`);
    return 2;
  }
  const options: CheckOptions = {
    ...(flags.has('--iam-role') ? { nodeIamRole: true } : flags.has('--no-iam-role') ? { nodeIamRole: false } : {}),
    ...(flags.has('--s3-compatible') ? { s3Compatible: true } : {}),
  };
  const check = checkValues(input.text, options);
  if (!check.ok) {
    io.stderr.write(`platform-medic values check: ${check.message}\n`);
    return 2;
  }
  io.stdout.write(`${flags.has('--json') ? valuesJson(check) : blocksToText(valuesAnswer(check).blocks)}\n`);
  return check.problems.length === 0 ? 0 : 1;
}

/** `values check <text>` and `values upgrade --provider …` typed in the terminal adapter. */
export function valuesTerminalAnswer(command: ValuesCommand, names: Pick<PlatformNames, 'platformNamespace' | 'installerReleaseName'> = defaultPlatformNames): string {
  if (command.action === 'upgrade') {
    if (command.args.length === 0) return `In the terminal, give the modal's fields as flags:\n${valuesCliUsage.split('\n').slice(1).join('\n').replace('platform-medic values', 'values')}`;
    const r = valuesUpgradeText(command.args, names);
    return r.ok ? r.text : r.message;
  }
  return valuesCheckText(command.text, {
    ...(command.nodeIamRole !== undefined ? { nodeIamRole: command.nodeIamRole } : {}),
    ...(command.s3Compatible ? { s3Compatible: true } : {}),
    names,
  });
}
