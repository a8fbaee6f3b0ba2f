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
    expect(r.verdict).toBe('ask');
    if (r.verdict === 'ask') expect(r.why).toBe('applied');
  });
});
