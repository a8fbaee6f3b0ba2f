import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { KnownSecrets } from '../src/known-secrets.js';
import { createLogger } from '../src/logger.js';

/** A logger at the most verbose level into memory, with its own registry of known secrets. */
function capture(secrets = new KnownSecrets()) {
  const lines: string[] = [];
  const sink = new Writable({ write: (c: Buffer, _e, cb) => (lines.push(...c.toString().split('\n').filter(Boolean)), cb()) });
  return { logger: createLogger('trace', sink, secrets), lines, secrets };
}

// A password no pattern recognises: random text, as the platform generates.
const password = 'qC8c6r_vceV0Fc00';
const pastedToken = `xoxb-${'1234567890'.repeat(2)}-abcdefghij`;

describe('the logger guard: no level writes a secret', () => {
  it('scrubs a known password and a pasted token from message strings and from nested fields', () => {
    const { logger, lines, secrets } = capture();
    secrets.add(password);

    logger.debug('http request body: ' + JSON.stringify({ channel: 'C1', text: `🔑 Admin password: ${password}` }));
    logger.trace({ req: { body: { text: `see ${password}`, tokens: [pastedToken] } } }, `pasted: ${pastedToken} and password=hunter22x`);
    logger.child({ context: `bound ${password}` }).info('a child line');
    logger.error({ err: new Error(`login failed for admin/${password}`) }, 'an error');

    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(line).not.toContain(password);
      expect(line).not.toContain(pastedToken);
      expect(line).not.toContain('hunter22x');
    }
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(parsed[0]!.msg).toBe('http request body: {"channel":"C1","text":"🔑 Admin password: [redacted]"}');
    expect(parsed[1]).toMatchObject({ level: 10, req: { body: { text: 'see [redacted]', tokens: ['[redacted]'] } }, msg: 'pasted: [redacted] and password=[redacted]' });
    expect(parsed[2]).toMatchObject({ context: 'bound [redacted]', msg: 'a child line' });
    expect((parsed[3]!.err as { message: string }).message).toBe('login failed for admin/[redacted]');
  });

  it('finds a known secret escaped inside JSON text in a message, and keeps the line valid JSON', () => {
    const { logger, lines, secrets } = capture();
    const quoted = 'pa"ss\\word-9';
    secrets.add(quoted);
    logger.debug(`http request body: ${JSON.stringify({ text: quoted })}`);
    expect(lines[0]).not.toContain('word-9');
    expect((JSON.parse(lines[0]!) as { msg: string }).msg).toBe('http request body: {"text":"[redacted]"}');
  });

  it('scrubs every value of a Secret it read, as stored (base64) and decoded', () => {
    const { logger, lines, secrets } = capture();
    const grafana = 'grafana-Adm1n-pw';
    const encoded = Buffer.from(grafana).toString('base64');
    secrets.addSecretData({ GRAFANA_PASSWORD: encoded });
    logger.warn({ data: { GRAFANA_PASSWORD: encoded } }, `dashboard login with ${grafana} refused`);
    expect(lines[0]).not.toContain(grafana);
    expect(lines[0]).not.toContain(encoded);
    expect(JSON.parse(lines[0]!)).toMatchObject({ data: { GRAFANA_PASSWORD: '[redacted]' }, msg: 'dashboard login with [redacted] refused' });
  });

  it('leaves lines without secrets exactly as pino wrote them', () => {
    const { logger, lines, secrets } = capture();
    secrets.add(password);
    logger.info({ requestId: 'r-1', status: 'done' }, 'job finished');
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, app: 'platform-medic', requestId: 'r-1', status: 'done', msg: 'job finished' });
  });
});

describe('the registry of known secrets', () => {
  it('keeps scrubbing the newest values when full, and ignores values too short to scrub', () => {
    const secrets = new KnownSecrets();
    const values = Array.from({ length: 600 }, (_, i) => `secret-value-${String(i).padStart(4, '0')}`);
    secrets.add(...values);
    secrets.add('abc12');
    expect(secrets.scrub(`newest ${values[599]} and ${values[100]}`)).toBe('newest [redacted] and [redacted]');
    expect(secrets.scrub(`oldest ${values[0]}`)).toBe(`oldest ${values[0]}`);
    expect(secrets.scrub('abc12 stays')).toBe('abc12 stays');
  });
});

describe('words that only look like the name of a secret', () => {
  it("keeps Bolt's verification failure line whole, and still scrubs an authorization value", () => {
    const { logger, lines } = capture();
    logger.warn('Failed to verify authenticity: signature mismatch');
    logger.info({ header: 'authorization: Bearer abcdefghijklmnop', author: 'Ada' }, 'auth=hunter2hunter2 by author: Ada');
    expect(JSON.parse(lines[0]!).msg).toBe('Failed to verify authenticity: signature mismatch');
    const second = JSON.parse(lines[1]!) as { header: string; author: string; msg: string };
    expect(second.header).not.toContain('abcdefghijklmnop');
    expect(second.msg).toBe('auth=[redacted] by author: Ada');
    expect(second.author).toBe('Ada');
  });

  it('scrubs a secret that only a parsed line shows (a tab or a quote escaped in the JSON text)', () => {
    const { logger, lines, secrets } = capture();
    secrets.add('tab\tsecret-value');
    logger.info({ note: 'password:\tsupersecretvalue', other: 'has tab\tsecret-value inside' }, 'quoted "x"');
    const parsed = JSON.parse(lines[0]!) as { note: string; other: string };
    expect(parsed.note).toBe('password:\t[redacted]');
    expect(parsed.other).toBe('has [redacted] inside');
  });
});
