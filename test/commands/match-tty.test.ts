import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runMatchCommand } from '../../src/commands/match-cli.js';
import { runValuesCommand } from '../../src/commands/values-cli.js';

const collect = (): { stream: PassThrough; text: () => string } => {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (c: Buffer) => (text += c.toString()));
  return { stream, text: () => text };
};

describe('platform-medic match at a terminal', () => {
  it('says what it waits for when it reads a terminal with no file (a newcomer saw it wait in silence), and not when input is piped', async () => {
    for (const tty of [true, false]) {
      const stdin = Object.assign(new PassThrough(), { isTTY: tty });
      const out = collect();
      const err = collect();
      const done = runMatchCommand([], { stdin, stdout: out.stream, stderr: err.stream });
      stdin.end('413 Request Entity Too Large from ingress-nginx while uploading a chart\n');
      expect(await done).toBe(0);
      expect(err.text().includes('paste the error, then Ctrl-D')).toBe(tty);
      expect(out.text()).toContain('upload-too-large');
    }
  });
});

describe('platform-medic values check at a terminal', () => {
  it('says what it waits for when it reads a terminal with no file, as match does, and not when input is piped', async () => {
    // Found by a newcomer's try: `platform-medic values check` sat at a blank line, looking hung.
    for (const tty of [true, false]) {
      const stdin = Object.assign(new PassThrough(), { isTTY: tty });
      const out = collect();
      const err = collect();
      const done = runValuesCommand(['check'], { stdin, stdout: out.stream, stderr: err.stream });
      stdin.end('installer:\n  modules: [cicd]\n');
      await done;
      expect(err.text().includes('platform-medic values check: paste the values file, --set flags or helm upgrade command, then Ctrl-D on a line of its own (or give a FILE)')).toBe(tty);
      expect(out.text()).not.toBe('');
    }
  });
});

describe('platform-medic values check on a file that is not the installer values', () => {
  it('says that nothing in it is a key the guide covers, rather than only a clean bill', async () => {
    // Found by a newcomer's try: a Deployment manifest given by mistake was answered "No problems found … it follows sections 2.2 and 2.3".
    const stdin = Object.assign(new PassThrough(), { isTTY: false });
    const out = collect();
    const done = runValuesCommand(['check'], { stdin, stdout: out.stream, stderr: collect().stream });
    stdin.end('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: payments\n');
    expect(await done).toBe(0);
    expect(out.text()).toContain("None of its keys is one that sections 2.2 and 2.3 cover (installer, components, minio, configs, secrets): is this the installer's values file?");
  });
});
