import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { catalogue, checkCatalogue, findEntry, guideRefs } from '../../src/catalogue/index.js';
import type { CatalogueEntry } from '../../src/catalogue/model.js';
import { explainView, listView } from '../../src/core/catalogue.js';
import { toText } from '../../src/views/plain.js';
import { medicArgs } from '../support/medic-process.js';

/** Every guide reference any entry names, with the entries that name it. */
function claims(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const e of catalogue) for (const ref of [e.ref, ...(e.alsoRefs ?? [])]) out.set(ref, [...(out.get(ref) ?? []), e.id]);
  return out;
}

/** The command line as a person runs it; only the catalogue commands, which need no Redis or cluster. */
function cli(args: string[]): string {
  const r = spawnSync(process.execPath, medicArgs(...args), {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PLATFORM_MEDIC_CONFIG: '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('guide references', () => {
  it('given the catalogue, each reference of the guide is claimed by exactly one entry', () => {
    const shared = [...claims()].filter(([, ids]) => ids.length > 1).map(([ref, ids]) => `${ref}: ${ids.join(', ')}`);
    expect(shared).toEqual([]);
  });

  it('when a reference is looked up, it resolves to the entry that claims it, which names it among its references', () => {
    for (const [ref, [id]] of claims()) {
      expect(findEntry(ref)?.id, `guide ${ref}`).toBe(id);
      expect(guideRefs(findEntry(ref)!)).toContain(ref);
    }
  });

  it('refuses at load a catalogue in which two entries claim the same reference', () => {
    const a = findEntry('sso-login')!;
    const b: CatalogueEntry = { ...findEntry('sso-nat-allowlist')!, alsoRefs: ['7.3'] };
    expect(() => checkCatalogue([a, b])).toThrow('guide 7.3 is claimed by sso-login and sso-nat-allowlist');
  });

  it('list, explain and fix agree: the entry listed under a reference is the one explain shows and fix plans', () => {
    const listed = toText(listView()).split('\n');
    for (const [ref, [id]] of claims()) {
      const line = listed.find((l) => new RegExp(`\\(guide (?:[\\d.]+, )*${ref.replace('.', '\\.')}(?:, [\\d.]+)*\\)`).test(l));
      expect(line, `the list line of guide ${ref}`).toMatch(new RegExp(`^${id} \\(`));
      expect(toText(explainView(findEntry(ref)!))).toContain(`${id} · guide`);
    }
  });

  it('on the command line, `list` and `explain 5.5` name the same entry for guide 5.5', { timeout: 120_000 }, () => {
    const line = cli(['list']).split('\n').find((l) => /guide (?:[\d.]+, )*5\.5\b/.test(l));
    const listed = line?.split(' ')[0];
    expect(listed).toBe('sso-nat-allowlist');
    expect(cli(['explain', '5.5'])).toContain(`${listed} · guide 5.5`);
  });
});
