import { describe, expect, it } from 'vitest';
import { match, type MatchResult } from '../../src/matching/index.js';

/**
 * Downstream effects: what an entry's cause breaks further down, in other components' words. Such a text
 * is the entry's only with support (the paste is the platform's, or one of the entry's context texts is
 * near it); alone, even in a person's sentence, it proposes nothing.
 */

function first(r: MatchResult): string | null {
  return r.verdict === 'match' ? r.matches[0]!.id : null;
}

describe('downstream effects of an entry\'s cause', () => {
  it('a missing table in the platform\'s own log is the failed migrator jobs', () => {
    const paste = [
      '{"level":"info","ts":1636013215.68,"caller":"models/connection.go:61","msg":"connected with db","db":{"Addr":"postgresql-postgresql.devtroncd","Database":"orchestrator"}}',
      '2021/11/04 08:06:55 ERROR #42P01 relation "gitops_config" does not exist',
      'panic: ERROR #42P01 relation "gitops_config" does not exist',
    ].join('\n');
    const r = match(paste);
    expect(first(r)).toBe('install-jobs-failed');
    if (r.verdict === 'match') expect(r.matches[0]!.evidence.map((e) => e.signature)).toContain('ERROR #42P01');
  });

  it('the same missing table in another application proposes nothing, and explains the entry as nearest', () => {
    const r = match('error: relation "blacklist" does not exist\n    at Parser.parseErrorMessage (/app/node_modules/pg-protocol/dist/parser.js:287:98)');
    expect(r.verdict).toBe('no-match');
    if (r.verdict === 'no-match') expect(r.nearest).toContain('install-jobs-failed');
  });

  it('a downstream text in a person\'s sentence is not enough on its own', () => {
    expect(first(match('After the upgrade some tables are missing and the service will not start.'))).toBeNull();
    expect(first(match('After installing Devtron some tables are missing and the dashboard will not start.'))).toBe('install-jobs-failed');
  });

  it('a generic entry\'s downstream text counts next to its context, not without it', () => {
    // The controller's only message when a permission of its policy is missing may be an internal failure.
    const internal = 'Failed deploy model due to InternalFailure: status code: 500';
    expect(first(match(`The ALB controller fails to create the load balancer, the only log message is "${internal}".`))).toBe('load-balancer-unauthorized');
    expect(first(match(`Our payment API answers "${internal}" now and then.`))).toBeNull();
    expect(first(match('AccessDeniedException: User: arn:aws:sts::123456789012:assumed-role/nodes/i-0abc is not authorized to perform: shield:GetSubscriptionState'))).toBeNull();
  });

  it('a role the load-balancer controller cannot assume is not a missing policy', () => {
    const r = match(
      '{"level":"error","logger":"controller.ingress","msg":"Reconciler error","name":"api","error":"WebIdentityErr: failed to retrieve credentials\\ncaused by: AccessDenied: Not authorized to perform sts:AssumeRoleWithWebIdentity\\n\\tstatus code: 403"}\nFailed deploy model due to AccessDenied',
    );
    expect(first(r)).toBeNull();
  });

  it('a blocked CREATE DATABASE from a busy template is not a blocked drop', () => {
    expect(first(match('OperationalError: source database "template1" is being accessed by other users\nDETAIL:  There is 1 other session using the database.'))).toBeNull();
    expect(first(match('ERROR:  database "shop" is being accessed by other users\nDETAIL:  There is 1 other session using the database.'))).toBe('database-drop-blocked');
  });

  it('charts still missing after the refresh the guide prescribes are not answered with the refresh again', () => {
    const r = match('I clicked the Refresh Chart button and waited an hour, but the chart store still shows no charts.');
    expect(r.verdict === 'no-match' && r.note === 'applied' && r.tried.id).toBe('discover-no-charts');
  });
});

describe("what the components involved write, learnt from their sources (issue 13 item 1)", () => {
  it("a drop refused by a translated PostgreSQL is the blocked drop; the same refusal of a rename is not", () => {
    expect(first(match('FEHLER:  auf Datenbank »shop« wird von anderen Benutzern zugegriffen\nDETAIL:  1 andere Sitzung verwendet die Datenbank.'))).toBe('database-drop-blocked');
    expect(first(match('ERROR:  база данных "shop" занята другими пользователями'))).toBe('database-drop-blocked');
    expect(first(match('postgres=# ALTER DATABASE shop RENAME TO shop_old;\nERROR:  database "shop" is being accessed by other users\nDETAIL:  There is 1 other session using the database.'))).toBeNull();
    // Prepared transactions are not ended by terminating sessions.
    expect(first(match('ERROR:  database "shop" is being accessed by other users\nDETAIL:  There is 1 prepared transaction using the database.'))).toBeNull();
  });

  it("metrics-server's scrape failure is the kubelet certificate's only when it is one, not a timeout", () => {
    const timeout = 'E0511 21:57:06.607078       1 scraper.go:140] "Failed to scrape node" err="Get \\"https://10.0.0.4:10250/metrics/resource\\": context deadline exceeded" node="n1"';
    expect(first(match(timeout))).toBeNull();
    const unknownAuthority = 'E0511 21:57:06.607078       1 scraper.go:140] "Failed to scrape node" err="Get \\"https://10.0.0.4:10250/metrics/resource\\": tls: failed to verify certificate: x509: certificate signed by unknown authority" node="n1"';
    expect(first(match(unknownAuthority))).toBe('metrics-server-tls');
    // The same x509 words from a git host are not the kubelet's certificate.
    expect(first(match('error in connecting with GITLAB: Get "https://gitlab.example.local/api/v4/groups/14": x509: certificate signed by unknown authority'))).toBeNull();
  });

  it("the ingress controller's log of a chunked body over the limit and a gRPC client's 413 through the ingress are the body-size limit", () => {
    expect(first(match('ingress-nginx-controller-6b9c7 controller 2024/04/08 23:31:54 [error] 30#0: *56 client intended to send too large chunked body: 3145700+100 bytes, client: 10.0.0.9, server: app.example.com'))).toBe('upload-too-large');
    expect(first(match('through the ingress: rpc error: code = Unknown desc = unexpected HTTP status code received from server: 413 (Request Entity Too Large); transport: received unexpected content-type "text/html"'))).toBe('upload-too-large');
  });

  it("a ServiceMonitor the operator skipped as invalid is not the selector", () => {
    const skipped = 'level=warn ts=2023-07-03T20:37:20Z caller=operator.go:1917 component=prometheusoperator msg="skipping servicemonitor" error="it accesses file system via bearer token file which Prometheus specification prohibits" servicemonitor=shop/api\nthe servicemonitor is not picked up';
    expect(first(match(skipped))).toBeNull();
  });

  it("a session token issued before the password changed is the stale cookie", () => {
    expect(first(match('The login page keeps coming back in the browser; argocd-server logs: invalid session: account password has changed since token issued'))).toBe('stale-session-cookie');
  });
});
