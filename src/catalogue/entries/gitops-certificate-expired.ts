import type { CatalogueEntry } from '../model.js';
import { restartByLabel } from './shared-steps.js';

/** Guide 7.22: the GitOps controller's serving certificate expired. */
export const gitopsCertificateExpired: CatalogueEntry = {
  id: 'gitops-certificate-expired',
  ref: '7.22',
  title: 'Expired GitOps controller certificate',
  symptom: "The GitOps controller's certificate has expired.",
  cause: 'Its TLS material (tls.crt, tls.key) is expired.',
  signatures: {
    errors: [],
    phrases: [
      'x509: certificate has expired or is not yet valid',
      'x509: certificate has expired',
      'argocd certificate expired',
      'gitops certificate expired',
      'argo cd tls expired',
      'argocd tls certificate expired',
      'gitops controller certificate expired',
      'notAfter',
    ],
    context: [
      'argocd',
      'argo-cd',
      'argo cd',
      'argocd-server',
      'argocd-repo-server',
      'gitops',
      'argocd-secret',
      'tls.crt',
      'authentication handshake failed',
      'argocd-server.devtroncd',
    ],
    // Downstream: the main platform pod talks to the controller over gRPC, so its log shows the expired
    // serving certificate as "transport: authentication handshake failed: x509: certificate has expired"
    // against argocd-server.devtroncd — hence the guide's last step, restarting the main pod so it uses the
    // new certificate. Sources: docs/FAQs/devtron-troubleshoot.md §25, devtron-labs/devtron#3364 (how to
    // refresh the certificate), devtron-labs/devtron#4695 (the same handshake failure with no expiry: a
    // missing server.secretkey, not this entry).
    // The controller's own log reporting an expired certificate while it calls a repository or a cluster
    // names that remote's certificate, not its own serving one.
    excludes: [
      'repository.RepoServerService',
      'failed to get cluster info',
      'index.yaml',
      'git-upload-pack',
      'ls-remote',
      'unable to connect to the server',
      'kube-apiserver',
      'kubeadm',
      // A certificate the controller reads from its own argocd-server-tls secret (cert-manager's, or the
      // chart's server.certificate) takes precedence over argocd-secret's: removing tls.crt there renews
      // nothing. Sources: Argo CD's TLS configuration documentation (argocd-server-tls is used when present),
      // argoproj/argo-cd#10707 and argoproj/argo-helm#4017 (a rotated argocd-server-tls served stale).
      'argocd-server-tls',
      'cert-manager',
      'server.certificate.enabled',
    ],
  },
  detector: { kind: 'certificateExpiry', secret: 'gitopsSecret', namespace: 'platformNamespace', key: 'tls.crt', withinDays: 7 },
  stages: [
    {
      id: 'renew-certificate',
      title: 'Let the GitOps controller generate a new certificate',
      steps: [
        {
          kind: 'removeSecretKeys',
          does: 'Remove tls.crt and tls.key from the GitOps controller secret (after saving a backup)',
          risk: 'destructive',
          secret: 'gitopsSecret',
          keys: ['tls.crt', 'tls.key'],
        },
        restartByLabel('Delete the GitOps controller server pod so that it generates a new certificate', 'gitopsServerLabel'),
        { kind: 'wait', does: 'Wait two minutes', risk: 'read-only', minutes: 2, reason: 'the guide waits 2 minutes before restarting the main pod (section 8)' },
        restartByLabel('Delete the main platform pod', 'mainPodLabel'),
      ],
    },
  ],
};
