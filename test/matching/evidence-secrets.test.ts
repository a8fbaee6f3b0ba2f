import { describe, expect, it } from 'vitest';
import { match } from '../../src/matching/index.js';

/** What an answer shows of a paste never holds a secret, even one that starts on a line above the evidence. */
const err = ' Failed to pull image "reg.example.com/app:1": 401 Unauthorized from our private registry, devtron app';
const shown = (paste: string): string => JSON.stringify(match(paste));

describe('secrets in the evidence an answer shows (found by an attacker: evidence lines were redacted alone)', () => {
  it.each([
    ['a login continued by backslashes', `docker login \\\n -u u \\\n -p Zq9Sekret7x reg${err}`],
    ['mysql over a CRLF continuation', 'mysql \\\r\n -uroot -pZq9Sekret7x database "orchestrator" is being accessed by other users'],
    ['a Kubernetes env var', `- name: DB_PASSWORD\n  value: Zq9Sekret7x${err}`],
    ['a YAML value on the next line', `password:\n  Zq9Sekret7x${err}`],
    ['a control character inside the key', `pass\u001bword=Zq9Sekret7x${err}`],
    ['a long flag of another tool', `redis-cli -h r --pass Zq9Sekret7x ping &&${err}`],
    ["a Secret's data, its kind below it as kubectl writes it", `apiVersion: v1\ndata:\n  db-url: Zq9Sekret7x${err}\nkind: Secret\nmetadata:\n  name: app`],
    ["a Secret's data in JSON", `{\n  "data": {\n    "db-url": "Zq9Sekret7x${err}"\n  },\n  "kind": "Secret"\n}`],
    ['a short JWT', `session: eyJhbGciOi.eyJzdWIi.Zq9Sekret7x${err}`],
    ['Cyrillic look-alike letters in the key', `\u0440\u0430ssword=Zq9Sekret7x${err}`],
    // Found by a fresh-clone try: the backslash was taken as the password.
    ["a short flag's value after a backslash", `docker login -u admin -p \\\n  Zq9Sekret7x r.io &&${err}`],
    ["an environment variable's value after a backslash", `PGPASSWORD=\\\nZq9Sekret7x${err}`],
    ['a login continued inside a JSON record', JSON.stringify({ msg: `docker login -u a -p \\\n Zq9Sekret7x${err}` })],
  ])('%s', (_, paste) => {
    expect(match(paste).verdict).not.toBe('no-match');
    expect(shown(paste)).not.toContain('Zq9Sekret7x');
  });
});

describe('secrets in the evidence of a line longer than an evidence line (found by a fresh-clone try: read without the lines above it)', () => {
  const long = `${err} ${'x'.repeat(320)}`;
  it.each([
    ['a YAML value on the next line', `password:\n  Zq9Sekret7x${long}`],
    ['a Kubernetes env var', `env:\n  - name: DB_PASSWORD\n    value: Zq9Sekret7x${long}`],
    ['a carriage return inside the key', `pass\rword=Zq9Sekret7x${long}`],
    ['a bell inside the key', `pass\u0007word=Zq9Sekret7x${long}`],
    ['colour sequences around a key glued to a letter', `P\u001b[1mpassword\u001b[0m=Zq9Sekret7x${long}`],
  ])('%s', (_, paste) => {
    expect(match(paste).verdict).not.toBe('no-match');
    expect(shown(paste)).not.toContain('Zq9Sekret7x');
  });

  it("reads a JSON log record's message as it is shown: colour escapes around a key, a line break in it", () => {
    for (const msg of [`${err} \u001b[1mpassword\u001b[0m: Zq9Sekret7x`, `${err} pass\u001b[0mword=Zq9Sekret7x`]) {
      const paste = JSON.stringify({ level: 'error', msg });
      expect(match(paste).verdict).not.toBe('no-match');
      expect(shown(paste)).not.toContain('Zq9Sekret7x');
    }
    // Evidence is one line: a message's line break would break the text answer's layout.
    const evidence = match(JSON.stringify({ level: 'error', msg: `first line\n${err}` })).matches[0]!.evidence;
    expect(evidence.map((e) => e.text).join('')).not.toContain('\n');
  });
});

describe("the error's own words in the evidence an answer shows (found by a fresh-clone try: hidden as if secrets)", () => {
  const pull = 'Failed to pull image "x": rpc error: code = Unknown desc = failed to authorize: failed to fetch oauth token: unexpected status: 401 Unauthorized';
  const busy = 'ERROR: database "app" is being accessed by other users';
  it.each([
    ['the image-pull error', pull, pull],
    ['an error line after an indented empty password key', `  password:\n  ${busy}`, busy],
    ['an error line after a deeper empty password key', `password:\n  ${busy}`, busy],
    ["an error line after a key block's start", `-----BEGIN RSA PRIVATE KEY-----\n${busy}`, busy],
  ])('%s', (_, paste, line) => {
    const result = match(paste);
    expect(result.matches[0]?.evidence.map((e) => e.text)).toContain(line);
  });
});

describe('the matched words in the evidence of a match far into one line (found by a fresh-clone try: unrelated text shown)', () => {
  const busy = 'ERROR: database "app" is being accessed by other users';
  it.each([
    ['after a megabyte of other text', `${'a'.repeat(1_100_000)} ${busy}`],
    ["after a megabyte's secret", `password=${'S'.repeat(1_100_000)} ${busy}`],
  ])('%s', (_, paste) => {
    const text = match(paste).matches[0]!.evidence[0]!.text;
    expect(text).toContain('is being accessed by other users');
    expect(text).not.toContain('SSSS');
  });
});
