/** `/platform values …`, parsed: a check of pasted values, or the upgrade command (modal, or flags in the terminal). */
export type ValuesCommand =
  | { kind: 'values'; action: 'check'; text: string; nodeIamRole?: boolean; s3Compatible?: boolean }
  | { kind: 'values'; action: 'upgrade'; args: string[] };

export const valuesUsage =
  'Usage: `/platform values check [--iam-role | --no-iam-role] [--s3-compatible] <values file, --set flags or helm upgrade command>`, or `/platform values upgrade` for the exact upgrade command.';

/** `--iam-role` and `--no-iam-role` together: the refusal, in the command's words (backticks for Slack's code spans). */
export const bothIamRoleFlags = '`--iam-role` and `--no-iam-role` say opposite things; give one of them';

const option = /^(--iam-role|--no-iam-role|--s3-compatible)(?=\s|$)/;

/**
 * The text after `/platform values`. The pasted text keeps its lines and indentation (YAML needs
 * them); leading options say what the values cannot (the nodes' IAM role, S3-compatible storage).
 */
export function parseValuesCommand(rest: string): ValuesCommand | { kind: 'usage'; message: string } {
  const sub = (/^\S+/.exec(rest)?.[0] ?? '').toLowerCase();
  let text = rest.slice(sub.length).replace(/^[ \t]+/, '');
  if (sub === 'upgrade') return { kind: 'values', action: 'upgrade', args: text.split(/\s+/).filter(Boolean) };
  if (sub !== 'check') return { kind: 'usage', message: valuesUsage };
  const flags: { nodeIamRole?: boolean; s3Compatible?: boolean } = {};
  for (let m = option.exec(text); m; m = option.exec(text)) {
    if (m[1] === '--s3-compatible') flags.s3Compatible = true;
    else {
      const iamRole = m[1] === '--iam-role';
      // Both given, one would be dropped unseen and the check would answer for values the person did not describe.
      if (flags.nodeIamRole !== undefined && flags.nodeIamRole !== iamRole) return { kind: 'usage', message: `${bothIamRoleFlags}. ${valuesUsage}` };
      flags.nodeIamRole = iamRole;
    }
    text = text.slice(m[0].length).replace(/^[ \t]+/, '');
  }
  const pasted = text.replace(/^\s*\n/, '');
  if (pasted.trim() === '') return { kind: 'usage', message: `Paste the values after it. ${valuesUsage}` };
  return { kind: 'values', action: 'check', text: pasted, ...flags };
}
