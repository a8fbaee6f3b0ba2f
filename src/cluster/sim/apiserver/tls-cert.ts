import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/**
 * A throw-away self-signed certificate for the simulator's TLS side, made in memory at start-up.
 * kubectl only sends credentials over TLS, so a token-checking server must speak TLS to it; with no
 * certificate library among the dependencies, the few DER structures needed are encoded here.
 */
export interface SelfSignedCertificate {
  certPem: string;
  keyPem: string;
}

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, ...content: Buffer[]): Buffer => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const sequence = (...c: Buffer[]) => tlv(0x30, ...c);
const set = (...c: Buffer[]) => tlv(0x31, ...c);
const explicit = (n: number, ...c: Buffer[]) => tlv(0xa0 + n, ...c);

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const part of rest) {
    const enc: number[] = [part & 0x7f];
    for (let v = Math.floor(part / 128); v > 0; v = Math.floor(v / 128)) enc.unshift(0x80 | (v & 0x7f));
    bytes.push(...enc);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const p = (n: number) => String(n).padStart(2, '0');
  const text = `${p(date.getUTCFullYear() % 100)}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}Z`;
  return tlv(0x17, Buffer.from(text, 'ascii'));
}

const ecdsaWithSha256 = sequence(oid('1.2.840.10045.4.3.2'));

/** A certificate for `127.0.0.1` and `localhost`, plus `host` when it is another IPv4 address or a DNS name. */
export function selfSignedCertificate(
  host = '127.0.0.1',
  commonName = 'platform-sim',
  /** Default: from a day ago for five years. A past `notAfter` makes an expired certificate (entry 22's broken state). */
  validity?: { notBefore: Date; notAfter: Date },
): SelfSignedCertificate {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const serial = randomBytes(16);
  // Positive and minimally encoded (a leading 0x00 followed by a byte below 0x80 is "illegal padding" to strict parsers).
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x01;
  const name = sequence(set(sequence(oid('2.5.4.3'), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
  const now = Date.now();
  const names = [tlv(0x87, Buffer.from([127, 0, 0, 1])), tlv(0x82, Buffer.from('localhost', 'ascii'))];
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host) && host !== '127.0.0.1') names.push(tlv(0x87, Buffer.from(host.split('.').map(Number))));
  else if (/^[a-z0-9.-]+$/i.test(host) && host !== 'localhost' && !/^\d/.test(host)) names.push(tlv(0x82, Buffer.from(host, 'ascii')));
  const altNames = sequence(...names);
  const tbs = sequence(
    explicit(0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, serial),
    ecdsaWithSha256,
    name,
    sequence(utcTime(validity?.notBefore ?? new Date(now - 24 * 3600 * 1000)), utcTime(validity?.notAfter ?? new Date(now + 5 * 365 * 24 * 3600 * 1000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(3, sequence(sequence(oid('2.5.29.17'), tlv(0x04, altNames)))),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, ecdsaWithSha256, tlv(0x03, Buffer.from([0]), signature));
  const certPem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
  return { certPem, keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}
