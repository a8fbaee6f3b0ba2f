import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocksText, type StoredMessage } from '../fakes/slack-api.js';
import { eventCallbackBody, postSigned } from '../support/slack-requests.js';
import { channel, signingSecret, startStack, type Stack } from '../support/stack.js';

let seq = 0;
const nextTs = () => `${1_796_000_000 + ++seq}.000100`;

/**
 * Input as a newcomer and an attacker sent it, through Bolt's HTTP receiver with signed requests: files
 * that are not UTF-8, and control characters in a slash command. Bad input gets a clear answer, never
 * a silent drop, and what the bot repeats back never carries a raw control character.
 */
describe('input that is not plain UTF-8 text, in Slack', () => {
  let stack: Stack;
  let person = '';
  let people = 0;

  beforeAll(async () => {
    stack = await startStack('decoding');
  });
  afterAll(async () => {
    await stack?.stop();
  });
  // A person gets 5 paste answers a minute: each test shares as a person of its own.
  beforeEach(() => {
    person = `U0DECODER${++people}`;
  });

  /** Shares `content` as a text file in the channel and returns the bot's answer in its thread. */
  async function share(id: string, name: string, content: Buffer): Promise<StoredMessage> {
    const file = stack.fake.addFile({ id, name, mimetype: 'text/plain', filetype: 'text', content });
    const ts = nextTs();
    const event = { type: 'message', subtype: 'file_share', channel, channel_type: 'channel', user: person, text: '', files: [file], ts, event_ts: ts };
    const res = await postSigned(stack.eventsUrl, eventCallbackBody(event), { secret: signingSecret, contentType: 'application/json' });
    expect(res.status).toBe(200);
    return stack.fake.waitFor((f) => f.messages(channel).find((m) => m.thread_ts === ts), { what: `the answer to ${name}` });
  }

  it('reads a UTF-16LE file without a byte-order mark, and says under the answer that it did', async () => {
    const log = 'E0101 12:00:00 client intended to send too large body: 52428800 bytes\r\n413 Request Entity Too Large from ingress-nginx\r\n';
    const answer = await share('F0UTF16', 'upload.log', Buffer.from(log, 'utf16le'));
    const text = blocksText(answer.blocks);
    expect(text).toContain('`upload-too-large`');
    expect(text).toContain('📎 upload.log: read as UTF-16LE (it has no byte-order mark). To convert it: iconv -f UTF-16LE -t UTF-8');
  });

  it('reads a Latin-1 file as Windows-1252: its accented letters stay in the evidence, and the answer says how it was read', async () => {
    const log = "Fehler: Zugriff verweigert für Benutzer\ngit-sensor: fatal: could not read Username for 'https://git.müller.example': exit status 128\n";
    const answer = await share('F0LATIN1', 'git.log', Buffer.from(log, 'latin1'));
    const text = blocksText(answer.blocks);
    expect(text).toContain('`commits-exit-128`');
    expect(text).toContain('git.müller.example');
    expect(text).toContain('📎 git.log: read as Windows-1252 (Latin-1): the input is not UTF-8.');
  });

  it('counts the bytes of a UTF-8 file that could not be read, rather than dropping them in silence', async () => {
    const log = Buffer.concat([Buffer.from('Größe überschritten\n'), Buffer.from([0xff, 0xfe, 0xfd]), Buffer.from('\n413 Request Entity Too Large from ingress-nginx\n')]);
    const answer = await share('F0BROKEN', 'broken.log', log);
    expect(blocksText(answer.blocks)).toContain('📎 broken.log: 3 bytes of the input are not UTF-8 and could not be read; they were left out');
  });

  /** Control characters that must never reach an answer raw (tab and newline aside), and the marks that turn text around. */
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

  it.each([
    ['an unknown command', 'frob\u0000nicate\u001b[31m', 'Unknown command `frob\\x00nicate\\x1b[31m`'],
    ['an unknown entry to explain', 'explain build\u0000logs', 'build\\x00logs'],
    ['a cluster that is not configured', 'doctor prod\u0007\u202euction', 'prod\\x07\\u202euction'],
  ])('repeats back %s with its control characters escaped where they show, never raw', async (_what, text, shown) => {
    const res = await stack.slash(text, person);
    expect(res.status).toBe(200);
    const answer = res.json as { text?: string; blocks?: unknown };
    const words = `${answer.text ?? ''}\n${blocksText(answer.blocks)}`;
    expect(words).not.toMatch(raw);
    expect(words).toContain(shown);
  });
});
