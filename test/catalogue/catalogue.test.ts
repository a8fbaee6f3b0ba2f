import { describe, expect, it } from 'vitest';
import { catalogue, checkCatalogue, closestIds, findEntry } from '../../src/catalogue/index.js';
import type { CatalogueEntry } from '../../src/catalogue/model.js';
import { approvalOf, stageApproval } from '../../src/catalogue/model.js';

describe('the catalogue', () => {
  it('defines the guide entries 7.3, 7.4 and 7.10 under readable ids', () => {
    expect(catalogue.map((e) => [e.id, e.ref])).toEqual([
      ['sso-login', '7.3'],
      ['build-logs', '7.4'],
      ['git-sensor-stuck', '7.10'],
    ]);
  });

  it('carries the guide\'s exact error texts as signatures', () => {
    expect(findEntry('sso-login')!.signatures.errors).toEqual(['no token provided', 'unsupported protocol scheme']);
  });

  it('gives build-logs two stages, each with the 5-minute wait and the "still failing?" question', () => {
    const e = findEntry('build-logs')!;
    expect(e.stages.map((s) => s.id)).toEqual(['restart-watcher', 'restart-brokers']);
    for (const s of e.stages) {
      expect(s.steps.find((st) => st.kind === 'wait')).toMatchObject({ minutes: 5 });
      expect(s.then?.question).toBe('Are the build logs visible now?');
    }
    expect(e.stages[0]!.then!.choices.find((c) => c.id === 'still-failing')!.then).toEqual({ stage: 'restart-brokers' });
    expect(e.stages[1]!.steps[0]).toMatchObject({ kind: 'deletePods', targets: [{ by: 'name', pod: 'brokerPods' }] });
  });

  it('derives approval from risk: restarts need an approver, read-only steps nobody', () => {
    const stage = findEntry('git-sensor-stuck')!.stages[0]!;
    expect(stage.steps.map(approvalOf)).toEqual(['approver', 'none']);
    expect(stageApproval(stage)).toBe('approver');
  });

  it('looks ids up case-insensitively and suggests the closest ids for a typo or a description', () => {
    expect(findEntry(' Build-Logs ')?.id).toBe('build-logs');
    expect(closestIds('build-log')[0]).toBe('build-logs');
    expect(closestIds('gitsensor')[0]).toBe('git-sensor-stuck');
    expect(closestIds('sso')[0]).toBe('sso-login');
  });

  it('refuses an inconsistent definition at load', () => {
    const bad: CatalogueEntry = {
      ...findEntry('build-logs')!,
      id: 'Bad Id',
      stages: [{ id: 'a', title: 'a', steps: [{ kind: 'manual', does: 'x', risk: 'read-only', items: [] }], then: { question: '?', choices: [{ id: 'x', label: 'x', then: { stage: 'nowhere' } }] } }],
    };
    expect(() => checkCatalogue([bad])).toThrow(/id must be a lower-case slug[\s\S]*unknown stage nowhere/);
  });
});
