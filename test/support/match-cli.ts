import { PassThrough } from 'node:stream';
import { runMatchCommand } from '../../src/commands/match-cli.js';

/** `platform-medic match ARGS` with `input` piped to it (not a terminal): its exit code and what it printed. */
export async function matchCli(args: string[], input: string): Promise<{ code: number; out: string }> {
  const stdin = Object.assign(new PassThrough(), { isTTY: false });
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  const done = runMatchCommand(args, { stdin, stdout, stderr: new PassThrough() });
  stdin.end(input);
  return { code: await done, out };
}
