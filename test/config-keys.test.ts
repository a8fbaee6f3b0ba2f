import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { declaredKeys } from '../src/config/keys.js';

/** The ConfigError's message that loading gives, or what went otherwise. */
function problems(load: () => unknown): string {
  try {
    load();
    return 'no error';
  } catch (err) {
    return err instanceof ConfigError ? err.message : `not a ConfigError: ${String(err)}`;
  }
}

function withFile(yaml: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'medic-keys-')), 'platform-medic.yaml');
  writeFileSync(file, yaml);
  return file;
}

describe('configuration keys, declared once', () => {
  it('name every variable once, and keep credentials out of the file', () => {
    const vars = declaredKeys.flatMap((k) => (k.env ? [k.env] : []));
    expect(new Set(vars).size).toBe(vars.length);
    for (const k of declaredKeys.filter((d) => d.path.startsWith('slack.'))) expect(k.inFile, k.path).toBe(false);
    expect(problems(() => loadConfig({ env: {}, file: withFile('slack:\n  botToken: xoxb-1\n') }))).toMatch(/ has an unknown key "slack"$/m);
  });

  it('given two unreadable variables, names both at once', () => {
    const msg = problems(() => loadConfig({ env: { PORT: 'eighty', PLATFORM_MEDIC_TWO_PERSON_RULE: 'maybe' } }));
    // In the words the file's keys are told in (`port: expected a number (got "abc")`), with the key the variable sets.
    expect(msg).toContain('PORT (port): expected a number (got "eighty")');
    expect(msg).toContain('PLATFORM_MEDIC_TWO_PERSON_RULE (twoPersonRule): expected true or false (also yes, no, 1, 0) (got "maybe")');
  });

  it('takes the variable over the file, and the file over the default, for every kind of value', () => {
    const file = withFile('port: 3100\ntwoPersonRule: false\napprovers: [U0FILE]\nqueuePrefix: from-file\nhealthPort: 9100\n');
    const c = loadConfig({ env: { PORT: '3200', PLATFORM_MEDIC_APPROVERS: 'U0ENV1, U0ENV2', PLATFORM_MEDIC_QUEUE_PREFIX: 'from-env' }, file });
    expect(c).toMatchObject({ port: 3200, twoPersonRule: false, approvers: ['U0ENV1', 'U0ENV2'], queuePrefix: 'from-env', healthPort: 9100, shutdownSeconds: 25 });
  });

  it('never quotes the password of a Redis URL that is wrong', () => {
    const msg = problems(() => loadConfig({ env: { REDIS_URL: 'http://:hunter2-secret@redis:6379' } }));
    expect(msg).toContain('REDIS_URL (redisUrl): a redis:// or rediss:// URL');
    expect(msg).not.toContain('hunter2');
  });
});
