import { App, type AckFn, type AppOptions, type ReceiverEvent, type StringIndexed } from '@slack/bolt';

/** Answers a request that no listener acknowledged; `ack` is the request's own acknowledgement. */
export type Unacknowledged = (body: StringIndexed, ack: AckFn<unknown>) => Promise<void>;

/**
 * Bolt's App, which answers every request its listeners did not acknowledge once they are done. Bolt
 * itself leaves such a request (a kind the bot has no listener for, or a listener that failed before
 * its acknowledgement) unanswered: over HTTP until its 3-second timeout, then 404, so the person sees
 * Slack's own error; over Socket Mode for good, so Slack delivers the envelope again. Both receivers
 * hand every request to processEvent, so this one place covers both.
 */
export class AnsweringApp extends App {
  private readonly unacknowledged: Unacknowledged;

  constructor(options: AppOptions, unacknowledged: Unacknowledged) {
    super(options);
    this.unacknowledged = unacknowledged;
  }

  override async processEvent(event: ReceiverEvent): Promise<void> {
    let acknowledged = false;
    const ack: AckFn<unknown> = (response) => {
      acknowledged = true;
      return event.ack(response);
    };
    await super.processEvent({ ...event, ack });
    // Bolt resolves once every listener has returned: by now nothing else will acknowledge it.
    if (!acknowledged) await this.unacknowledged(event.body, ack);
  }
}
