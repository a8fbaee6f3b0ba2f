/**
 * A seeded random source for the simulated applications, so that the same options grow the same
 * cluster (a benchmark measures the same objects every run). mulberry32: small, fast, good enough.
 */
export interface Random {
  /** In [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** One of `choices` with the chance its weight gives it. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T;
  /** A lower-case name suffix like the `-x7k2q` of generated names (Kubernetes' alphabet, no vowels). */
  suffix(length?: number): string;
  /** Lower-case hex, like a commit's short hash. */
  hex(length: number): string;
}

const alphabet = 'bcdfghjklmnpqrstvwxz2456789';

export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: (items) => items[Math.floor(next() * items.length)]!,
    weighted(choices) {
      const total = choices.reduce((s, [, w]) => s + w, 0);
      let r = next() * total;
      for (const [value, w] of choices) {
        r -= w;
        if (r < 0) return value;
      }
      return choices[choices.length - 1]![0];
    },
    suffix: (length = 5) => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''),
    hex: (length) => Array.from({ length }, () => '0123456789abcdef'[Math.floor(next() * 16)]).join(''),
  };
}
