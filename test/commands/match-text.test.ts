import { describe, expect, it } from 'vitest';
import { matchCli } from '../support/match-cli.js';

describe('platform-medic match: the confidence as people read it', () => {
  // Found by a newcomer's try: the command line said "confidence 0.79" where the terminal and Slack say "79%".
  it('prints the confidence as a percent, as the terminal and Slack do; --json keeps the number', async () => {
    const paste = '413 Request Entity Too Large from ingress-nginx while uploading a chart\n';
    const text = await matchCli([], paste);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^match: upload-too-large \(guide 7\.12\) .* — confidence \d{1,3}%$/mu);
    expect(text.out).not.toMatch(/confidence 0\.\d/u);
    const json = JSON.parse((await matchCli(['--json'], paste)).out) as { matches: { confidence: unknown }[] };
    expect(typeof json.matches[0]!.confidence).toBe('number');
    expect(json.matches[0]!.confidence).toBeLessThanOrEqual(1);
  });

  // Found by a newcomer's try: one entry asked about was introduced with "choose one of these".
  it('an ask says why it asks, and invites a choice only among several entries', async () => {
    const one = await matchCli([], '413 Request Entity Too Large\n');
    expect(one.code).toBe(1);
    expect(one.out.split('\n')[0]).toBe(
      "ask (subject): no fix proposed. Nothing here shows that this is about what the remedy changes (the platform, or for a generic remedy the kind of thing it acts on, such as an ingress), so it may be another product's error. The entry it would be:",
    );
    expect(one.out).toMatch(/^1: upload-too-large \(guide 7\.12\)/mu);
    const several = await matchCli([], 'invalid username or password\n');
    expect(several.code).toBe(1);
    expect(several.out.split('\n')[0]).toMatch(/^ask \(\w+\): no fix proposed\. .+ Choose one of these:$/u);
    expect(several.out).toMatch(/^2: /mu);
  });
});
