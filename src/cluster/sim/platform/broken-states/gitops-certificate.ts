import { X509Certificate } from 'node:crypto';
import type { FaultEntry } from '../fault-model.js';
import { kinds } from '../../apiserver/resources.js';
import { expiredGitopsServerTls } from '../secret-material.js';

/**
 * Entry 22: the GitOps server's certificate in its secret expired a month ago. Fixed when the secret
 * holds a certificate valid now (the server generates one when it starts without tls.crt/tls.key).
 */
export const gitopsCertificateExpired: FaultEntry = {
  entryId: 'gitops-certificate-expired',
  guideEntry: 22,
  breakState({ store, names }) {
    const secret = store.get(kinds.secret, names.platformNamespace, names.gitopsSecret);
    if (!secret) throw new Error(`cannot break gitops-certificate-expired: no secret ${names.gitopsSecret}`);
    secret['data'] = { ...((secret['data'] as Record<string, string> | undefined) ?? {}), ...expiredGitopsServerTls() };
    store.update(kinds.secret, secret);
  },
  present({ store, names }) {
    const crt = (store.get(kinds.secret, names.platformNamespace, names.gitopsSecret)?.['data'] as Record<string, string> | undefined)?.['tls.crt'];
    if (crt === undefined) return true;
    try {
      return Date.parse(new X509Certificate(Buffer.from(crt, 'base64')).validTo) <= Date.now();
    } catch {
      return true;
    }
  },
};
