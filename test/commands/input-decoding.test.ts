import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { medicArgs } from '../support/medic-process.js';

/** Runs the command line as a user would, on a file of `bytes`. */
function matchFile(bytes: Buffer, ...flags: string[]) {
  const file = join(mkdtempSync(join(tmpdir(), 'medic-decoding-')), 'paste.log');
  writeFileSync(file, bytes);
  const r = spawnSync(process.execPath, medicArgs('match', ...flags, file), {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PLATFORM_MEDIC_CONFIG: '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const paste = 'E0101 12:00:00 client intended to send too large body: 52428800 bytes\r\n413 Request Entity Too Large from ingress-nginx\r\n';
const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();

describe('files that are not UTF-8: read as the person meant them, and said so (a newcomer and an attacker tried them)', { timeout: 120_000 }, () => {
  it('reads UTF-16LE without a byte-order mark (iconv -t UTF-16LE, older PowerShell redirects) and says it did, rather than "binary input"', () => {
    const r = matchFile(Buffer.from(paste, 'utf16le'));
    expect(r.err).toBe('platform-medic match: read as UTF-16LE (it has no byte-order mark). To convert it: iconv -f UTF-16LE -t UTF-8\n');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^match: upload-too-large /);
    const json = matchFile(Buffer.from(paste, 'utf16le'), '--json');
    expect(JSON.parse(json.out)).toMatchObject({ verdict: 'match', input: 'read as UTF-16LE (it has no byte-order mark). To convert it: iconv -f UTF-16LE -t UTF-8' });
  });

  it('reads UTF-16BE without a byte-order mark, and with one as before (in silence: the mark says what it is)', () => {
    const be = matchFile(utf16be(paste));
    expect(be.err).toContain('read as UTF-16BE (it has no byte-order mark). To convert it: iconv -f UTF-16BE -t UTF-8');
    expect(be.out).toMatch(/^match: upload-too-large /);
    const marked = matchFile(Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be(paste)]));
    expect(marked.err).toBe('');
    expect(marked.out).toMatch(/^match: upload-too-large /);
  });

  it('reads Latin-1 / Windows-1252 text as such: "für" stays "für" in the evidence, and the answer says how it was read', () => {
    const latin1 = Buffer.from("Fehler: Zugriff verweigert für Benutzer\ngit-sensor: fatal: could not read Username for 'https://git.müller.example': exit status 128\n", 'latin1');
    const r = matchFile(latin1);
    expect(r.err).toBe('platform-medic match: read as Windows-1252 (Latin-1): the input is not UTF-8. To convert it: iconv -f WINDOWS-1252 -t UTF-8\n');
    expect(r.out).toMatch(/^match: commits-exit-128 /);
    expect(r.out).toContain("line 2: git-sensor: fatal: could not read Username for 'https://git.müller.example': exit status 128");
  });

  it('counts the bytes of a UTF-8 file that are not UTF-8, rather than dropping them in silence', () => {
    const broken = Buffer.concat([Buffer.from('Größe überschritten\n'), Buffer.from([0xff]), Buffer.from('413 Request Entity Too Large from ingress-nginx\n')]);
    const r = matchFile(broken);
    expect(r.err).toBe('platform-medic match: 1 byte of the input is not UTF-8 and could not be read; it was left out\n');
    expect(r.out).toMatch(/^match: upload-too-large /);
  });

  it('still refuses a binary file, whatever its bytes look like', () => {
    const elf = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0x03, 0x00, 0x3e, 0x00]);
    expect(matchFile(elf)).toMatchObject({ code: 2, err: 'platform-medic match: binary input: not text\n' });
    // Every other byte NUL, but the others are control bytes, not text.
    const words = Buffer.from(Array.from({ length: 512 }, (_, i) => (i % 2 ? 0 : 1 + (i % 7))));
    expect(matchFile(words)).toMatchObject({ code: 2, err: 'platform-medic match: binary input: not text\n' });
  });

  it('repeats back an unknown command or flag with its control characters escaped, never raw to the terminal', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, medicArgs(...args), { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '', PLATFORM_MEDIC_CONFIG: '' } });
    const command = run('frob\u001b]0;owned\u0007');
    expect(command.status).toBe(2);
    expect(command.stderr).toBe('Unknown command "frob\\x1b]0;owned\\x07". The commands: start, bot, worker, terminal, sim, match, doctor, explain, values, list, gen-rbac; platform-medic --help shows how to use them.\n');
    const flag = run('match', '--js\u001b[2Jon');
    expect(flag.status).toBe(2);
    expect(flag.stderr).toMatch(/^platform-medic: match: unknown flag --js\\x1b\[2Jon/);
  });
});
