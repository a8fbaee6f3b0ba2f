/**
 * The one pretend workspace every Slack test talks about. The fake Web API answers `auth.test` with
 * these ids and the request builders put them in payloads, so the two always agree.
 */
export const FAKE_WORKSPACE = Object.freeze({
  teamId: 'T0MEDIC01',
  teamDomain: 'platform-medic-test',
  teamName: 'Platform Medic Test',
  appId: 'A0MEDIC01',
  botUserId: 'U0MEDICBOT',
  botId: 'B0MEDICBOT',
  botName: 'platform-medic',
  botToken: 'xoxb-0000-fake-platform-medic',
  /** App-level token (Socket Mode): only apps.connections.open accepts it. */
  appToken: 'xapp-1-A0MEDIC01-0000-fake-platform-medic',
  signingSecret: 'fake-signing-secret-0123456789abcdef',
  /** Slack still sends the deprecated verification token in payloads; nothing should rely on it. */
  verificationToken: 'fake-verification-token',
});

/**
 * The signing secret the bots of the test stacks (stack.ts) are configured with, hex as Slack's are;
 * FAKE_WORKSPACE.signingSecret is the one the fake's own tests of Bolt use.
 */
export const signingSecret = '8f742231b10e8888abcd99yyyzzz85a5'.replace(/[^0-9a-f]/g, 'a');
