import type { z } from 'zod';
import { defaultPlatformNames, type PlatformNames } from '../platform-names.js';
import { redact } from '../redact.js';
import type { Finding, Fix, IssueParams, RuleRef } from './findings.js';
import { formatFindings, keyFindings } from './key-checks.js';
import { keys, keyText, type KeyPath } from './keys.js';
import { valuesLimits } from './limits.js';
import { readPaste } from './paste.js';
import type { PasteForm, PastedValues } from './pasted.js';
import { renderFix } from './render.js';
import { reliesOnIamRole, valueAt } from './rules.js';
import { valuesCheckSchema } from './schema.js';
import { bomUrl } from './helm-command.js';

/** One problem in pasted values, as the person reads it: the key, what is wrong, the rule, the corrected line. */
export interface ValuesProblem {
  readonly key: string;
  readonly problem: string;
  readonly rule: RuleRef;
  /** In the form of the paste: a YAML line, or a `--set`/helm flag. Secrets redacted. */
  readonly fix: string;
}

/** The answer to a paste: its problems (empty when clean) and notes; or why it could not be read. */
export type ValuesCheck =
  | {
      readonly ok: true;
      readonly form: PasteForm;
      readonly problems: readonly ValuesProblem[];
      /** At most valuesLimits.notes; the rest are counted in notesLeftOut, never dropped unsaid. */
      readonly notes: readonly string[];
      readonly notesLeftOut: number;
    }
  | { readonly ok: false; readonly message: string };

/** What the values alone cannot say, and the platform's names. */
export interface CheckOptions {
  /** Whether the nodes' IAM role carries an S3 permission policy (rule 1); unknown when undefined. */
  readonly nodeIamRole?: boolean;
  /** Whether the S3 storage is S3-compatible (MinIO, Ceph…) rather than AWS (rule 3). */
  readonly s3Compatible?: boolean;
  readonly names?: Pick<PlatformNames, 'platformNamespace' | 'installerReleaseName'>;
}

/** A guess at the intended value for a value of the wrong type, or advice. */
function coerce(path: KeyPath, value: unknown): Fix {
  if (typeof value === 'string' && /^(?:true|false)$/i.test(value)) return { kind: 'set', path, value: value.toLowerCase() === 'true' };
  if (keyText(path) === keyText(keys.provider) && typeof value === 'string') {
    const upper = value.trim().toUpperCase();
    const meant = upper === 'AWS' || upper === 'MINIO' ? 'S3' : upper === 'GCS' || upper === 'GOOGLE' ? 'GCP' : upper;
    if (meant === 'S3' || meant === 'AZURE' || meant === 'GCP') return { kind: 'set', path, value: meant };
  }
  return { kind: 'advice', text: 'correct the value as the message says' };
}

function findingOf(issue: z.core.$ZodIssue, values: unknown): Finding {
  const inValues = issue.path[0] === 'values';
  const path = (inValues ? issue.path.slice(1) : issue.path).map(String);
  const params = (issue as { params?: IssueParams & { corrected?: unknown } }).params;
  if (issue.code === 'custom' && params?.rule) {
    const fix: Fix = params.fix ?? (params.corrected !== undefined ? { kind: 'set', path, value: params.corrected } : { kind: 'advice', text: 'correct the value as the message says' });
    return { key: params.key ?? keyText(path), problem: issue.message, rule: params.rule, fix };
  }
  return { key: keyText(path), problem: issue.message, rule: '2.2 type', fix: coerce(path, valueAt(values, path)) };
}

/**
 * Removes every secret of the paste from an answer's text, by value. Text that quotes pasted values
 * (problems, notes) is also redacted by shape (src/redact.ts); fixes redact their values as they are
 * written (render.ts), since the shape patterns would also eat the fix's own syntax (`secrets: …`).
 */
export function scrub(text: string, secrets: ReadonlySet<string>, byShape = true): string {
  let out = text;
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join('[redacted]');
  return byShape ? redact(out) : out;
}

/** The top-level sections the guide's keys live in (installer, components, minio, configs, secrets). */
const coveredSections: readonly string[] = [...new Set(Object.values(keys).map((k) => k[0]))];

function notesFor(pasted: PastedValues, options: CheckOptions): string[] {
  const notes = [...pasted.notes];
  // A file with none of them (a manifest given by mistake) is "clean" only because nothing in it is checked: say so.
  // Not for a helm command: its -f files are not read, so its --set flags may rightly be few.
  const sections = typeof pasted.values === 'object' && pasted.values !== null ? Object.keys(pasted.values) : [];
  if (pasted.form !== 'helm' && !sections.some((s) => coveredSections.includes(s))) {
    notes.push(`None of its keys is one that sections 2.2 and 2.3 cover (${coveredSections.join(', ')}): is this the installer's values file?`);
  }
  // Keys set under configs: are told to move (key-checks.ts); they are set, only in the wrong section.
  const misplaced = [keys.s3AccessKey, keys.s3SecretKey].some((k) => valueAt(pasted.values, ['configs', ...k.slice(1)]) !== undefined);
  if (options.nodeIamRole === undefined && !misplaced && reliesOnIamRole(pasted.values, options.s3Compatible)) {
    notes.push("No S3 keys are set: that is right only if the nodes' IAM role carries an S3 policy (rule 1). If it does not, set both keys (rule 2).");
  }
  if (pasted.helm?.sub === 'upgrade' && valueAt(pasted.values, keys.volumeSize) === undefined) {
    notes.push("If this upgrade fails with 'cannot patch' for the database stateful set (entry 18), add --set components.postgres.persistence.volumeSize=20Gi.");
  }
  return notes;
}

/**
 * Checks pasted installer values (a YAML values file, `--set` flags, or a whole `helm upgrade` command)
 * against section 2.2 and 2.3 of the guide. Each problem names its key, what is wrong, the rule, and the
 * corrected line in the pasted form. Secrets from the paste never appear in the answer; nothing is kept.
 */
export function checkValues(text: string, options: CheckOptions = {}): ValuesCheck {
  const pasted = readPaste(text);
  if ('error' in pasted) return { ok: false, message: redact(pasted.error) };
  const names = options.names ?? defaultPlatformNames;
  const result = valuesCheckSchema.safeParse({
    values: pasted.values,
    form: pasted.form,
    ...(pasted.helm ? { helm: pasted.helm } : {}),
    ...(options.nodeIamRole !== undefined ? { nodeIamRole: options.nodeIamRole } : {}),
    ...(options.s3Compatible !== undefined ? { s3Compatible: options.s3Compatible } : {}),
    platform: { namespace: names.platformNamespace, release: names.installerReleaseName, bomUrl },
  });
  const findings = [...(result.error?.issues ?? []).map((i) => findingOf(i, pasted.values)), ...keyFindings(pasted.values), ...formatFindings(pasted.values)];
  // One problem per key: the first found is the most specific (a value's own check before the rules).
  const seen = new Set<string>();
  const problems: ValuesProblem[] = [];
  for (const f of findings) {
    if (seen.has(f.key)) continue;
    seen.add(f.key);
    problems.push({ key: f.key, problem: scrub(f.problem, pasted.secrets), rule: f.rule, fix: scrub(renderFix(f.fix, pasted.form, pasted.origins), pasted.secrets, false) });
  }
  const notes = notesFor(pasted, options);
  const shown = notes.slice(0, valuesLimits.notes).map((n) => scrub(n, pasted.secrets));
  return { ok: true, form: pasted.form, problems, notes: shown, notesLeftOut: notes.length - shown.length };
}
