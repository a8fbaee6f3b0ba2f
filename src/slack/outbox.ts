import type { webApi } from '@slack/bolt';
import { WriteScheduler, type Lane, type WriteSchedulerOptions } from './write-scheduler.js';

export type { Lane } from './write-scheduler.js';

type Client = webApi.WebClient;

/** The writes a remedy (or an answer to a person's command) makes; none is ever dropped. */
export interface RemedyWrites {
  postMessage(args: webApi.ChatPostMessageArguments): Promise<webApi.ChatPostMessageResponse>;
  update(args: webApi.ChatUpdateArguments): Promise<webApi.ChatUpdateResponse>;
  postEphemeral(args: webApi.ChatPostEphemeralArguments): Promise<webApi.ChatPostEphemeralResponse>;
  openView(args: webApi.ViewsOpenArguments): Promise<webApi.ViewsOpenResponse>;
}

/** The writes a paste answer makes; each resolves undefined when it waited too long and was dropped. */
export interface PasteWrites {
  postMessage(args: webApi.ChatPostMessageArguments): Promise<webApi.ChatPostMessageResponse | undefined>;
  /** A paste answer replaced by the same answer with the cluster's evidence. */
  update(args: webApi.ChatUpdateArguments): Promise<webApi.ChatUpdateResponse | undefined>;
  postEphemeral(args: webApi.ChatPostEphemeralArguments): Promise<webApi.ChatPostEphemeralResponse | undefined>;
}

/** Options of the outbox: the scheduler's, without its clock and hooks defaults. */
export type OutboxOptions = Partial<WriteSchedulerOptions> & Pick<WriteSchedulerOptions, 'pasteMaxAgeMs'>;

/**
 * Every write the bot makes to Slack's Web API, through one WriteScheduler: `remedy` first, `paste`
 * when nothing of a remedy waits. The client must reject rate-limited calls (rejectRateLimitedCalls),
 * so that the scheduler, not the client, decides what waits out a Retry-After. Reads (auth.test,
 * usergroups.users.list) do not come through here.
 */
export class SlackOutbox {
  readonly remedy: RemedyWrites;
  readonly paste: PasteWrites;
  private readonly scheduler: WriteScheduler;

  constructor(client: Client, options: OutboxOptions) {
    this.scheduler = new WriteScheduler({ pasteIntervalMs: 1000, concurrency: 8, rateLimitRetries: 10, ...options });
    const s = this.scheduler;
    // Slack rate-limits chat.postMessage per channel, so that is the key; other methods by method alone
    // are tiered per workspace, but keying them by channel too keeps one channel's 429 local.
    const key = (method: string, channel?: string) => `${method} ${channel ?? ''}`;
    this.remedy = {
      postMessage: (args) => s.remedy(key('chat.postMessage', args.channel), () => client.chat.postMessage(args)),
      update: (args) => s.remedy(key('chat.update', args.channel), () => client.chat.update(args)),
      postEphemeral: (args) => s.remedy(key('chat.postEphemeral', args.channel), () => client.chat.postEphemeral(args)),
      openView: (args) => s.remedy(key('views.open'), () => client.views.open(args)),
    };
    this.paste = {
      postMessage: (args) => s.paste(key('chat.postMessage', args.channel), () => client.chat.postMessage(args)),
      update: (args) => s.paste(key('chat.update', args.channel), () => client.chat.update(args), true),
      postEphemeral: (args) => s.paste(key('chat.postEphemeral', args.channel), () => client.chat.postEphemeral(args)),
    };
  }

  /** Writes waiting, by lane. */
  waiting(): Record<Lane, number> {
    return this.scheduler.waiting();
  }

  /** Drops the paste answers still waiting; resolves once the remedy writes are sent. */
  close(): Promise<void> {
    return this.scheduler.close();
  }
}
