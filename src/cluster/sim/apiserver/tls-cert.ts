import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  Certificate,
  Extension,
  Extensions,
  GeneralName,
  id_ce_subjectAltName,
  Name,
  RelativeDistinguishedName,
  SubjectAlternativeName,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from '@peculiar/asn1-x509';

/**
 * A throw-away self-signed certificate for the simulator's TLS side, made in memory at start-up.
 * kubectl only sends credentials over TLS, so a token-checking server must speak TLS to it. Node makes the
 * key and the signature but cannot write a certificate; the X.509 structures are built with
 * @peculiar/asn1-x509, synchronously, because the cluster's objects (the GitOps server's secret) need
 * certificates inside synchronous writes.
 */
export interface SelfSignedCertificate {
  certPem: string;
  keyPem: string;
}

const ecdsaWithSha256 = '1.2.840.10045.4.3.2';
const commonNameType = '2.5.4.3';
const day = 24 * 3600 * 1000;

const asArrayBuffer = (bytes: Uint8Array): ArrayBuffer => Uint8Array.from(bytes).buffer;

/** `127.0.0.1` and `localhost`, plus `host` when it is another IPv4 address or a DNS name. */
function subjectAltNames(host: string): SubjectAlternativeName {
  const names = [new GeneralName({ iPAddress: '127.0.0.1' }), new GeneralName({ dNSName: 'localhost' })];
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host) && host !== '127.0.0.1') names.push(new GeneralName({ iPAddress: host }));
  else if (/^[a-z0-9.-]+$/i.test(host) && host !== 'localhost' && !/^\d/.test(host)) names.push(new GeneralName({ dNSName: host }));
  return new SubjectAlternativeName(names);
}

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
  const name = new Name([new RelativeDistinguishedName([new AttributeTypeAndValue({ type: commonNameType, value: new AttributeValue({ utf8String: commonName }) })])]);
  const now = Date.now();
  const tbsCertificate = new TBSCertificate({
    version: Version.v3,
    serialNumber: asArrayBuffer(serial),
    signature: new AlgorithmIdentifier({ algorithm: ecdsaWithSha256 }),
    issuer: name,
    validity: new Validity(validity ?? { notBefore: new Date(now - day), notAfter: new Date(now + 5 * 365 * day) }),
    subject: name,
    subjectPublicKeyInfo: AsnConvert.parse(publicKey.export({ type: 'spki', format: 'der' }), SubjectPublicKeyInfo),
    extensions: new Extensions([new Extension({ extnID: id_ce_subjectAltName, critical: false, extnValue: new OctetString(AsnConvert.serialize(subjectAltNames(host))) })]),
  });
  // ECDSA signatures from Node are DER (r, s) sequences, which is what X.509 carries in its bit string.
  const signature = sign('sha256', Buffer.from(AsnConvert.serialize(tbsCertificate)), privateKey);
  const der = Buffer.from(AsnConvert.serialize(new Certificate({ tbsCertificate, signatureAlgorithm: new AlgorithmIdentifier({ algorithm: ecdsaWithSha256 }), signatureValue: asArrayBuffer(signature) })));
  const certPem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
  return { certPem, keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}
