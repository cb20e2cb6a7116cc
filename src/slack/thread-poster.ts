/**
 * The two Slack calls a sync's thread needs — a reply in the thread (paced per channel) and an update of the
 * header — with the reporter's failure policy (slack-delivery) and every attempt counted in the call budget.
 *
 * Exactly once per line: every reply carries stable keys (SlackReporter's event keys). Keys already posted —
 * recorded in `PostedLines` (Redis, per job) right after Slack answers — are skipped, so a resumed worker does not
 * post again what its engine re-announces. Each post carries Slack message metadata
 * `{event_type: 'wavesync_thread_line', event_payload: {scope, keys}}` (keys space-separated); after a failed attempt whose request may
 * have reached Slack (timeout, connection reset, 5xx), the thread is read (conversations.replies with
 * include_all_metadata) and a message holding the keys counts as posted instead of posting again. A reporter that
 * starts on a job which already posted reads the thread once the same way (a post answered just before a kill).
 */
import { ErrorCode, type WebClient } from '@slack/web-api';
import type { ReportTarget } from '../reporting/sync-reporter.js';
import type { CallBudget } from './call-budget.js';
import type { ChannelPacer } from './channel-pacer.js';
import type { SlackMessage } from './messages/block.js';
import { coalesceKeyed, type KeyedMessage } from './messages/coalesce-messages.js';
import type { PostedLines } from './posted-lines.js';
import { type DeliveryLogger, deliver } from './slack-delivery.js';

/** Slack message metadata event_type of wavesync's thread lines. */
export const THREAD_LINE_EVENT = 'wavesync_thread_line';
/** Pages of 200 replies read when looking a key up in a thread (bounded: 4,000 replies). */
/** The store's mark that this job's thread poster has started (never a line's key: keys have no '!'). */
const OPENED = '!opened';
const MAX_LOOKUP_PAGES = 20;

export class ThreadPoster {
  private readonly client: WebClient;
  private readonly target: ReportTarget;
  private readonly pacer: ChannelPacer;
  private readonly budget: CallBudget;
  private readonly logger: DeliveryLogger | undefined;
  private readonly store: PostedLines | undefined;
  private readonly scope: string;
  private posted: Map<string, string> | undefined;
  private readonly onDropped: ((what: 'thread reply' | 'header update') => void) | undefined;

  constructor(o: {
    client: WebClient;
    target: ReportTarget;
    pacer: ChannelPacer;
    budget: CallBudget;
    logger?: DeliveryLogger;
    /** The job's record of posted keys; without it only this poster's own posts are remembered. */
    posted?: PostedLines;
    /** Distinguishes this job's lines from other jobs' in the same thread (the job id); default the thread. */
    scope?: string;
    /** Called for each message given up (outage past the retention, permanent error); e.g. a metrics counter. */
    onDropped?: (what: 'thread reply' | 'header update') => void;
  }) {
    this.client = o.client;
    this.target = o.target;
    this.pacer = o.pacer;
    this.budget = o.budget;
    this.logger = o.logger;
    this.store = o.posted;
    this.scope = o.scope ?? `${o.target.channel}/${o.target.threadTs}`;
    this.onDropped = o.onDropped;
  }

  /**
   * Post `messages` (coalesced, in order) as thread replies, waiting for the channel's slot before each; messages
   * whose keys are all posted already are skipped.
   */
  async reply(messages: readonly KeyedMessage[], hookOutcomes: number, broadcast: boolean): Promise<void> {
    const posted = await this.known();
    const fresh = messages.filter((m) => m.keys.length === 0 || m.keys.some((k) => !posted.has(k)));
    let outcomes = hookOutcomes;
    for (const { message, keys } of coalesceKeyed(fresh)) {
      await this.pacer.acquire(this.target.channel);
      const result = await this.postOnce(message, keys, broadcast);
      this.budget.spend(result.attempts, outcomes);
      outcomes = 0;
      if (result.ok && result.value) await this.remember(keys, result.value);
      else if (!result.ok) this.onDropped?.('thread reply');
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
    if (!result.ok) this.onDropped?.('header update');
  }

  /** One post; after a failed attempt the thread is searched for it before trying again. Resolves to its ts. */
  private postOnce(message: SlackMessage, keys: readonly string[], broadcast: boolean) {
    const { channel, threadTs } = this.target;
    // Set once an attempt failed without Slack's answer (timeout, reset, 5xx): the message may be stored.
    let uncertain = false;
    return deliver(async () => {
      if (uncertain && keys.length > 0) {
        const found = await this.lookup(keys[keys.length - 1]!);
        if (found) return found;
      }
      const answer = await this.client.chat
        .postMessage({
          channel,
          thread_ts: threadTs,
          text: message.text,
          blocks: message.blocks,
          reply_broadcast: broadcast,
          ...(keys.length > 0
            ? {
                metadata: {
                  event_type: THREAD_LINE_EVENT,
                  event_payload: { scope: this.scope, keys: keys.join(' ') },
                },
              }
            : {}),
        })
        .catch((err: { code?: string }) => {
          // A 429 or a platform error is Slack's answer that nothing was stored; anything else may hide a post.
          if (err.code !== ErrorCode.RateLimitedError && err.code !== ErrorCode.PlatformError)
            uncertain = true;
          throw err;
        });
      return answer.ts;
    }, this.context('thread reply'));
  }

  /** The posted keys: the store's, plus — when the job had posted before — the thread's own metadata. */
  private async known(): Promise<Map<string, string>> {
    if (this.posted) return this.posted;
    let posted = new Map<string, string>();
    try {
      posted = (await this.store?.load()) ?? posted;
    } catch (err) {
      this.logger?.warn({ err: (err as Error).message }, 'posted thread lines unreadable; lines may repeat');
    }
    if (posted.size > 0) {
      // A resumed job: a post Slack answered just before the previous worker died may be missing from the store —
      // also its very first post (which may hold several coalesced lines), hence the OPENED mark below.
      const result = await deliver(() => this.threadKeys(), this.context('thread read'));
      this.budget.spend(result.attempts);
      for (const [key, ts] of result.value ?? []) posted.set(key, ts);
    } else {
      // Recorded before this job's first post: a worker resuming it finds the store non-empty and reads the thread.
      await this.remember([OPENED], '-');
    }
    this.posted = posted;
    return posted;
  }

  private async remember(keys: readonly string[], ts: string): Promise<void> {
    for (const key of keys) this.posted?.set(key, ts);
    try {
      await this.store?.record(keys, ts);
    } catch (err) {
      this.logger?.warn({ err: (err as Error).message }, 'posted thread lines not recorded');
    }
  }

  /** ts of this scope's message holding `key` in the thread, if any. */
  private async lookup(key: string): Promise<string | undefined> {
    return (await this.threadKeys()).get(key);
  }

  /** Every key of this scope found in the thread's message metadata → ts. Throws like a Web API call. */
  private async threadKeys(): Promise<Map<string, string>> {
    const { channel, threadTs } = this.target;
    const keys = new Map<string, string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_LOOKUP_PAGES; page++) {
      const answer = await this.client.conversations.replies({
        channel,
        ts: threadTs,
        include_all_metadata: true,
        limit: 200,
        ...(cursor ? { cursor } : {}),
      });
      for (const m of answer.messages ?? []) {
        const meta = m.metadata as
          | { event_type?: string; event_payload?: Record<string, unknown> }
          | undefined;
        const payload = meta?.event_payload;
        if (meta?.event_type !== THREAD_LINE_EVENT || payload?.scope !== this.scope || !m.ts) continue;
        for (const k of String(payload.keys ?? '').split(' ')) if (k) keys.set(k, m.ts);
      }
      cursor = answer.response_metadata?.next_cursor;
      if (!answer.has_more || !cursor) break;
    }
    return keys;
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
