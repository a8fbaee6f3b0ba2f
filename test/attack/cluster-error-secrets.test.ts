import { ApiException } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { toClusterError } from '../../src/cluster/errors.js';
import { knownSecrets } from '../../src/known-secrets.js';
import { failureBlocks } from '../../src/views/slack/remedy.js';
import type { RemedyRequest } from '../../src/jobs/requests.js';

const request: RemedyRequest = { id: 'rabc123', entryId: 'admin-password-reset', cluster: 'prod-eu', requestedBy: 'UREQ', createdAt: '2026-11-21T10:00:00.000Z', stageId: 'regenerate', status: 'running', attempt: '0123456789abcdef', context: '{}', params: '{}' };
const status = (code: number, message: string) => new ApiException(code, 'refused', JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message, code }), {});

/**
 * The API server's own message is any text an admission webhook's author wrote, and some echo the object
 * they refuse. ClusterError promises a message "safe to show in a channel … never credentials": a step's
 * failure shows it in the remedy's thread, keeps it in the job's data in Redis and in the audit trail.
 */
describe("the Kubernetes API's words in a failed step", () => {
  it.each([
    [403, 'admission webhook "secrets.policy.acme" denied the request: devtron-secret has ADMIN_PASSWORD=Adm1nPa55word!, which is not rotated', 'Adm1nPa55word!'],
    [403, 'admission webhook "validate.kyverno.svc" denied the request: env DATABASE_URL=postgres://orchestrator:Pg5ecretPw@postgresql/orch not allowed', 'Pg5ecretPw'],
    [422, 'Secret "registry" is invalid: .dockerconfigjson: token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB expired', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789AB'],
    [500, 'Internal error occurred: failed calling webhook with Authorization: Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ3b3JrZXIifQ.c2lnbmF0dXJl', 'eyJzdWIiOiJ3b3JrZXIifQ'],
  ])('never carry a secret to the thread (%i)', (code, message, secret) => {
    const err = toClusterError(status(code, message), 'patch secret devtroncd/devtron-secret', 'https://10.0.0.1:6443');
    expect(err.message).not.toContain(secret);
    expect(err.detail ?? '').not.toContain(secret);
    expect(JSON.stringify(failureBlocks(request, err.message))).not.toContain(secret);
    expect(err.message).toContain('[redacted]');
  });

  it('never carries a secret value the worker read, however plain it looks', () => {
    knownSecrets.add('plainlookingvalue42');
    const err = toClusterError(status(403, 'admission webhook "x" denied the request: value plainlookingvalue42 is reused'), 'patch secret devtroncd/devtron-secret', 'https://k');
    expect(err.message).not.toContain('plainlookingvalue42');
  });
});
