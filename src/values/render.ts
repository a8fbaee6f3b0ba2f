import { stringify } from 'yaml';
import { redact } from '../redact.js';
import type { Fix } from './findings.js';
import { setFlag } from './helm-command.js';
import { gcpCredentialFromFile, isPlaceholder, isSecretPath, keyText, type KeyPath } from './keys.js';
import type { Origin, PasteForm } from './pasted.js';

/**
 * A value as an answer may show it: the values of secret keys (other than placeholders) never are, and
 * secret-looking text in any other key is redacted by shape too.
 */
function shown(path: KeyPath, value: unknown): unknown {
  if (value === gcpCredentialFromFile || isPlaceholder(value)) return value;
  if (isSecretPath(path)) return '[redacted]';
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? redact(v) : v));
  return value;
}

function yamlScalar(value: unknown): string {
  if (value === gcpCredentialFromFile) return "<base64 of gcp-credentials.json: base64 < gcp-credentials.json | tr -d '\\n'>";
  if (Array.isArray(value)) return `[${value.map((v) => yamlScalar(v)).join(', ')}]`;
  return stringify(value, { lineWidth: 0 }).trimEnd();
}

/** The YAML to write for `path`: the line itself when the key is in the paste, else the lines to add. */
function yamlSet(path: KeyPath, value: unknown, origins: ReadonlyMap<string, Origin>): string {
  const at = origins.get(keyText(path));
  const last = path[path.length - 1]!;
  if (at?.line !== undefined) return `line ${at.line}: ${' '.repeat(at.indent ?? 0)}${last}: ${yamlScalar(value)}`;
  let known = path.length - 1;
  while (known > 0 && origins.get(keyText(path.slice(0, known)))?.line === undefined) known--;
  const parent = known > 0 ? origins.get(keyText(path.slice(0, known))) : undefined;
  const base = parent ? (parent.indent ?? 0) + 2 : 0;
  // Inside braces a block line is no YAML: the entry goes in as braces write it (`KEY: value`, `KEY: {SUB: value}`).
  if (parent?.braces) {
    const entry = path.slice(known).reduceRight((inner, s, i, rest) => (i === rest.length - 1 ? `${s}: ${yamlScalar(value)}` : `${s}: {${inner}}`), '');
    return `in the braces of ${path[known - 1]}: (line ${parent.line}) add the entry: ${entry}`;
  }
  const lines = path.slice(known).map((s, i, rest) => `${' '.repeat(base + 2 * i)}${s}:${i === rest.length - 1 ? ` ${yamlScalar(value)}` : ''}`);
  return parent ? `under ${path[known - 1]}: (line ${parent.line}) add\n${lines.join('\n')}` : lines.join('\n');
}

/** A fix written in the form the person pasted: a YAML line, or a `--set` flag / helm flag. */
export function renderFix(fix: Fix, form: PasteForm, origins: ReadonlyMap<string, Origin>): string {
  switch (fix.kind) {
    case 'set': {
      const value = shown(fix.path, fix.value);
      return form === 'yaml' ? yamlSet(fix.path, value, origins) : setFlag(fix.path, value);
    }
    case 'remove': {
      const at = origins.get(keyText(fix.path));
      if (form === 'yaml') return at?.line !== undefined ? `delete line ${at.line}: ${' '.repeat(at.indent ?? 0)}${fix.path[fix.path.length - 1]}: …` : `delete ${keyText(fix.path)}`;
      return `remove --${at?.flag ?? 'set'} ${keyText(fix.path)}=…`;
    }
    case 'addFlag':
      return form === 'yaml' ? `add to the helm upgrade command: ${fix.flag}` : fix.flag;
    case 'dropFlag':
      return `remove ${fix.flag}`;
    case 'advice':
      return fix.text;
  }
}
