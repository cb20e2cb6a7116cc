/**
 * The two chat calls a sync's thread needs — a reply in the thread (paced per channel) and an update of the
 * header — with the thread's failure policy (./delivery.ts) and every attempt counted in the call budget.
 *
 * Exactly once per line: every reply carries stable keys (the sync thread reporter's event keys). Keys already posted —
 * recorded in `PostedLines` (Redis, per job) right after the chat answers — are skipped, so a resumed worker does
 * not post again what its engine re-announces. Each post carries a label (Slack's message metadata)
 * `{kind: 'wavesync_thread_line', fields: {scope, keys}}` (keys space-separated); after a failed attempt whose
 * request may have reached the chat (timeout, connection reset, 5xx), the thread's labels are read and a message
 * holding the keys counts as posted instead of posting again. A reporter that
 * starts on a job which already posted reads the thread once the same way (a post answered just before a kill).
 *
 * With the job's ThreadOutbox: the poster is the thread's single deliverer only while it holds the outbox's lease
 * (checked before every call; a poster that lost it — a worker paused past its lock whose job another worker took —
 * stops as `stale` and leaves its lines to the holder); posted or skipped entries are removed from the outbox,
 * given-up ones counted there; header states are stored with a sequence number before they are sent, a state older
 * than a final one is refused, and after each chat.update the stored latest state is re-applied if a newer one
 * arrived meanwhile (the last state wins). Lines given up are said in the thread once Slack answers again
 * ("N progress lines could not be delivered").
 * The posted-lines record keeps the first message of each key: a poster whose post repeats lines another deliverer
 * posted first (it was paused between its lease check and its call) deletes its copy (chat.delete).
 */
import type { ReportTarget } from '../queue/index.js';
import type { CallBudget } from './call-budget.js';
import type { ChannelPacer } from './channel-pacer.js';
import { type ChatMessage, type ChatTransport, type KeyedMessage, notStored } from './chat.js';
import { type DeliveryLogger, deliver } from './delivery.js';
import type { PostedLines } from './posted-lines.js';
import type { StoredHeader, ThreadOutbox } from './thread-outbox.js';

/** The label kind (Slack's metadata event_type) of wavesync's thread lines. */
const THREAD_LINE_EVENT = 'wavesync_thread_line';
/** Pages of 200 replies read when looking a key up in a thread (bounded: 4,000 replies). */
/** The store's mark that this job's thread poster has started (never a line's key: keys have no '!'). */
const OPENED = '!opened';
const MAX_LOOKUP_PAGES = 20;
/** Re-applications of a newer stored header after our own chat.update (bounded). */
const MAX_HEADER_REPAIRS = 3;

/** Thrown inside a delivery when the outbox's lease is another deliverer's: nothing is sent. */
class StaleDelivererError extends Error {
  constructor() {
    super('thread delivery taken over by another deliverer');
  }
}

export class ThreadPoster {
  private readonly chat: ChatTransport;
  private readonly target: ReportTarget;
  private readonly pacer: ChannelPacer;
  private readonly budget: CallBudget;
  private readonly logger: DeliveryLogger | undefined;
  private readonly store: PostedLines | undefined;
  private readonly scope: string;
  private posted: Map<string, string> | undefined;
  private readonly onDropped: ((what: 'thread reply' | 'header update', lines: number) => void) | undefined;
  private readonly outbox: ThreadOutbox | undefined;
  private readonly retentionMs: number | undefined;
  /** Lines given up / said in the thread, when there is no outbox to count them. */
  private drops = 0;
  private announcedDrops = 0;
  /** Set once another deliverer holds the outbox's lease: this poster sends nothing more. */
  stale = false;

  constructor(o: {
    chat: ChatTransport;
    target: ReportTarget;
    pacer: ChannelPacer;
    budget: CallBudget;
    logger?: DeliveryLogger;
    /** The job's record of posted keys; without it only this poster's own posts are remembered. */
    posted?: PostedLines;
    /** Distinguishes this job's lines from other jobs' in the same thread (the job id); default the thread. */
    scope?: string;
    /**
     * Called for each message given up (outage past the retention, permanent error) with the thread lines it held
     * (0 for a header update); e.g. the metrics counters.
     */
    onDropped?: (what: 'thread reply' | 'header update', lines: number) => void;
    /** The job's durable outbox (lease, entry removal, drop count, header seq); without it all is in memory. */
    outbox?: ThreadOutbox;
    /** How long one message is retried through a Slack outage (ms); default delivery's 10 min. */
    retentionMs?: number;
  }) {
    this.chat = o.chat;
    this.target = o.target;
    this.pacer = o.pacer;
    this.budget = o.budget;
    this.logger = o.logger;
    this.store = o.posted;
    this.scope = o.scope ?? `${o.target.channel}/${o.target.threadTs}`;
    this.onDropped = o.onDropped;
    this.outbox = o.outbox;
    this.retentionMs = o.retentionMs;
  }

  /**
   * Post `messages` (coalesced, in order) as thread replies, waiting for the channel's slot before each; messages
   * whose keys are all posted already are skipped. `ids` maps a line key to its outbox entry (removed once posted,
   * skipped or given up).
   */
  async reply(
    messages: readonly KeyedMessage[],
    hookOutcomes: number,
    broadcast: boolean,
    ids: ReadonlyMap<string, string> = new Map(),
  ): Promise<void> {
    // Not the deliverer any more (or never): no call at all, not even the thread read of known().
    if (!(await this.holding())) return;
    const posted = await this.known();
    const isPosted = (m: KeyedMessage) => m.keys.length > 0 && m.keys.every((k) => posted.has(k));
    await this.settle(
      'delivered',
      messages.filter(isPosted).flatMap((m) => m.keys),
      ids,
    );
    let outcomes = hookOutcomes;
    for (const { message, keys } of this.chat.pack(messages.filter((m) => !isPosted(m)))) {
      if (!(await this.holding())) return;
      await this.pacer.acquire(this.target.channel);
      const result = await this.postOnce(message, keys, broadcast);
      this.budget.spend(result.attempts, outcomes);
      outcomes = 0;
      if (this.stale) return;
      if (result.ok && result.value) {
        await this.remember(keys, result.value);
        await this.settle('delivered', keys, ids);
        await this.announceDrops();
      } else if (!result.ok) {
        this.onDropped?.('thread reply', Math.max(1, keys.length));
        this.drops += Math.max(1, keys.length);
        await this.settle('dropped', keys, ids);
      }
    }
  }

  /**
   * Replace the header (the thread's root message) with `message`; `final` marks the operation's last state (no
   * older state may follow it).
   */
  async updateHeader(message: ChatMessage, final = false): Promise<void> {
    if (this.stale) return;
    let seq: number | undefined;
    if (this.outbox) {
      try {
        seq = await this.outbox.storeHeader(message, final);
        if (seq === undefined) {
          await this.holding(); // refused: another deliverer's thread now (stale), or older than the final state
          return;
        }
      } catch (err) {
        this.logger?.warn({ err: (err as Error).message }, 'header state not stored');
      }
    }
    const ok = await this.sendHeader(message, true);
    if (!ok || seq === undefined) return;
    await this.repairHeader(seq);
  }

  /** Apply a stored header state that Slack may not show yet (the sweeper, for a job that ended). */
  async applyStoredHeader(stored: StoredHeader): Promise<void> {
    if (stored.applied || this.stale) return;
    if (await this.sendHeader(stored.message, true)) await this.repairHeader(stored.seq);
  }

  /** Post "N progress lines could not be delivered" once for lines given up so far (Slack answers again). */
  async announceDrops(): Promise<void> {
    let total = this.drops;
    let pending = this.drops - this.announcedDrops;
    if (this.outbox) {
      try {
        ({ total, pending } = await this.outbox.unannounced());
      } catch {
        return;
      }
    }
    if (pending <= 0 || !(await this.holding())) return;
    const key = `dropped:${total}`;
    if ((await this.known()).has(key)) return;
    const lines = pending === 1 ? '1 progress line' : `${pending} progress lines`;
    const notice = this.chat.note(
      `⚠️ ${lines} could not be delivered (Slack was unavailable); the job's events have the full story.`,
    );
    await this.pacer.acquire(this.target.channel);
    const result = await this.postOnce(notice, [key], false);
    this.budget.spend(result.attempts);
    if (!result.ok || !result.value) return;
    await this.remember([key], result.value);
    this.announcedDrops = this.drops;
    await this.outbox?.announced(total).catch(() => undefined);
  }

  /** chat.update of the header; `checkLease`: only while this poster holds the outbox's lease. */
  private async sendHeader(message: ChatMessage, checkLease: boolean): Promise<boolean> {
    const { channel, threadTs } = this.target;
    const result = await deliver(async () => {
      if (checkLease && !(await this.holding())) throw new StaleDelivererError();
      return this.chat.update(channel, threadTs, message);
    }, this.context('header update'));
    this.budget.spend(result.attempts);
    if (!result.ok && !this.stale) this.onDropped?.('header update', 0);
    return result.ok;
  }

  /**
   * After our chat.update of state `seq`: if a newer state was stored meanwhile (our call may have landed after its
   * update, e.g. a worker paused between its lease check and its call), apply the newest again; then mark it applied.
   */
  private async repairHeader(seq: number): Promise<void> {
    if (!this.outbox) return;
    let applied = seq;
    try {
      for (let i = 0; i < MAX_HEADER_REPAIRS; i++) {
        const stored = await this.outbox.header();
        if (!stored || stored.seq <= applied) break;
        if (!(await this.sendHeader(stored.message, false))) return;
        applied = stored.seq;
      }
      await this.outbox.headerApplied(applied);
    } catch (err) {
      this.logger?.warn({ err: (err as Error).message }, 'header state not recorded');
    }
  }

  /** Whether this poster may still deliver (holds the outbox's lease); sets `stale` when not. */
  private async holding(): Promise<boolean> {
    if (this.stale) return false;
    if (!this.outbox) return true;
    try {
      if (await this.outbox.holds()) return true;
    } catch {
      return true; // Redis unreachable: keep delivering (the posted-lines lookup still guards repeats)
    }
    this.stale = true;
    this.logger?.warn({ channel: this.target.channel, scope: this.scope }, 'thread taken over; stopping');
    return false;
  }

  /** Remove the outbox entries of `keys` (delivered or skipped), or remove and count them (dropped). */
  private async settle(
    how: 'delivered' | 'dropped',
    keys: readonly string[],
    ids: ReadonlyMap<string, string>,
  ): Promise<void> {
    if (!this.outbox) return;
    const entries = keys.flatMap((k) => {
      const id = ids.get(k);
      return id ? [id] : [];
    });
    if (how === 'dropped' && entries.length === 0) return;
    try {
      await this.outbox[how](entries);
    } catch (err) {
      this.logger?.warn({ err: (err as Error).message }, 'thread outbox not updated');
    }
  }

  /** One post; after a failed attempt the thread is searched for it before trying again. Resolves to its ts. */
  private postOnce(message: ChatMessage, keys: readonly string[], broadcast: boolean) {
    const { channel, threadTs } = this.target;
    // Set once an attempt failed without the chat's answer (timeout, reset, 5xx): the message may be stored.
    let uncertain = false;
    return deliver(async () => {
      if (!(await this.holding())) throw new StaleDelivererError();
      if (uncertain && keys.length > 0) {
        const found = await this.lookup(keys[keys.length - 1]!);
        if (found) return found;
      }
      const label = { kind: THREAD_LINE_EVENT, fields: { scope: this.scope, keys: keys.join(' ') } };
      return this.chat
        .post(channel, message, { threadTs, broadcast, ...(keys.length > 0 ? { label } : {}) })
        .catch((err: unknown) => {
          // Rate limited or refused is the chat's answer that nothing was stored; anything else may hide a post.
          if (!notStored(err)) uncertain = true;
          throw err;
        });
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
      const result = await deliver(async () => {
        if (!(await this.holding())) throw new StaleDelivererError();
        return this.threadKeys();
      }, this.context('thread read'));
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
    let earlier: Map<string, string>;
    try {
      earlier = (await this.store?.record(keys, ts)) ?? new Map();
    } catch (err) {
      this.logger?.warn({ err: (err as Error).message }, 'posted thread lines not recorded');
      return;
    }
    if (earlier.size === 0 || !keys.every((k) => earlier.has(k))) return;
    // Another deliverer posted every line of this message first: this poster was paused between its lease check and
    // its post (SIGSTOP, a long GC) while the thread was taken over. The thread keeps the first copy.
    for (const [key, first] of earlier) this.posted?.set(key, first);
    const { channel } = this.target;
    const result = await deliver(() => this.chat.remove(channel, ts), this.context('repeat removal'));
    this.budget.spend(result.attempts);
    this.logger?.warn(
      { channel, ts, keys, removed: result.ok },
      'thread line posted twice; the repeat is removed',
    );
  }

  /** ts of this scope's message holding `key` in the thread, if any. */
  private async lookup(key: string): Promise<string | undefined> {
    return (await this.threadKeys()).get(key);
  }

  /** Every key of this scope found in the thread's labels → ts. Throws like a chat call. */
  private async threadKeys(): Promise<Map<string, string>> {
    const { channel, threadTs } = this.target;
    const keys = new Map<string, string>();
    let next: string | undefined;
    for (let page = 0; page < MAX_LOOKUP_PAGES; page++) {
      const answer = await this.chat.replies(channel, threadTs, next);
      for (const { ts, label } of answer.messages) {
        if (label?.kind !== THREAD_LINE_EVENT || label.fields.scope !== this.scope) continue;
        for (const k of (label.fields.keys ?? '').split(' ')) if (k) keys.set(k, ts);
      }
      next = answer.next;
      if (!next) break;
    }
    return keys;
  }

  private context(what: string) {
    return {
      channel: this.target.channel,
      pacer: this.pacer,
      what,
      ...(this.retentionMs === undefined ? {} : { retentionMs: this.retentionMs }),
      ...(this.logger ? { logger: this.logger } : {}),
    };
  }
}
