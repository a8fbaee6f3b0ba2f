import { describe, expect, it } from 'vitest';
import { match, type MatchResult } from '../../src/matching/index.js';

/** Look-alikes and errors the guide does not cover: the user is offered no fix. */

function first(r: MatchResult): string | null {
  return r.verdict === 'match' ? r.matches[0]!.id : null;
}

describe('near-misses', () => {
  it('an expired cluster certificate without GitOps context is not the GitOps certificate entry', () => {
    expect(first(match('Unable to connect to the server: x509: certificate has expired or is not yet valid: current time 2025-03-04T09:20:11Z is after 2025-03-01T08:14:22Z'))).toBeNull();
    expect(first(match('x509: certificate has expired or is not yet valid'))).toBeNull();
  });

  it('the same expiry towards the GitOps controller is the GitOps certificate entry', () => {
    expect(first(match('argocd-server-5d8f: level=error msg="tls: x509: certificate has expired or is not yet valid"'))).toBe('gitops-certificate-expired');
  });

  it('exit status 128 next to "Could not resolve host" is DNS, not the commits entry', () => {
    const r = match("fatal: unable to access 'https://github.com/acme/app.git/': Could not resolve host: github.com\nexit status 128");
    expect(r.verdict).toBe('no-match');
    // The commits entry is still worth explaining.
    if (r.verdict === 'no-match') expect(r.nearest).toContain('commits-exit-128');
  });

  it('exit status 128 alone is the commits entry', () => {
    expect(first(match('git-sensor: error in fetching: exit status 128'))).toBe('commits-exit-128');
  });

  it('ImagePullBackOff with "manifest unknown" on a user image is a missing tag, not registry credentials', () => {
    const r = match(
      [
        '  Warning  Failed   1m   kubelet  Failed to pull image "docker.io/acme/api:9.9": rpc error: code = NotFound desc = failed to pull and unpack image: manifest unknown',
        '  Warning  Failed   1m   kubelet  Error: ImagePullBackOff',
        '  Normal   BackOff  1m   kubelet  Back-off pulling image "docker.io/acme/api:9.9" 401 Unauthorized',
      ].join('\n'),
    );
    expect(first(r)).toBeNull();
  });

  it('a user pod in ImagePullBackOff with no sign of an auth failure proposes nothing', () => {
    expect(first(match('NAME               READY   STATUS             RESTARTS   AGE\nweb-5f9c7d-abc12   0/1     ImagePullBackOff   0          3m'))).toBeNull();
  });

  it('a user job at 0/1 outside the platform namespace is not the install jobs entry', () => {
    expect(first(match('NAME                   COMPLETIONS   DURATION   AGE\nnightly-report-28711   0/1           5m         5m'))).toBeNull();
  });
});

describe('errors the guide does not cover', () => {
  it.each([
    ['OOMKilled', 'Last State:     Terminated\n  Reason:       OOMKilled\n  Exit Code:    137'],
    ['DNS failure', 'dial tcp: lookup postgres.prod.svc.cluster.local on 10.96.0.10:53: no such host'],
    ['Helm name in use', 'Error: INSTALLATION FAILED: cannot re-use a name that is still in use'],
    ['node NotReady', 'NAME           STATUS     ROLES    AGE   VERSION\nip-10-0-1-23   NotReady   <none>   41d   v1.27.3'],
    ['a user app stack trace', 'Exception in thread "main" java.lang.NullPointerException\n\tat com.acme.billing.Invoice.total(Invoice.java:42)\n\tat com.acme.billing.Main.main(Main.java:12)'],
    ['a CrashLoopBackOff of a user pod', 'NAME              READY   STATUS             RESTARTS   AGE\napi-6d4b9-xk2mq   0/1     CrashLoopBackOff   12         30m'],
    ['chatter', 'thanks, that fixed it!'],
  ])('%s: no match', (_what, text) => {
    expect(match(text)).toMatchObject({ verdict: 'no-match', matches: [] });
  });

  it('an empty paste is a no-match with nothing to explain', () => {
    expect(match('')).toEqual({ verdict: 'no-match', matches: [], nearest: [] });
  });
});
