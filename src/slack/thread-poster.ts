/**
 * The two Slack calls a sync's thread needs — a reply in the thread (paced per channel) and an update of the
 * header — with the reporter's failure policy (slack-delivery) and every attempt counted in the call budget.
 */
import type { WebClient } from '@slack/web-api';
import type { ReportTarget } from '../reporting/sync-reporter.js';
import type { CallBudget } from './call-budget.js';
import type { ChannelPacer } from './channel-pacer.js';
import type { SlackMessage } from './messages/block.js';
import { type DeliveryLogger, deliver } from './slack-delivery.js';

export class ThreadPoster {
  private readonly client: WebClient;
  private readonly target: ReportTarget;
  private readonly pacer: ChannelPacer;
  private readonly budget: CallBudget;
  private readonly logger: DeliveryLogger | undefined;

  constructor(o: {
    client: WebClient;
    target: ReportTarget;
    pacer: ChannelPacer;
    budget: CallBudget;
    logger?: DeliveryLogger;
  }) {
    this.client = o.client;
    this.target = o.target;
    this.pacer = o.pacer;
    this.budget = o.budget;
    this.logger = o.logger;
  }

  /** Post `messages` as thread replies in order, waiting for the channel's slot before each. */
  async reply(messages: readonly SlackMessage[], hookOutcomes: number, broadcast: boolean): Promise<void> {
    let outcomes = hookOutcomes;
    for (const message of messages) {
      await this.pacer.acquire(this.target.channel);
      const { channel, threadTs } = this.target;
      const result = await deliver(
        () =>
          this.client.chat.postMessage({
            channel,
            thread_ts: threadTs,
            text: message.text,
            blocks: message.blocks,
            reply_broadcast: broadcast,
          }),
        this.context('thread reply'),
      );
      this.budget.spend(result.attempts, outcomes);
      outcomes = 0;
    }
  }

  /** Replace the header (the thread's root message). */
  async updateHeader(message: SlackMessage): Promise<void> {
    const { channel, threadTs } = this.target;
    const result = await deliver(
      () => this.client.chat.update({ channel, ts: threadTs, text: message.text, blocks: message.blocks }),
      this.context('header update'),
    );
    this.budget.spend(result.attempts);
  }

  private context(what: string) {
    return {
      channel: this.target.channel,
      pacer: this.pacer,
      what,
      ...(this.logger ? { logger: this.logger } : {}),
    };
  }
}
