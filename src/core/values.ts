import { givenTwiceMessage, unknownFlagMessage } from '../cli-flags.js';
import { defaultPlatformNames, type PlatformNames } from '../platform-names.js';
import { checkValues, type CheckOptions, type ValuesCheck } from '../values/check.js';
import type { ValuesCommand } from '../values/parse-command.js';
import { buildUpgradeCommand, upgradeRequestErrors, upgradeRequestSchema, type UpgradeCommand, type UpgradeRequest, type UpgradeRequestInput } from '../values/upgrade.js';
import { code, note, para, says, soft, strong, t, type Inline, type Part, type View } from './view.js';

/** How an answer names what was pasted, with its article ("these --set flags", not "this --set flags"). */
const formNames = { yaml: 'this values file', set: 'these --set flags', helm: 'this helm command' } as const;

/** Problems shown one paragraph each; the rest are counted, so the answer stays within Slack's 50 blocks. */
const maxProblems = 40;
/** Notes shown, then how many more there are (Slack's small print holds 10). */
const maxNotes = 10;

function notesPart(notes: readonly string[], leftOut: number): Part {
  const fits = notes.length + leftOut <= maxNotes;
  const shown = fits ? notes : notes.slice(0, maxNotes - 1);
  const more = notes.length + leftOut - shown.length;
  return note(...shown.map((n) => t`ℹ️ ${n}`), ...(more > 0 ? [t`… and ${more} more notes`] : []));
}

/** The answer to `values check`: each problem with its rule and corrected line, or "clean". */
export function valuesCheckView(check: ValuesCheck): View {
  if (!check.ok) return { summary: t`${check.message}`, parts: [para(t`⚠️ ${check.message}`)] };
  const form = formNames[check.form];
  const notes = check.notes.length > 0 ? [notesPart(check.notes, check.notesLeftOut)] : [];
  if (check.problems.length === 0) {
    const text = `No problems found in ${form}: it follows sections 2.2 and 2.3 of the guide.`;
    return { summary: t`${text}`, parts: [para(t`✅ ${text}`), ...notes] };
  }
  const n = check.problems.length;
  const text = `${n} problem${n === 1 ? '' : 's'} in ${form}`;
  const parts: Part[] = [para(t`🩺 ${strong(text)} — each with the corrected line, secrets redacted.`)];
  for (const p of check.problems.slice(0, maxProblems)) parts.push(para(t`${strong(code(p.key))} ${p.problem} ${soft(`(${p.rule})`)}`, p.fix));
  if (n > maxProblems) parts.push(note(t`… and ${n - maxProblems} more: fix these and check again.`));
  return { summary: t`${text}`, parts: [...parts, ...notes] };
}

const providerNames: Record<UpgradeRequest['provider'], string> = { S3: 'S3', AZURE: 'Azure Blob Storage', GCP: 'Google Cloud Storage', BUNDLED: 'the bundled local store' };

/** The upgrade command: what to fill in, then the script, to copy as it is. */
export function upgradeView(request: UpgradeRequest, command: UpgradeCommand): View {
  const text = `The upgrade command for ${providerNames[request.provider]}`;
  const fill: Inline = command.script.includes('<') ? t`Replace every ${code('<…>')} placeholder with your own value before running it; ` : [];
  const file = command.file ? ` The service-account JSON goes into ${command.file.name}, which the command encodes in base64 as the chart expects.` : '';
  return {
    summary: t`${text}`,
    parts: [
      para(t`🛠️ ${strong(text)}, with the database volume size ${request.volumeSize} (entry 18).`),
      { kind: 'code', text: command.script },
      note(t`${fill}it reuses the release's values and keeps installer.modules={cicd} (rule 4 of 2.2).${file}`),
    ],
  };
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

/** The flags of `values upgrade` (they mirror Slack's modal), after the command's name. */
export const upgradeFlagsUsage = `--provider S3|AZURE|GCP|BUNDLED [--logs-bucket B] [--cache-bucket B]
             [--logs-region R] [--cache-region R] [--iam-role] [--endpoint URL] [--azure-account NAME]
             [--azure-logs-container C] [--azure-cache-container C] [--volume-size 20Gi]`;

const flagName = (field: string): string => `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** The upgrade request that flags make, or what is wrong with them (one line each). */
export function upgradeFromFlags(args: readonly string[]): { ok: true; request: UpgradeRequest } | { ok: false; message: string; unknown?: boolean } {
  const input: Record<string, unknown> = { iamRole: false };
  /** Each flag's value as typed: a second, different one is refused, never left to win unseen. */
  const given = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = args[i]!.split(/=(.*)/s, 2) as [string, string | undefined];
    // A word that is no flag (`values upgrade S3`) is not a mistyped flag: say where its value goes.
    if (!name.startsWith('-')) return { ok: false, message: `unexpected argument ${name.slice(0, 60)} (values upgrade takes flags only, such as --provider S3)`, unknown: true };
    if (name === '--iam-role') {
      if (inline !== undefined) return { ok: false, message: '--iam-role takes no value' };
      input.iamRole = true;
      continue;
    }
    // Only the table's own flags: `constructor` or `toString` is what every object has, not a flag.
    const field = Object.hasOwn(upgradeFlags, name) ? upgradeFlags[name] : undefined;
    const value = inline ?? args[++i];
    if (!field) return { ok: false, message: unknownFlagMessage(name, ['--iam-role', ...Object.keys(upgradeFlags)]), unknown: true };
    if (value === undefined || value.startsWith('--')) return { ok: false, message: `${name} needs a value` };
    const before = given.get(name);
    if (before !== undefined && before !== value) return { ok: false, message: givenTwiceMessage(name, before, value) };
    given.set(name, value);
    input[field] = field === 'provider' ? value.toUpperCase() : value;
  }
  const parsed = upgradeRequestSchema.safeParse(input);
  if (!parsed.success) return { ok: false, message: parsed.error.issues.map((i) => `${flagName(String(i.path[0]))}: ${i.message}`).join('\n') };
  const errors = Object.entries(upgradeRequestErrors(parsed.data));
  if (errors.length > 0) return { ok: false, message: errors.map(([f, m]) => `${flagName(f)}: ${m}`).join('\n') };
  return { ok: true, request: parsed.data };
}

type Names = Pick<PlatformNames, 'platformNamespace' | 'installerReleaseName'>;

/** `values upgrade --provider …` typed as a line (the terminal): the command, or what is wrong. */
export function upgradeAnswer(args: readonly string[], names: Names = defaultPlatformNames): View {
  if (args.length === 0) return says(t`Give the modal's fields as flags: values upgrade ${upgradeFlagsUsage}`);
  const read = upgradeFromFlags(args);
  if (!read.ok) return says(t`${read.message}${read.unknown ? `\nvalues upgrade ${upgradeFlagsUsage}` : ''}`);
  return upgradeView(read.request, buildUpgradeCommand(read.request, names));
}

/** `values check <pasted text>`: the check, with the options the person gave. */
export function valuesCheckAnswer(command: Extract<ValuesCommand, { action: 'check' }>, names: CheckOptions['names']): View {
  return valuesCheckView(
    checkValues(command.text, {
      ...(command.nodeIamRole !== undefined ? { nodeIamRole: command.nodeIamRole } : {}),
      ...(command.s3Compatible ? { s3Compatible: true } : {}),
      ...(names ? { names } : {}),
    }),
  );
}
