import { describe, expect, it } from 'vitest';
import { match, type MatchResult } from '../../src/matching/index.js';

/** What a user sees for each form of paste, against the real catalogue. */

function first(r: MatchResult): string | null {
  return r.verdict === 'match' ? r.matches[0]!.id : null;
}

describe('pastes in each form', () => {
  it('a logrus line: the SSO entry, with the error as evidence on its line', () => {
    // The bare error names neither the platform nor its SSO (another dex says it too): the SSO entry is asked about, first.
    const r = match('starting\ntime="2024-05-01T10:00:00Z" level=error msg="no token provided" component=authenticator');
    expect(r.verdict).toBe('ask');
    expect(r.matches[0]).toMatchObject({ id: 'sso-login', ref: '7.3' });
    expect(r.matches[0]!.evidence).toEqual([{ line: 2, text: 'time="2024-05-01T10:00:00Z" level=error msg="no token provided" component=authenticator', signature: 'no token provided' }]);
  });

  it('a klog line with a colour code: matched through the escape sequence', () => {
    const r = match('I0301 10:00:00.000000       1 main.go:12] started\nE0301 10:00:01.000000       1 auth.go:88] \u001b[31mFailed to query provider: Get "devtron.example.com/.well-known/openid-configuration": unsupported\u001b[0m protocol scheme ""');
    expect(first(r)).toBe('sso-login');
  });

  it('a zap JSON record: matched on its unescaped message, and the evidence shows the message', () => {
    const line = String.raw`{"level":"error","ts":1708502101.1,"caller":"git/RepositoryManager.go:204","msg":"error in updating repository","err":"exit status 128","location":"https://github.com/acme/app.git"}`;
    const r = match(line);
    expect(first(r)).toBe('commits-exit-128');
    if (r.verdict === 'match') expect(r.matches[0]!.evidence[0]).toEqual({ line: 1, text: 'error in updating repository — exit status 128', signature: 'exit status 128' });
  });

  it('a JSON record whose message carries escaped quotes and a \\u escape: unescaped before matching', () => {
    const r = match(String.raw`{"msg":"Warning Failed kubelet Failed to pull image \u0022docker.io/bitnami/postgresql:11.3.0-debian-9-r28\": manifest unknown"}`);
    expect(first(r)).toBe('database-image-pull');
  });

  it('a kubectl get jobs table of the platform namespace with a job at 0/1: install jobs failed', () => {
    const r = match(
      ['$ kubectl get jobs -n devtroncd', 'NAME                          COMPLETIONS   DURATION   AGE', 'postgresql-migrate-devtron    0/1           12m        12m', 'app-sync-job-x1                1/1           40s        12m'].join('\n'),
    );
    expect(first(r)).toBe('install-jobs-failed');
    if (r.verdict === 'match') expect(r.matches[0]!.evidence.map((e) => e.line)).toEqual([3]);
  });

  it('a kubectl get pods table with the database pod in ImagePullBackOff: the database image entry', () => {
    const r = match(
      [
        'NAME                         READY   STATUS                  RESTARTS   AGE',
        'devtron-6c9f7b8d5-2xkqj      0/1     CrashLoopBackOff        7          14m',
        'postgresql-postgresql-0      0/1     Init:ImagePullBackOff   0          14m',
      ].join('\n'),
    );
    expect(first(r)).toBe('database-image-pull');
    if (r.verdict === 'match') expect(r.matches[0]!.evidence.map((e) => e.line)).toContain(3);
  });

  it('a pods table with a user pod in ImagePullBackOff and an auth failure: the private registry entry, named as nearest until the paste shows an app of the platform', () => {
    const table = ['NAME                 READY   STATUS             RESTARTS   AGE', 'billing-7c8d9f6b5    0/1     ImagePullBackOff   0          4m', '', 'events say 401 Unauthorized from registry.acme.io'].join('\n');
    const bare = match(table);
    // No exact error of the entry and no app of the platform in sight: named as nearest, no fix.
    expect(bare.verdict === 'no-match' && bare.nearest).toContain('image-pull-private-registry');
    expect(first(match(`deployment status: Degraded\n${table}`))).toBe('image-pull-private-registry');
  });

  it('a kubectl describe with a pull denied by the registry: the private registry entry', () => {
    const r = match(
      [
        'Events:',
        '  Type     Reason     Age   From      Message',
        '  Warning  Failed     2m    kubelet   Failed to pull image "registry.acme.io/team/api:1.4": rpc error: code = Unknown desc = Error response from daemon: pull access denied for registry.acme.io/team/api',
        '  Warning  Failed     2m    kubelet   Error: ImagePullBackOff',
      ].join('\n'),
    );
    expect([r.verdict, r.matches[0]?.id]).toEqual(['ask', 'image-pull-private-registry']);
    // The same describe of an image the pipeline built (`<commit>-<pipeline>-<build>`): one of the platform's apps.
    const built = match(
      [
        'Events:',
        '  Type     Reason     Age   From      Message',
        '  Warning  Failed     2m    kubelet   Failed to pull image "registry.acme.io/team/api:3f9c2a1b-12-418": rpc error: code = Unknown desc = Error response from daemon: pull access denied for registry.acme.io/team/api',
        '  Warning  Failed     2m    kubelet   Error: ImagePullBackOff',
      ].join('\n'),
    );
    expect(first(built)).toBe('image-pull-private-registry');
  });

  it("a sentence in the user's words: matched by its words, not only verbatim", () => {
    expect(first(match('build logs are not streaming'))).toBe('build-logs');
    expect(first(match("logs aren't streaming for my build in devtron"))).toBe('build-logs');
    expect(first(match('cannot log in with the right password'))).toBe('stale-session-cookie');
  });

  it('a short description that names nothing is not worth a fix: it fits any product, so the entry is only named as nearest', () => {
    // Issue 13 item 2: "no logs for build" came from a hosted CI service, "Grafana dashboard is missing" from another product.
    const r = match("logs aren't streaming for my build");
    expect(r.verdict).toBe('no-match');
    expect(r.verdict === 'no-match' && r.nearest).toContain('build-logs');
  });

  it('ranks by score and offers at most three candidates', () => {
    const r = match('git-sensor: exit status 128\nno token provided\npanel with id 2 not found\nIs being accessed by other users\ntls: handshake failure');
    expect(r.verdict).toBe('match');
    if (r.verdict !== 'match') return;
    expect(r.matches.length).toBe(3);
    const confidences = r.matches.map((m) => m.confidence);
    expect([...confidences].sort((a, b) => b - a)).toEqual(confidences);
    for (const m of r.matches) expect(m.confidence).toBeGreaterThan(0);
  });
});
