import { describe, expect, it } from 'vitest';
import { matchView } from '../../src/core/match.js';
import { match } from '../../src/matching/index.js';
import { plainText } from '../../src/views/plain.js';

/** Issue 13 items 7, 4 and 2: the three-way answer, least destructive first, and the paste's subject. */
describe('the three-way answer', () => {
  it('asks between reading the password and the stale cookie before the destructive reset on a bare "invalid username or password"', () => {
    const r = match('invalid username or password');
    expect(r.verdict).toBe('ask');
    expect(r.matches.map((m) => m.id)).toEqual(['admin-password', 'stale-session-cookie', 'admin-password-reset']);
  });

  it('proposes the reset when the person says the password is lost', () => {
    const r = match('I forgot the admin password, how do I reset the admin password?');
    expect(r.verdict === 'match' ? r.matches[0]!.id : r.verdict).not.toBe('ask');
  });

  it('ranks the private-registry entry above the database image entry for a pull of the platform database image', () => {
    const r = match('Failed to pull image "quay.io/devtron/postgres:11.3.0-debian-9-r28": rpc error: code = Unknown desc = Error response from daemon: unauthorized');
    expect(r.matches.map((m) => m.id).indexOf('image-pull-private-registry')).toBe(0);
    expect(r.matches.map((m) => m.id)).toContain('database-image-pull');
  });

  it('matches nothing for a user pod in ImagePullBackOff', () => {
    expect(match('pod payments-api-6f7 ImagePullBackOff').verdict).toBe('no-match');
  });

  it("vetoes a platform remedy for another product's StatefulSet", () => {
    const paste = 'Error: UPGRADE FAILED: cannot patch "sonarqube-postgresql" with kind StatefulSet: StatefulSet.apps "sonarqube-postgresql" is invalid: spec: Forbidden: updates to statefulset spec for fields other than \'replicas\', \'template\', \'updateStrategy\' and \'minReadySeconds\' are forbidden';
    expect(match(paste).verdict).not.toBe('match');
  });

  it('an ask reads honestly: no fix is proposed and no choice is the primary one', () => {
    const r = match('invalid username or password');
    const view = matchView(r);
    expect(plainText(view.summary)).toContain('which one?');
    const choices = view.parts.flatMap((p) => (p.kind === 'choices' ? p.choices : []));
    expect(choices.some((c) => c.style === 'primary')).toBe(false);
    expect(choices.filter((c) => c.command?.startsWith('fix ')).map((c) => c.command)).toEqual(['fix admin-password', 'fix stale-session-cookie', 'fix admin-password-reset']);
  });
});
