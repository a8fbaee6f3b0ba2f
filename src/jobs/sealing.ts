import { createCipheriv, createDecipheriv, createPublicKey, diffieHellman, generateKeyPairSync, hkdfSync, randomBytes, type KeyObject } from 'node:crypto';
import { knownSecrets } from '../known-secrets.js';

/**
 * Secrets travel from the worker to the bot sealed to a one-time key that only the bot's memory holds:
 * Redis (job data, results, progress) sees only ciphertext. X25519 key agreement, HKDF-SHA256, then
 * AES-256-GCM; the worker's ephemeral public key travels with the ciphertext. Both ends add the plain
 * value to the process's known secrets, so whatever later logs it (the message that carries it to the
 * person who asked, an error) writes `[redacted]` instead.
 */

const info = Buffer.from('platform-medic sealed secret v1');

function key(shared: Buffer, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', shared, salt, info, 32));
}

/** A one-time key pair; `publicKey` goes in the run job, `open` stays in the bot. */
export interface SealingKey {
  readonly publicKey: string;
  open(sealed: string): string;
}

/** Makes a key pair for one request. */
export function newSealingKey(): SealingKey {
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  return {
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    open: (sealed) => open(privateKey, sealed),
  };
}

/** Seals a secret to a public key (base64 SPKI). Returns base64 text safe to store anywhere. */
export function seal(publicKeyBase64: string, plaintext: string): string {
  knownSecrets.add(plaintext);
  const recipient = createPublicKey({ key: Buffer.from(publicKeyBase64, 'base64'), format: 'der', type: 'spki' });
  const eph = generateKeyPairSync('x25519');
  const shared = diffieHellman({ privateKey: eph.privateKey, publicKey: recipient });
  const ephPub = eph.publicKey.export({ type: 'spki', format: 'der' });
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(shared, ephPub), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([ephPub.length]), ephPub, iv, cipher.getAuthTag(), body]).toString('base64');
}

function open(privateKey: KeyObject, sealed: string): string {
  const raw = Buffer.from(sealed, 'base64');
  const n = raw[0]!;
  const ephPub = raw.subarray(1, 1 + n);
  const iv = raw.subarray(1 + n, 13 + n);
  const tag = raw.subarray(13 + n, 29 + n);
  const body = raw.subarray(29 + n);
  const shared = diffieHellman({ privateKey, publicKey: createPublicKey({ key: ephPub, format: 'der', type: 'spki' }) });
  const decipher = createDecipheriv('aes-256-gcm', key(shared, ephPub), iv);
  decipher.setAuthTag(tag);
  const plaintext = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  knownSecrets.add(plaintext);
  return plaintext;
}
