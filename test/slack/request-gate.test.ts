import { describe, expect, it } from 'vitest';
import { maxClockSkewSeconds, skewOf } from '../../src/slack/request-gate.js';

describe('the clock skew a signed request may have', () => {
  const now = 1_800_000_000_000;
  const at = (deltaSeconds: number) => String(now / 1000 + deltaSeconds);

  it('accepts up to five minutes either way, and refuses one second more in words', () => {
    expect(maxClockSkewSeconds).toBe(300);
    expect(skewOf(at(300), now)).toBeUndefined();
    expect(skewOf(at(-300), now)).toBeUndefined();
    expect(skewOf(at(301), now)).toBe("timestamp 301 s ahead of this server's clock (at most 300 s either way)");
    expect(skewOf(at(-301), now)).toBe("timestamp 301 s behind this server's clock (at most 300 s either way)");
  });

  it("leaves a missing or non-numeric header to Bolt's own verification", () => {
    expect(skewOf(undefined, now)).toBeUndefined();
    expect(skewOf('yesterday', now)).toBeUndefined();
  });
});
