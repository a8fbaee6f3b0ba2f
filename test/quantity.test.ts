import { describe, expect, it } from 'vitest';
import { bytesOf, compareQuantities, parseQuantity } from '../src/quantity.js';

describe('size quantities, as the values checker, the claim step and the simulated API server read them', () => {
  it('reads decimal and binary suffixes exactly, fractions included', () => {
    expect(bytesOf('10Gi')).toBe(10n * 2n ** 30n);
    expect(bytesOf('10Ki')).toBe(10240n);
    expect(bytesOf('500M')).toBe(500_000_000n);
    expect(bytesOf('1.5Gi')).toBe(1536n * 2n ** 20n);
    expect(bytesOf(' 20G ')).toBe(20_000_000_000n);
    expect(compareQuantities('10240Ki', '10Mi')).toBe(0);
  });

  it('refuses what Kubernetes does not spell as a size', () => {
    for (const text of ['10gb', '10ki', '10K', '500m', '1e3', '10 Gi', '', 'Gi', '.5Gi']) expect(bytesOf(text)).toBeUndefined();
    expect(parseQuantity('20GB')).toBeUndefined();
    expect(parseQuantity('1.25Ti')).toEqual({ whole: '1', fraction: '25', suffix: 'Ti' });
  });
});
