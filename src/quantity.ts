/**
 * Kubernetes quantities for sizes ("10Gi", "500M", "1.5Gi"): the one parser that the values checker, the
 * claim-growing step and the simulated API server's admission share, so that they agree on what a size is.
 * Only the forms a size takes are read: a plain number, or one with a decimal (k, M, G, T, P, E) or binary
 * (Ki … Ei) suffix. Milli and exponent forms ("500m", "1e3") are quantities of CPU, never sizes.
 */

/** A size quantity taken apart, digits kept as written so that nothing is rounded. */
export interface Quantity {
  /** The digits before the decimal point. */
  readonly whole: string;
  /** The digits after it; '' when there is none. */
  readonly fraction: string;
  /** '' (a number of bytes), a decimal suffix (k, M, G, T, P, E) or a binary one (Ki, Mi, Gi, Ti, Pi, Ei). */
  readonly suffix: string;
}

// BigInt, since Pi and Ei overflow the integers a double holds exactly.
const multipliers: Readonly<Record<string, bigint>> = {
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

const sizeQuantity = /^([0-9]+)(?:\.([0-9]+))?([kMGTPE]|[KMGTPE]i)?$/;

/** The parts of a size quantity written exactly as Kubernetes spells it (no spaces, case as given), or undefined. */
export function parseQuantity(text: string): Quantity | undefined {
  const m = sizeQuantity.exec(text);
  if (!m) return undefined;
  return { whole: m[1] ?? '', fraction: m[2] ?? '', suffix: m[3] ?? '' };
}

/** Whether a suffix counts in powers of 1024 (Ki … Ei). */
export const isBinarySuffix = (suffix: string): boolean => suffix.endsWith('i');

/** Bytes of a size quantity (surrounding spaces ignored), rounded down to whole bytes; undefined when it is not one. */
export function bytesOf(text: string): bigint | undefined {
  const q = parseQuantity(text.trim());
  const multiplier = q ? multipliers[q.suffix] : undefined;
  if (!q || multiplier === undefined) return undefined;
  return (BigInt(`${q.whole}${q.fraction}`) * multiplier) / 10n ** BigInt(q.fraction.length);
}

/** -1, 0 or 1 as `a` is smaller than, equal to or larger than `b`; undefined when either is not a size. */
export function compareQuantities(a: string, b: string): -1 | 0 | 1 | undefined {
  const x = bytesOf(a);
  const y = bytesOf(b);
  if (x === undefined || y === undefined) return undefined;
  return x < y ? -1 : x > y ? 1 : 0;
}
