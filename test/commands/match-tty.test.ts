import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runMatchCommand } from '../../src/commands/match-cli.js';

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
