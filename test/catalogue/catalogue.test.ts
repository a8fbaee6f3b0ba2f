import { describe, expect, it } from 'vitest';
import { catalogue, checkCatalogue, closestIds, findEntry } from '../../src/catalogue/index.js';
import type { CatalogueEntry } from '../../src/catalogue/model.js';
import { approvalOf, stageApproval } from '../../src/catalogue/model.js';

describe('the catalogue', () => {
  it('defines every entry of section 7, in order, and the procedures of section 5', () => {
    const refs = catalogue.map((e) => e.ref);
    expect(refs.slice(0, 28)).toEqual(Array.from({ length: 28 }, (_, i) => `7.${i + 1}`));
    expect(refs.slice(28)).toEqual(['5.1', '5.2', '5.3', '5.5']);
    const covered = new Set(catalogue.flatMap((e) => [e.ref, ...(e.alsoRefs ?? [])]));
    for (const ref of ['5.1', '5.2', '5.3', '5.4', '5.5', '5.6', '5.7']) expect(covered).toContain(ref);
    expect(catalogue.find((e) => e.ref === '7.4')!.id).toBe('build-logs');
    expect(catalogue.find((e) => e.ref === '7.10')!.id).toBe('git-sensor-stuck');
  });

  it('fills in the guide\'s values: the four waits, the replacement images, the versions', () => {
    const steps = catalogue.flatMap((e) => e.stages.flatMap((s) => s.steps.map((st) => ({ id: e.id, ...st }))));
    expect(steps.filter((s) => s.kind === 'wait').map((s) => [s.id, (s as { minutes: number }).minutes])).toEqual([
      ['install-jobs-failed', 3],
      ['build-logs', 5],
      ['build-logs', 5],
      ['discover-no-charts', 5],
      ['gitops-certificate-expired', 2],
    ]);
    expect(JSON.stringify(findEntry('database-image-pull'))).toContain('quay.io/devtron/postgres:11.3.0-debian-9-r28');
    expect(findEntry('admin-password-reset')!.versions).toMatchObject({ atLeast: '0.6.9' });
    expect(findEntry('chart-repo-tls-handshake')!.versions).toMatchObject({ atLeast: '0.7.1' });
    expect(findEntry('upload-too-large')!.params![0]).toMatchObject({ name: 'size', default: '100m' });
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
    expect(closestIds('frobnicate-widgets')).toEqual([]);
    // Letters that only run across small words of a phrase ("no such") are not a shared word: nothing is close to it.
    expect(closestIds('nosuch-entry')).toEqual([]);
    expect(closestIds('gitsensor-stuck')[0]).toBe('git-sensor-stuck');
    // Generic words and words many entries use name no entry (found by an attacker's try).
    for (const typed of ['not-working', 'node-not-ready', 'the-app-and-the-db', 'error', 'failed', 'cannot', 'etcd-backup-failed']) expect(closestIds(typed)).toEqual([]);
    expect(closestIds('image-pull').sort()).toEqual(['database-image-pull', 'image-pull-private-registry']);
    expect(closestIds('password')[0]).toBe('admin-password');
    expect(findEntry('7.4')?.id).toBe('build-logs');
    expect(findEntry('5.4')?.id).toBe('stale-session-cookie');
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
