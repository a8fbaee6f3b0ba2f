/**
 * Why an address a remedy will make a platform component call (the dashboard's data source) must be
 * refused: the cloud metadata service, loopback, link-local and unspecified addresses are never a
 * metrics store, and pointing a component at them would let a fix read the node's credentials or the
 * component itself. The URL parser normalises every spelling first (decimal, hex, octal and short
 * IPv4, IPv4 inside IPv6, upper case, a trailing dot), so the checks below see one form.
 */

import { shownBack } from '../../redact.js';

/** Names that resolve to the metadata service of a cloud. */
const metadataNames = new Set(['metadata', 'metadata.google.internal', 'metadata.goog']);
/** Metadata services by address: AWS, GCP, Azure and OpenStack (IPv4 and AWS's IPv6), Alibaba Cloud. */
const metadataV4 = new Set(['169.254.169.254', '100.100.100.200']);
const metadataV6 = 'fd00:ec2:0:0:0:0:0:254';

function v4Problem(octets: readonly number[], shown: string): string | undefined {
  const dotted = octets.join('.');
  if (metadataV4.has(dotted)) return `${shown} is a cloud metadata address`;
  if (octets[0] === 127) return `${shown} is a loopback address`;
  if (octets[0] === 169 && octets[1] === 254) return `${shown} is a link-local address`;
  if (octets[0] === 0) return `${shown} is the unspecified address`;
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (compressed, hex, no dots). */
function v6Groups(text: string): number[] | undefined {
  const [head, tail, ...rest] = text.split('::');
  if (rest.length > 0) return undefined;
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const a = part(head);
  const b = part(tail);
  const groups = tail === undefined ? a : [...a, ...new Array<number>(8 - a.length - b.length).fill(0), ...b];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

function v6Problem(groups: readonly number[], shown: string): string | undefined {
  if (groups.map((g) => g.toString(16)).join(':') === metadataV6) return `${shown} is a cloud metadata address`;
  if (groups.every((g) => g === 0)) return `${shown} is the unspecified address`;
  if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return `${shown} is a loopback address`;
  if ((groups[0]! & 0xffc0) === 0xfe80) return `${shown} is a link-local address`;
  // IPv4 carried in IPv6 (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::a.b.c.d) is judged as IPv4.
  const mapped = groups.slice(0, 5).every((g) => g === 0) && (groups[5] === 0xffff || groups[5] === 0);
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0);
  if (!mapped && !nat64) return undefined;
  const octets = [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff];
  return v4Problem(octets, `${shown} (${octets.join('.')})`);
}

/**
 * Whether an address carries credentials: a user or password before its host, or a query (`?token=…`). A
 * remedy's parameters are kept in its jobs and shown in its thread, so they must hold no secret; the data
 * source's authentication is the dashboard's to keep. A value that is not a URL carries none here.
 */
export function carriesCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username !== '' || url.password !== '' || url.search !== '';
  } catch {
    return false;
  }
}

/** Why the URL's host must not be called, or undefined when it may be. */
export function endpointProblem(value: string): string | undefined {
  let host: string;
  try {
    host = new URL(value).hostname.toLowerCase();
  } catch {
    return `${shownBack(value)} is not a URL`;
  }
  if (host.startsWith('[')) {
    const groups = v6Groups(host.slice(1, -1));
    return groups ? v6Problem(groups, host) : `${host} is not an IPv6 address`;
  }
  // A loop, not /\.+$/: that pattern is quadratic on a long run of dots (test/matching/redos.test.ts).
  let name = host;
  while (name.endsWith('.')) name = name.slice(0, -1);
  if (metadataNames.has(name)) return `${host} is a cloud metadata address`;
  if (name === 'localhost' || name.endsWith('.localhost')) return `${host} is a loopback address`;
  const octets = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(name)?.slice(1).map(Number);
  return octets ? v4Problem(octets, name) : undefined;
}
