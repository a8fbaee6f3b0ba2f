import { z } from 'zod';
import { namespaceName } from '../../remedies/steps/step.js';
import { ago, defineDetector, objectName } from './detector.js';

/**
 * A certificate inside a secret read by name (never listed): present when its `notAfter` has passed
 * or falls within `withinDays`. Only its dates are read out of the secret.
 */
const certificateDetector = z.strictObject({
  kind: z.literal('certificateExpiry'),
  secret: z.literal('gitopsSecret'),
  namespace: namespaceName,
  key: z.string().min(1),
  withinDays: z.number().int().min(0).max(90),
});
export type CertificateExpiryDetector = z.infer<typeof certificateDetector>;

export const certificateExpiry = defineDetector({
  kind: 'certificateExpiry',
  detector: certificateDetector,
  reads: (d) => [{ certificate: d.secret, in: d.namespace, key: d.key }],
  detect(d, snap) {
    const object = objectName('secret', snap.names[d.namespace], snap.names[d.secret]);
    const dates = snap.certificate(d.secret, d.namespace, d.key);
    if (dates === undefined) return { state: 'absent', evidence: [{ object, detail: `no ${d.key}: the server makes its own certificate when it starts` }] };
    if (dates === 'unreadable') return { state: 'unknown', reason: 'error', message: `${object} key ${d.key} holds no certificate that can be read` };
    const left = Date.parse(dates.notAfter) - snap.now.getTime();
    const detail =
      left <= 0 ? `${d.key} notAfter ${dates.notAfter}: expired ${ago(dates.notAfter, snap.now)} ago` : `${d.key} notAfter ${dates.notAfter}: expires in ${Math.ceil(left / 86_400_000)} days`;
    return { state: left <= d.withinDays * 86_400_000 ? 'present' : 'absent', evidence: [{ object, detail }] };
  },
});
