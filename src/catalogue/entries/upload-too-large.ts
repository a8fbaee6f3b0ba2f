import type { CatalogueEntry } from '../model.js';

/** Guide 7.12: the ingress limits the request body size. */
export const uploadTooLarge: CatalogueEntry = {
  id: 'upload-too-large',
  ref: '7.12',
  appliesTo: 'any-product',
  // The remedy is an ingress annotation: a 413 from a proxy that is not an ingress (a plain nginx, a
  subject: { names: ['ingress'], platform: true },
  title: 'Upload above a size fails',
  symptom: 'Uploading a file above a certain size fails.',
  cause: 'The ingress limits the request body size.',
  signatures: {
    errors: ['413 Request Entity Too Large', 'client intended to send too large body'],
    phrases: ['upload fails for large files', 'file too large to upload', 'cannot upload chart', 'request entity too large', 'image push through ingress fails with 413'],
    // Downstream: what the 413 page looks like to the tool behind it (the docker client pushing through
    // the ingress). Not this remedy: NGINX Inc's controller reads its own nginx.org/ annotation, and an
    // application framework's own body limit answers 413 with its own message. Sources:
    // docs/FAQs/devtron-troubleshoot.md §13, kubernetes/ingress-nginx#6005 (proxy-body-size), helm/charts#11885
    // and goharbor/harbor-operator#62 (registry pushes through ingress-nginx: "error parsing HTTP 413
    // response body"), nginx/kubernetes-ingress#150 and its docs (nginx.org/client-max-body-size), the
    // body-limit errors of Express (PayloadTooLargeError), Spring (MaxUploadSizeExceededException), Django
    // (RequestDataTooBig) and Apache httpd (LimitRequestBody).
    downstream: ['error parsing HTTP 413 response body', 'HTTP 413', 'status code 413'],
    excludes: ['nginx.org/client-max-body-size', 'PayloadTooLargeError', 'MaxUploadSizeExceededException', 'RequestDataTooBig', 'LimitRequestBody'],
    context: ['nginx', 'ingress', 'upload', 'proxy-body-size'],
    applied: ['proxy-body-size:', 'proxy-body-size=', 'proxy-body-size": '],
  },
  params: [{ name: 'size', description: 'the largest body to accept, an integer followed by m (MiB)', default: '100m', pattern: '^[1-9][0-9]{0,5}m$', example: '200m' }],
  detector: { kind: 'ingressBodySize', namespace: 'platformNamespace' },
  stages: [
    {
      id: 'raise-body-size',
      title: 'Raise the ingress body-size limit',
      steps: [
        {
          kind: 'annotate',
          does: "Set the platform ingress's body-size annotation",
          risk: 'destructive',
          approval: 'approver',
          resource: 'ingresses',
          namespace: 'platformNamespace',
          select: 'platform',
          annotations: { 'nginx.ingress.kubernetes.io/proxy-body-size': { param: 'size' } },
        },
        { kind: 'manual', does: 'Upload again', risk: 'read-only', items: ['Upload the file again.'] },
      ],
    },
  ],
};
