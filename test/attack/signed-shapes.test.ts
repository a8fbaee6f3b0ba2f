import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText } from '../fakes/slack-api.js';
import { eventCallbackBody, postSigned, slashCommandBody } from '../support/slack-requests.js';
import { approver, channel, requester, signingSecret, startStack, type Stack } from '../support/stack.js';

const form = (payload: unknown) => new URLSearchParams({ payload: JSON.stringify(payload) }).toString();

/**
 * Signed bodies Bolt fails on before any listener runs: a modal's submission or closing without its view (Bolt
 * reads `view.app_installed_team_id` to authorize it), an event whose first authorization is null (Bolt reads its
 * `team_id`), and a slash command whose person or channel was sent twice (a list, which listeners read as an id).
 * Bolt answered the first two with a 500 after logging "An unhandled error occurred", and left them
 * unacknowledged for 3 s; the request gate answers the other signed shapes Bolt fails on with 400 at once.
 */
describe('signed bodies whose view, authorizations or ids are not what Slack sends', () => {
  let stack: Stack;
  const logLines: string[] = [];
  beforeAll(async () => {
    stack = await startStack('signed-shapes', { botLog: new Writable({ write: (chunk: Buffer | string, _e, cb) => (logLines.push(...chunk.toString().split('\n').filter(Boolean)), cb()) }) });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('are answered with 400 at once, the reason in the log, and the bot keeps serving', async () => {
    const user = { id: requester, team_id: 'T0MEDIC01' };
    const event = JSON.parse(eventCallbackBody({ type: 'message', channel, user: requester, text: 'git-sensor: fatal: could not read Username: exit status 128', ts: '1795100000.000900' })) as Record<string, unknown>;
    const slash = new URLSearchParams(slashCommandBody({ text: 'fix git-sensor-stuck', user_id: requester, channel_id: channel, response_url: stack.fake.responseUrl('twice', { channel, user: requester }) }));
    slash.append('user_id', approver);
    const bodies = [
      { body: form({ type: 'view_submission', user, team: { id: 'T0MEDIC01' } }), contentType: 'application/x-www-form-urlencoded', reason: 'a signed body of view_submission without its view' },
      { body: form({ type: 'view_submission', user, team: { id: 'T0MEDIC01' }, view: null }), contentType: 'application/x-www-form-urlencoded', reason: 'a signed body of view_submission without its view' },
      { body: form({ type: 'view_closed', user, team: { id: 'T0MEDIC01' } }), contentType: 'application/x-www-form-urlencoded', reason: 'a signed body of view_closed without its view' },
      { body: JSON.stringify({ ...event, authorizations: [null] }), contentType: 'application/json', reason: 'a signed body of an event callback whose first authorization is null' },
      { body: slash.toString(), contentType: 'application/x-www-form-urlencoded', reason: 'a signed body of a slash command whose user_id is an array' },
    ];
    for (const { body, contentType } of bodies) {
      const res = await postSigned(stack.eventsUrl, body, { secret: signingSecret, contentType });
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
    }
    const reasons = logLines.filter((l) => l.includes('request refused')).map((l) => (JSON.parse(l) as { reason: string }).reason);
    for (const { reason } of bodies) expect(reasons).toContain(reason);
    expect(logLines.filter((l) => /unhandled error|not acknowledged/.test(l))).toEqual([]);
    // Nothing of the command sent with two people ran: no announcement was posted.
    expect(stack.fake.messages(channel)).toEqual([]);
    const help = await stack.slash('help');
    expect(blocksText((help.json as { blocks: unknown }).blocks)).toContain('/platform fix <id> [cluster]');
  }, 60_000);
});
