import type { Redis } from 'ioredis';

/** One bucket to draw from: its key (under the deployment's prefix), and how many per minute it allows. */
export interface Bucket {
  readonly key: string;
  readonly perMinute: number;
}

/**
 * What drawing from some buckets gave: a token from each, or the first bucket that was empty, whether
 * this is the first refusal since it was last full (the one time to tell someone), and how long until
 * it has a token again.
 */
export type Draw =
  | { readonly ok: true }
  | { readonly ok: false; readonly empty: number; readonly firstRefusal: boolean; readonly refillMs: number };

/**
 * Takes one token from every bucket or from none, atomically. A bucket holds up to its capacity and
 * refills continuously (a sliding refill, not a window reset at the minute's turn), so a burst drains it
 * and steady use gets one token every 60/capacity seconds. The `noticed` mark is set on the first
 * refusal and cleared once the bucket is full again, so a person is told once per exhaustion.
 * Keys expire once a bucket would be full anyway: a missing key is a full bucket.
 */
const drawScript = `
local now = tonumber(ARGV[1])
local n = #KEYS
local tokens, noticed, caps, rates = {}, {}, {}, {}
local empty = 0
for i = 1, n do
  local cap = tonumber(ARGV[i + 1])
  local rate = cap / 60000
  local h = redis.call('HMGET', KEYS[i], 'tokens', 'at', 'noticed')
  local t = tonumber(h[1]) or cap
  local at = tonumber(h[2]) or now
  t = math.min(cap, t + math.max(0, now - at) * rate)
  noticed[i] = h[3] == '1' and t < cap
  tokens[i], caps[i], rates[i] = t, cap, rate
  if empty == 0 and t < 1 then empty = i end
end
local first, refill = 0, 0
if empty == 0 then
  for i = 1, n do tokens[i] = tokens[i] - 1 end
else
  refill = math.ceil((1 - tokens[empty]) / rates[empty])
  if not noticed[empty] then
    noticed[empty] = true
    first = 1
  end
end
for i = 1, n do
  redis.call('HSET', KEYS[i], 'tokens', tostring(tokens[i]), 'at', tostring(now), 'noticed', noticed[i] and '1' or '0')
  redis.call('PEXPIRE', KEYS[i], math.ceil((caps[i] - tokens[i]) / rates[i]) + 1000)
end
return {empty, first, refill}
`;

/**
 * Token buckets in Redis, so every bot replica draws from the same ones. `now` is injectable for
 * tests of the refill; replicas' clocks only need to agree to within a fraction of a token's time.
 */
export class SharedTokenBuckets {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Draws one token from each bucket, or from none when one of them is empty. */
  async draw(buckets: readonly Bucket[]): Promise<Draw> {
    const keys = buckets.map((b) => `${this.prefix}:budget:${b.key}`);
    const [empty, first, refill] = (await this.redis.eval(drawScript, keys.length, ...keys, String(this.now()), ...buckets.map((b) => String(b.perMinute)))) as [number, number, number];
    if (empty === 0) return { ok: true };
    return { ok: false, empty: empty - 1, firstRefusal: first === 1, refillMs: refill };
  }
}
