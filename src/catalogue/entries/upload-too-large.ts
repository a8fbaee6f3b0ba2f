import type { CatalogueEntry } from '../model.js';

/** Guide 7.12: the ingress limits the request body size. */
export const uploadTooLarge: CatalogueEntry = {
  id: 'upload-too-large',
  ref: '7.12',
  appliesTo: 'any-product',
  // The remedy is an ingress annotation: a 413 from a proxy that is not an ingress (a plain nginx, a
  subject: { names: ['ingress', 'proxy-body-size'], platform: true },
  title: 'Upload above a size fails',
  symptom: 'Uploading a file above a certain size fails.',
  cause: 'The ingress limits the request body size.',
  signatures: {
    // nginx's error log names a chunked body too (src/http/ngx_http_request_body.c); gRPC clients
    // (grpc-go's "unexpected HTTP status code received from server: 413 (Request Entity Too Large)") and
    // Python requests ("413 Client Error: Request Entity Too Large for url") quote the 413 page their way.
    errors: [
      '413 Request Entity Too Large',
      'client intended to send too large body',
      'client intended to send too large chunked body',
      '413 (Request Entity Too Large)',
      '413 Client Error: Request Entity Too Large',
    ],
    // In other words: ingress-nginx answers an upload above proxy-body-size (1m by default) with a 413
    // (its ConfigMap and annotation docs; AWS re:Post "configure the NGINX Ingress Controller": "returns an
    // HTTP 413 error"), and the platform's own FAQ says "not able to upload a file more than specific size".
    phrases: [
      'upload fails for large files',
      'file too large to upload',
      'cannot upload chart',
      'request entity too large',
      'image push through ingress fails with 413',
      'upload fails with 413',
      // The status alone, as people report it ("uploads still fail with 413", "the ingress returns 413").
      'fail with 413',
      'fails with 413',
      'returns 413',
      'returned 413',
      'get 413',
      'getting 413',
      '413 error when uploading',
      'not able to upload a file more than',
      // As people name the status in a sentence ("rejected by nginx with a 413 error").
      '413 error',
      'rejected with a 413',
      // The cause in people's words: the ingress's default limit of 1 MB named, with what it blocks.
      'default max body size of 1mb',
      'max body size of 1mb',
      'at its 1 mb default',
      'default 1mb limit',
      'default 1m limit',
      'client_max_body_size=1m',
      'upload files greater than',
      // The remedy as charts and operators add it for their own ingresses (tune: pull requests that set the
      // annotation so that large images upload, or lift an operator's "upload size constraint").
      'upload size constraint',
      'upload large images',
    ],
    // Downstream: what the 413 page looks like to the tool behind it (the docker client pushing through
    // the ingress). Not this remedy: NGINX Inc's controller reads its own nginx.org/ annotation, and an
    // application framework's own body limit answers 413 with its own message. Sources:
    // docs/FAQs/devtron-troubleshoot.md §13, kubernetes/ingress-nginx#6005 (proxy-body-size), helm/charts#11885
    // and goharbor/harbor-operator#62 (registry pushes through ingress-nginx: "error parsing HTTP 413
    // response body"), nginx/kubernetes-ingress#150 and its docs (nginx.org/client-max-body-size), the
    // body-limit errors of Express (PayloadTooLargeError), Spring (MaxUploadSizeExceededException), Django
    // (RequestDataTooBig) and Apache httpd (LimitRequestBody).
    // A client that names the status by RFC 7231's or RFC 9110's reason phrase ("413 Payload Too Large",
    // "413 Content Too Large") or curl's "The requested URL returned error: 413" (git over HTTP) shows the
    // same 413 from wherever it came. PHP's own limits (upload_max_filesize, post_max_size) are the
    // application's, as AWS re:Post's ingress page notes beside proxy-body-size.
    downstream: ['error parsing HTTP 413 response body', 'HTTP 413', 'status code 413', '413 Payload Too Large', '413 Content Too Large', 'The requested URL returned error: 413'],
    // NGINX Inc's controller reads only its own nginx.org/ annotations: nginx.org/client-max-body-size (or client_max_body_size, as people misspell it).
    // Its Helm chart is installed from nginx-stable/nginx-ingress and takes nginx settings under controller.config.entries
    // (tune: a client_max_body_size typed there, nginx/kubernetes-ingress chart 1.12).
    excludes: ['nginx-stable/nginx-ingress', 'controller.config.entries', 'nginx.org/client', 'PayloadTooLargeError', 'MaxUploadSizeExceededException', 'RequestDataTooBig', 'LimitRequestBody', 'upload_max_filesize', 'post_max_size'],
    context: ['nginx', 'ingress', 'upload', 'proxy-body-size'],
    applied: ['proxy-body-size:', 'proxy-body-size=', 'proxy-body-size": '],
    // ingress-nginx's default body size (its ConfigMap documentation: proxy-body-size, default 1m).
    unapplied: ['1m', '1M'],
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
