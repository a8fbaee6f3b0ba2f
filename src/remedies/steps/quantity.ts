/**
 * Kubernetes quantities for sizes ("10Gi", "500Mi", "1T"), as exact numbers of bytes: BigInt, since
 * Pi and Ei overflow the integers a double holds exactly. Decimal fractions ("1.5Gi") are accepted.
 */
const units: Record<string, bigint> = {
  '': 1n,
  k: 10n ** 3n,
  M: 10n ** 6n,
  G: 10n ** 9n,
  T: 10n ** 12n,
  P: 10n ** 15n,
  E: 10n ** 18n,
  Ki: 2n ** 10n,
  Mi: 2n ** 20n,
  Gi: 2n ** 30n,
  Ti: 2n ** 40n,
  Pi: 2n ** 50n,
  Ei: 2n ** 60n,
};

/** Bytes of a size quantity, or undefined when it is not one. */
export function bytesOf(quantity: string): bigint | undefined {
  const m = /^(\d+)(?:\.(\d+))?([kMGTPE]i?|)$/.exec(quantity.trim());
  if (!m || (m[3] === 'ki')) return undefined;
  const unit = units[m[3] ?? ''];
  if (unit === undefined) return undefined;
  const fraction = m[2] ?? '';
  const scale = 10n ** BigInt(fraction.length);
  return (BigInt(`${m[1]}${fraction}`) * unit) / scale;
}

/** -1, 0 or 1 as `a` is smaller than, equal to or larger than `b`; undefined when either is not a size. */
export function compareQuantities(a: string, b: string): -1 | 0 | 1 | undefined {
  const x = bytesOf(a);
  const y = bytesOf(b);
  if (x === undefined || y === undefined) return undefined;
  return x < y ? -1 : x > y ? 1 : 0;
}
