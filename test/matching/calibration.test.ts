import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fitCalibration, probability, uncalibrated } from '../../src/matching/calibration.js';
import { calibrationTable } from '../../src/matching/calibration-table.js';
import { match } from '../../src/matching/index.js';
import { calibrationBands, firstContactAnswers, fitOnFirstContact } from '../../bench/real-corpus.js';

const bands = calibrationBands;

describe('the confidence shown', () => {
  it('is the share of right answers per band of raw score, with one right and one wrong imagined, pooled to stay monotone', () => {
    const answers = [
      ...Array.from({ length: 8 }, (_, i) => ({ score: 0.55, right: i < 2 })), // 2 of 8 right → 3/10
      ...Array.from({ length: 8 }, (_, i) => ({ score: 0.65, right: i < 1 })), // 1 of 8 → 2/10: lower, pooled with the band below
      ...Array.from({ length: 3 }, () => ({ score: 0.95, right: true })), // 3 of 3 → 4/5, never certain
    ];
    expect(fitCalibration(answers, bands)).toEqual([
      { score: 0.6, right: 0.25 },
      { score: 0.95, right: 0.8 },
    ]);
  });

  it('is read from the table linearly between bands and flat beyond them', () => {
    const table = [
      { score: 0.6, right: 0.2 },
      { score: 0.8, right: 0.6 },
    ];
    expect(probability(0.5, table)).toBe(0.2);
    expect(probability(0.7, table)).toBeCloseTo(0.4, 10);
    expect(probability(0.99, table)).toBe(0.6);
    expect(probability(0.7, [])).toBe(0.7);
  });

  it('is what first contact with the tune part of the real-paste corpus gives, one table per kind of answer (written by bench/calibrate.ts, never edited)', () => {
    const answers = firstContactAnswers();
    expect(calibrationTable).toEqual(fitOnFirstContact(answers));
    expect(calibrationTable.generic).toEqual(fitCalibration(answers.filter((a) => a.kind === 'generic'), calibrationBands));
    // Monotone: a higher score is never shown as less likely.
    for (const table of [calibrationTable.generic, calibrationTable.platform, calibrationTable.platformUnnamed]) {
      for (let i = 1; i < table.length; i++) expect(table[i]!.right).toBeGreaterThanOrEqual(table[i - 1]!.right);
    }
  });

  it("shows a platform remedy's answer as less likely than a generic one's at the same score: real pastes of its words come from many other products", () => {
    // The same raw score, 0.9: the ingress annotation (any product's) and the private-registry remedy (the platform's apps).
    expect(probability(0.9, calibrationTable.platform)).toBeLessThan(probability(0.9, calibrationTable.generic));
    const generic = match('the ingress returns 413 Request Entity Too Large when I push a 30MB image through ingress-nginx');
    const platform = match('devtron app pods: Failed to pull image "acme.azurecr.io/web:1": 401 Unauthorized, ImagePullBackOff');
    expect(generic.matches[0]?.id).toBe('upload-too-large');
    expect(platform.matches[0]?.id).toBe('image-pull-private-registry');
    const raw = (text: string): number => match(text, undefined, { calibration: uncalibrated }).matches[0]!.confidence;
    expect(generic.matches[0]!.confidence).toBe(probability(raw('the ingress returns 413 Request Entity Too Large when I push a 30MB image through ingress-nginx'), calibrationTable.generic));
    expect(platform.matches[0]!.confidence).toBe(probability(raw('devtron app pods: Failed to pull image "acme.azurecr.io/web:1": 401 Unauthorized, ImagePullBackOff'), calibrationTable.platform));
  });

  it("shows a platform remedy as far less likely for a paste that does not name the platform than for one that does: on real pastes the first are rarely the platform's", () => {
    const words = 'Failed to pull image "acme.azurecr.io/web:1": rpc error: code = Unknown desc = failed to authorize: failed to fetch oauth token: unexpected status: 401 Unauthorized';
    const named = match(`devtron app pods in ImagePullBackOff:\n${words}`);
    // Unnamed, but one of the platform's apps as its dashboard shows it (a bare refusal is only asked about: verdict.test.ts).
    const unnamed = match(`App status: Degraded\n${words}`);
    expect([named.verdict, named.matches[0]?.id, named.verdict === 'match' && named.table]).toEqual(['match', 'image-pull-private-registry', 'platform']);
    expect([unnamed.verdict, unnamed.matches[0]?.id, unnamed.verdict === 'match' && unnamed.table]).toEqual(['match', 'image-pull-private-registry', 'platformUnnamed']);
    expect(unnamed.matches[0]!.confidence).toBeLessThan(named.matches[0]!.confidence / 2);
    // The tables say so on their own: at the same raw score, the unnamed one is lower.
    expect(probability(0.9, calibrationTable.platformUnnamed)).toBeLessThan(probability(0.9, calibrationTable.platform));
  });

  it('is shown for the catalogue through the table of the first entry, without changing the order or the verdict; alternatives are never shown as more likely than it', () => {
    const paste = 'Error: tls: handshake failure while fetching https://charts.bitnami.com/bitnami/index.yaml';
    const raw = match(paste, undefined, { calibration: uncalibrated });
    const shown = match(paste);
    expect(shown.verdict).toBe(raw.verdict);
    expect(shown.matches.map((m) => m.id)).toEqual(raw.matches.map((m) => m.id));
    // The paste names no part of the platform: the table of platform remedies for pastes that do not.
    expect(shown).toMatchObject({ table: 'platformUnnamed' });
    expect(shown.matches.map((m) => m.confidence)).toEqual(raw.matches.map((m) => probability(m.confidence, calibrationTable.platformUnnamed)));
    // A platform entry first with a generic one after it (the CRDs' toggle and the application metrics): one table, the first's.
    const mixed = match(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'pastes', 'files', '108-rollout-crd-appmetrics-toggle.txt'), 'utf8'));
    expect(mixed.matches.map((m) => m.id)).toEqual(['rollout-crds-outdated', 'app-metrics-absent']);
    for (const m of mixed.matches.slice(1)) expect(m.confidence).toBeLessThanOrEqual(mixed.matches[0]!.confidence);
  });

  it('never shows an alternative of a match as more likely than the entry whose fix is proposed, even when the subject put that entry first', () => {
    // Found by an attacker's try: the cookie proposed at 56% with the body size "also possible" at 76%.
    for (const paste of ['argocd.token\nupload fails for large files\n', 'panel with id 2 not found\n413 error\n']) {
      const r = match(paste);
      if (r.verdict !== 'match') continue;
      for (const m of r.matches.slice(1)) expect(m.confidence).toBeLessThanOrEqual(r.matches[0]!.confidence);
    }
    const r = match('argocd.token\nupload fails for large files\n');
    expect(r.verdict === 'match' && r.matches.map((m) => m.id)).toEqual(['stale-session-cookie', 'upload-too-large']);
  });
});

