import { describe, expect, it } from 'vitest';
import { matchView } from '../../src/core/match.js';
import { match } from '../../src/matching/index.js';
import { toText } from '../../src/views/plain.js';

/**
 * "Already applied" withholds the guide's fix: only what shows the fix in force may do so. A fix the person
 * asks about, has not made yet, or removed (a diff's removed line, a block headed "before") is still to be
 * proposed; a fix in force is named with the line that shows it, secrets redacted.
 */

const x509 = 'E0101 12:00:00.000000       1 scraper.go:140] "Failed to scrape node" err="Get \\"https://10.0.0.5:10250/metrics/resource\\": x509: cannot validate certificate for 10.0.0.5 because it doesn\'t contain any IP SANs" node="node-1"';
const entity = '<html><head><title>413 Request Entity Too Large</title></head>';

const verdictOf = (paste: string): string => {
  const r = match(paste);
  return r.verdict === 'no-match' ? (r.note === 'applied' ? `applied ${r.tried.id}` : 'no-match') : `${r.verdict} ${r.matches[0]!.id}`;
};

describe('a fix the paste only mentions is not applied', () => {
  it.each([
    ['a question about the flag', `metrics-server still failing:\n${x509}\nShould I add --kubelet-insecure-tls to the args?`, 'match metrics-server-tls'],
    ['a question about the annotation', `Do I need nginx.ingress.kubernetes.io/proxy-body-size: 200m on the ingress? Uploads still fail:\n${entity}`, 'match upload-too-large'],
    ['a fix not made yet', `I have not added nginx.ingress.kubernetes.io/proxy-body-size: 200m to the ingress yet, uploads still fail:\n${entity}`, 'match upload-too-large'],
    ['a suggestion', `metrics-server still failing, a colleague suggests --kubelet-insecure-tls\n${x509}`, 'match metrics-server-tls'],
  ])('%s', (_, paste, verdict) => {
    expect(verdictOf(paste)).toBe(verdict);
  });

  it('still reads an account of the fix followed by a question as applied', () => {
    expect(verdictOf(`I set nginx.ingress.kubernetes.io/proxy-body-size: 200m on the ingress, why is it still failing?\n${entity}`)).toBe('applied upload-too-large');
    expect(verdictOf(`I already added --kubelet-insecure-tls, what else can I do?\n${x509}`)).toBe('applied metrics-server-tls');
  });

  it("does not read a flag a review's diff removes as in force", () => {
    const review = `${x509}\nHere is the review of my change, is this right?\n       - args:\n         - --cert-dir=/tmp\n-        - --kubelet-insecure-tls\n+        - --kubelet-preferred-address-types=InternalIP`;
    expect(verdictOf(review)).toBe('match metrics-server-tls');
    const unified = `${x509}\n--- a/metrics-server.yaml\n+++ b/metrics-server.yaml\n@@ -10,3 +10,2 @@\n         args:\n-        --kubelet-insecure-tls\n         --cert-dir=/tmp`;
    expect(verdictOf(unified)).toBe('match metrics-server-tls');
    // The flag kept in the diff's context, or on a plain list, is in force.
    expect(verdictOf(`${x509}\n@@ -10,3 +10,2 @@\n         - --kubelet-insecure-tls\n-        - --cert-dir=/tmp`)).toBe('applied metrics-server-tls');
  });

  it('does not read a block the person heads as what they had before as in force', () => {
    expect(verdictOf(`${x509}\n# before:\n#   args:\n- --kubelet-insecure-tls\n# after: removed it as security asked`)).toBe('match metrics-server-tls');
    expect(verdictOf(`${x509}\nour metrics-server args:\n- --cert-dir=/tmp\n- --kubelet-insecure-tls`)).toBe('applied metrics-server-tls');
  });

  it('reads the fix as a person sees it, through characters that show nothing', () => {
    expect(verdictOf(`I set nginx.ingress.kubernetes.io/proxy\u200b-body-size: 200m on the ingress and uploads still fail\n${entity}`)).toBe('applied upload-too-large');
  });
});

describe('what shows the fix in force', () => {
  it('names the line of the configuration that holds the fix, with its secrets redacted', () => {
    const paste = `metrics-server keeps failing:\n${x509}\nmy deployment args:\n      containers:\n      - args:\n        - --cert-dir=/tmp\n        - --kubelet-insecure-tls --token=abcd1234abcd1234abcd1234`;
    const r = match(paste);
    expect(r.verdict === 'no-match' && r.note === 'applied' && r.tried.evidence.map((e) => e.line)).toContain(7);
    const text = toText(matchView(r));
    expect(text).toContain('line 7: - --kubelet-insecure-tls --token=[redacted]');
    expect(text).not.toContain('abcd1234');
  });

  it('names the annotation that holds the fix beside the sentence and the error, with its secrets redacted', () => {
    const paste = `I set this on my ingress but uploads still fail with 413:\nmetadata:\n  annotations:\n    nginx.ingress.kubernetes.io/proxy-body-size: 200m # PGPASSWORD=hunter2hunter2\n${entity}`;
    const r = match(paste);
    expect(r.verdict === 'no-match' && r.note === 'applied' && r.tried.evidence.map((e) => e.line)).toEqual([1, 4, 5]);
    const text = toText(matchView(r));
    expect(text).toContain('line 4: nginx.ingress.kubernetes.io/proxy-body-size: 200m # PGPASSWORD=[redacted]');
    expect(text).not.toContain('hunter2');
  });
});

describe("an annotation's key behind its prefix", () => {
  it('reads the annotation in the pasted ingress as the fix in force, with or without words that it persists', () => {
    // kubernetes/ingress-nginx (fourth round, tune): the body size raised, the 413 from elsewhere.
    const paste = 'I have annotated the ingress with:\n  annotations:\n    kubernetes.io/ingress.class: nginx\n    ingress.kubernetes.io/proxy-body-size: 100M\nin order to upload some big files. I get a 500 because the subrequest fails with `client intended to send too large body`';
    expect(verdictOf(paste)).toBe('applied upload-too-large');
    expect(verdictOf(paste.replace('ingress.kubernetes.io/proxy-body-size', 'nginx.ingress.kubernetes.io/proxy-body-size'))).toBe('applied upload-too-large');
    // At the controller's default it is not the guide's fix.
    expect(verdictOf(paste.replace('100M', '1m'))).toBe('match upload-too-large');
  });
});

describe('the cookie remedy as people say they tried it', () => {
  it('reads "tried clearing cookies, no luck" as the remedy tried, and "clearing cookies fixed it" as the entry', () => {
    const loop = 'After a first successful login, the next time one tries to login the app gets stuck in a login redirect loop.';
    expect(verdictOf(`${loop}\nTried clearing cookies and also the session from the admin, with no luck.`)).toBe('applied stale-session-cookie');
    expect(verdictOf(`${loop}\nClearing cookies fixed it.`)).toBe('match stale-session-cookie');
    expect(verdictOf(`${loop}\nShould I try clearing cookies?`)).toBe('match stale-session-cookie');
  });
});

describe('a fix made and said to work, as pull requests and comments tell it', () => {
  it('reads "adds the missing annotation" as the fix being made, not as one already in force', () => {
    const pr = '- Adds missing `nginx.ingress.kubernetes.io/proxy-body-size: "10m"` annotation to the prod ingress\n- The missing annotation caused nginx to fall back to its default 1m limit, rejecting large publish payloads (~3.4MB) with 413 errors\n- Aligns prod with sandbox and staging, which already have `10m` set';
    expect(verdictOf(pr)).toBe('match upload-too-large');
  });

  it('reads the fix said to work in its own sentence as the entry confirmed, whatever "still" says elsewhere', () => {
    const pr = `- Installs the metrics-server chart with \`--kubelet-insecure-tls\`.\n- The kubelet serving certs carry only a DNS SAN, so verification fails:\n${x509}\n\`--kubelet-insecure-tls\` works around this; the connection is still to the cluster's own kubelets.`;
    expect(verdictOf(pr)).toBe('match metrics-server-tls');
    // Said to fail, it is the fix tried.
    expect(verdictOf(`I added \`--kubelet-insecure-tls\` to the args and it still fails:\n${x509}`)).toBe('applied metrics-server-tls');
  });
});
