import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { answerUnacknowledged, type UnansweredDeps } from '../../src/handlers/unanswered.js';

/** The acknowledgements and messages one unanswered request got. */
function recorder(failed: boolean) {
  const acks: unknown[] = [];
  const responses: { url: string; message: Record<string, unknown> }[] = [];
  const notices: string[] = [];
  const deps: UnansweredDeps = {
    logger: pino({ level: 'silent' }, new Writable({ write: (_c, _e, cb) => cb() })),
    failedOn: () => failed,
    respond: async (url, message) => void responses.push({ url, message }),
    notify: async (_triggerId, text) => void notices.push(text),
  };
  const ack = async (response?: unknown) => void acks.push(response);
  return { acks, responses, notices, deps, ack };
}

describe('a request whose listener failed before acknowledging it', () => {
  const failure = 'That did not work: the bot had a problem with this request. Nothing was done; try again.';

  it('tells the person it did not work, not that the command or button is unknown', async () => {
    const command = recorder(true);
    await answerUnacknowledged({ command: '/platform', text: 'status' }, command.ack, command.deps);
    expect(command.acks).toEqual([{ response_type: 'ephemeral', text: failure }]);

    const button = recorder(true);
    await answerUnacknowledged({ type: 'block_actions', actions: [{ action_id: 'remedy-approve' }], response_url: 'https://hooks.slack.com/actions/T0/1/x' }, button.ack, button.deps);
    expect(button.acks).toEqual([undefined]);
    expect(button.responses).toEqual([{ url: 'https://hooks.slack.com/actions/T0/1/x', message: { response_type: 'ephemeral', replace_original: false, text: failure } }]);
  });

  it('acknowledges even when telling the person fails, and does not throw', async () => {
    const r = recorder(false);
    r.deps.respond = () => Promise.reject(new Error('the response_url answered 404'));
    await expect(answerUnacknowledged({ type: 'message_action', callback_id: 'x', response_url: 'https://hooks.slack.com/actions/T0/1/y' }, r.ack, r.deps)).resolves.toBeUndefined();
    expect(r.acks).toEqual([undefined]);
  });
});
