import { randomBytes } from 'node:crypto';
import { selfSignedCertificate } from '../apiserver/tls-cert.js';

/** The kinds of secret material the platform keeps, made up fresh for the simulated cluster. */

export const b64 = (text: string): string => Buffer.from(text).toString('base64');
export const newPassword = (): string => randomBytes(12).toString('base64url');
export const bcryptLike = (): string => `$2a$10$${randomBytes(40).toString('base64').replace(/[+/=]/g, '').slice(0, 53)}`;

const day = 24 * 3600 * 1000;

/**
 * The GitOps server's serving certificate and key as the secret stores them (base64 of PEM). A real
 * certificate, so whoever reads it (the broken state's check, a person with openssl) sees its dates.
 */
export function gitopsServerTls(validity?: { notBefore: Date; notAfter: Date }): { 'tls.crt': string; 'tls.key': string } {
  const cert = selfSignedCertificate('argocd-server', 'argocd-server', validity ?? { notBefore: new Date(Date.now() - day), notAfter: new Date(Date.now() + 365 * day) });
  return { 'tls.crt': b64(cert.certPem), 'tls.key': b64(cert.keyPem) };
}

/** A certificate that expired a month ago, after a year of service (entry 22). */
export const expiredGitopsServerTls = () => gitopsServerTls({ notBefore: new Date(Date.now() - 395 * day), notAfter: new Date(Date.now() - 30 * day) });
