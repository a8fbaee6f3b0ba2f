import { stringify } from 'yaml';
import { redact } from '../redact.js';
import type { Fix } from './findings.js';
import { gcpCredentialFromFile } from './gcp.js';
import { isPlaceholder, isSecretPath, keyText, type KeyPath } from './keys.js';
import type { Origin, PasteForm } from './pasted.js';
import { shellQuote } from './shell.js';

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

/** A value as `--set` reads it back: lists in braces, commas and backslashes escaped. */
function setValue(value: unknown): string {
  const escape = (s: string) => s.replace(/\\/g, '\\\\').replace(/,/g, '\\,');
  if (Array.isArray(value)) return `{${value.map((v) => escape(String(v))).join(',')}}`;
  return escape(String(value));
}

/** `--set` would type it (true, 12, null): a string that looks so needs `--set-string`. */
const looksTyped = (s: string): boolean => /^(?:true|false|null|0|-?[1-9][0-9]{0,17})$/i.test(s);

/** The flag that sets `path` to `value`, quoted for the shell. */
export function setFlag(path: KeyPath, value: unknown): string {
  const key = keyText(path);
  if (value === gcpCredentialFromFile) return `--set ${key}="${value}"`;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return `--set-json ${shellQuote(`${key}=${JSON.stringify(value)}`)}`;
  const flag = typeof value === 'string' && looksTyped(value) ? '--set-string' : '--set';
  return `${flag} ${shellQuote(`${key}=${setValue(value)}`)}`;
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
