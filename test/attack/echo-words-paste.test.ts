import { describe, expect, it } from 'vitest';
import { matchCli } from '../support/match-cli.js';

/**
 * Each `echo` word of a line made the redaction search the whole line for `--password-stdin` (and now for
 * `base64 -d`): a matched line of 1 MB of `echo -n` took 33 s to show, and a 10 MB paste, which `match` reads
 * (as a Slack paste is read), most of an hour, holding the bot's event loop all the while. No time is asserted
 * here: the test's own timeout (vitest.config.ts) is far above a linear read and far below the quadratic one.
 */
describe('a matched line of a quarter of a million echo words', () => {
  it('gets its answer, with the line it matched on', async () => {
    const { code, out } = await matchCli([], `error: serviceMonitorSelectorNilUsesHelmValues ${'echo -n '.repeat(250_000)}| docker login --password-stdin\n`);
    expect(code).toBe(0);
    expect(out).toMatch(/^match: app-metrics-absent .*\n {2}line 1: error: serviceMonitorSelectorNilUsesHelmValues echo -n echo -n/);
  });
});
