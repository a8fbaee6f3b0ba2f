import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText } from '../fakes/slack-api.js';
import { eventCallbackBody, postSigned } from '../support/slack-requests.js';
import { channel, signingSecret, startStack, type Stack } from '../support/stack.js';

/** The most bytes of shared files the bot reads, set low so that the test shares small files. */
const limit = 64 * 1024;

describe('one message sharing many text files, each under the size limit', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack('many-files', { env: { PLATFORM_MEDIC_MAX_FILE_BYTES: String(limit) } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('is read up to the limit altogether, not the limit once per file, and the files left unread are named', async () => {
    // Ten files of 60 KB each: under the limit one by one, ten times it together (with Slack's 10 MB, 100 MB held and matched at once).
    const line = 'I1121 10:00:00.000000 1 main.go:10] all good\n';
    const filler = line.repeat(Math.floor((60 * 1024) / line.length));
    const files = Array.from({ length: 10 }, (_, i) => stack.fake.addFile({ id: `F0PART${i}`, name: `part${i}.log`, mimetype: 'text/plain', filetype: 'text', content: filler }));
    const ts = '1795100000.000200';
    const event = { type: 'message', subtype: 'file_share', channel, channel_type: 'channel', user: 'U0MANYFILES', text: '', ts, event_ts: ts, files };
    const res = await postSigned(stack.eventsUrl, eventCallbackBody(event), { secret: signingSecret, contentType: 'application/json' });
    expect(res.status).toBe(200);

    const answer = await stack.fake.waitFor((f) => f.messages(channel).find((m) => m.thread_ts === ts), { what: 'the answer in the thread', timeoutMs: 20_000 });
    const downloaded = stack.fake.calls('file_download').map((c) => (c.args as { id: string }).id).filter((id) => id.startsWith('F0PART'));
    expect(downloaded).toEqual(['F0PART0']);
    const said = blocksText(answer.blocks);
    expect(said).toContain('part1.log was not read: I read the files of one message up to 64 KB together. Share it in a message of its own.');
    expect(said).not.toContain('part0.log was not read');
  });
});
