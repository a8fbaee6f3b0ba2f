import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { valuesAnswer } from '../../src/views/slack/values.js';
import { checkValues } from '../../src/values/check.js';
import { blocksToText } from '../../src/views/text.js';
import { medicArgs } from '../support/medic-process.js';

const dir = mkdtempSync(join(tmpdir(), 'medic-values-limits-'));

/** `platform-medic values check [--json] FILE` as a user runs it: exit code, standard output and error. */
function check(name: string, text: string, json = false, env: Record<string, string> = {}) {
  const file = join(dir, name);
  writeFileSync(file, text);
  const r = spawnSync(process.execPath, medicArgs('values', 'check', ...(json ? ['--json'] : []), file), {
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PLATFORM_MEDIC_CONFIG: '', ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A key of `n` dotted segments: k0.k1.k2… */
const dotted = (n: number): string => Array.from({ length: n }, (_, i) => `k${i}`).join('.');

/** Asserts exit 2 with exactly one line on standard error, which matches `expected`; nothing on standard output. */
function refused(r: ReturnType<typeof check>, expected: RegExp): void {
  expect(r.err).not.toMatch(/\n\s+at |RangeError|unexpected error/);
  expect(r.err.trimEnd().split('\n')).toHaveLength(1);
  expect(r.err.trimEnd()).toMatch(expected);
  expect(r.out).toBe('');
  expect(r.code).toBe(2);
}

// Each test starts the command line; a busy machine takes seconds per start.
describe('values check on hostile input: one line, exit 2, bounded time', { timeout: 120_000 }, () => {
  it('refuses a self-referencing anchor (14 bytes): the anchor refers to itself', () => {
    const text = 'a: &a\n  b: *a\n';
    expect(Buffer.byteLength(text)).toBe(14);
    refused(check('anchor.yaml', text), /^platform-medic values check: an anchor refers to itself: a\.b is \*a, which contains it$/);
  });

  it('refuses an alias bomb (nine levels of nine aliases) as too many aliases', () => {
    const names = 'abcdefghi';
    let text = `a: &a [${Array(9).fill('"lol"').join(',')}]\n`;
    for (let i = 1; i < names.length; i++) text += `${names[i]}: &${names[i]} [${Array(9).fill(`*${names[i - 1]}`).join(',')}]\n`;
    refused(check('bomb.yaml', text), /^platform-medic values check: the values use too many aliases \(YAML \*references\): values check expands at most 100$/);
  });

  it.each([1800, 2000])('refuses a --set key of %i dotted segments as too deep', (n) => {
    refused(check(`segments-${n}.txt`, `--set ${dotted(n)}=1`), new RegExp(`^platform-medic values check: too deep: the key k0\\.k1\\.k2\\.k3\\.k4\\.k5\\.k6\\.k7\\.k8\\.k9\\.k10… has ${n.toLocaleString('en')} levels; values check reads at most 100$`));
  });

  it('refuses --set-json nested 1,750 deep as too deep', () => {
    const json = `${'{"a":'.repeat(1750)}1${'}'.repeat(1750)}`;
    refused(check('json-1750.txt', `--set-json 'x=${json}'`), /^platform-medic values check: too deep: x\.a\.a\.a\.a\.a\.a\.a\.a\.a\.a… nests more than 100 levels; values check reads at most 100$/);
  });

  it('refuses 200,000 --set assignments as too many', () => {
    const text = `--set ${Array.from({ length: 200_000 }, (_, i) => `k${i % 10}=1`).join(',')}`;
    refused(check('assignments.txt', text), /^platform-medic values check: too many assignments: the paste sets 200,000 keys; values check reads at most 10,000$/);
  });

  it('refuses YAML that nests deeper than 100 levels', () => {
    refused(check('deep.yaml', `a: ${'{a: '.repeat(150)}1${'}'.repeat(150)}\n`), /^platform-medic values check: too deep: a\.a\.a\.a\.a\.a\.a\.a\.a\.a\.a… nests more than 100 levels; values check reads at most 100$/);
  });

  // Found by an attacker's try: the YAML parser holds about 1 KB per open bracket, so a 1 MB file of them took ~1 GB
  // and 7 s before the depth was checked; with the heap of a small pod, the process died out of memory.
  it('refuses a file of a million open brackets (or braces) as too deep, within a 200 MB heap', () => {
    for (const [name, text] of [['brackets.yaml', '['.repeat(1_000_000)], ['braces.json', '{"a":'.repeat(200_000)]]) {
      refused(check(name!, text!, false, { NODE_OPTIONS: '--max-old-space-size=200' }), /^platform-medic values check: too deep: the YAML nests more than 100 levels; values check reads at most 100$/);
    }
  });

  it('refuses a values file of more than 10,000 keys', () => {
    const many = Array.from({ length: 10_001 }, (_, i) => `k${i}: 1`).join('\n');
    refused(check('many.yaml', many), /^platform-medic values check: too many keys: the values hold more than 10,000; values check reads at most 10,000$/);
  });
});

describe('values check notes: duplicates said once, and capped with a count of the rest', { timeout: 120_000 }, () => {
  it('notes a key given twice in a YAML values file, with both lines', () => {
    const r = checkValues('configs:\n  BLOB_STORAGE_PROVIDER: S3\n  BLOB_STORAGE_PROVIDER: AZURE\n');
    expect(r.ok && r.notes).toContain('configs.BLOB_STORAGE_PROVIDER is given more than once (lines 2 and 3); helm keeps the last.');
  });

  it('notes a key set again and again by --set once, with the count', () => {
    const r = checkValues(`--set ${Array.from({ length: 3000 }, (_, i) => `k${i % 10}=1`).join(',')}`);
    expect(r.ok && r.notes.filter((n) => n.startsWith('k0 '))).toEqual(['k0 is set 300 times; helm keeps the last.']);
    // One note per key set again (k0 … k9); the keys are none the guide covers, which is a note of its own.
    expect(r.ok && r.notes.filter((n) => n.includes(' is set '))).toHaveLength(10);
  });

  it('shows the first 50 notes and counts the rest, in --json and in the text answer', () => {
    const text = `--set installer.modules={cicd} ${Array.from({ length: 120 }, (_, i) => `--set k${i}="$(cat f${i})"`).join(' ')}`;
    const json = check('notes.txt', text, true);
    expect(json.code).toBe(0);
    const body = JSON.parse(json.out) as { notes: string[]; notesLeftOut: number };
    expect(body.notes).toHaveLength(50);
    expect(body.notes[0]).toBe('k0 is computed by the shell (`$(…)`), so its value was not checked.');
    expect(body.notesLeftOut).toBe(70);
    const r = checkValues(text);
    if (!r.ok) throw new Error(r.message);
    const answer = blocksToText(valuesAnswer(r).blocks);
    expect(answer).toContain('k8 is computed by the shell');
    expect(answer).not.toContain('k9 is computed by the shell');
    expect(answer).toContain('… and 111 more notes');
  });
});
