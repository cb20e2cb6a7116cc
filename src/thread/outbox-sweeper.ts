/**
 * The outbox sweeper: finishes the thread outboxes (./thread-outbox.ts) that no reporter will finish — a job that
 * ended while Slack was still down past the retention of its reporter's delivery, a job abandoned with lines
 * pending, a job whose worker died after it ended but before its lines were all posted (jobs end once their lines
 * are in the outbox) — and keeps their Redis memory bounded. When a worker starts and then every `intervalMs`
 * (default 10 s) each worker process looks at the outboxes untouched for `idleMs` (default: a deliverer's lease,
 * 30 s — the lease, not the idle time, is what keeps two deliverers apart); for each whose job has ended (finished, abandoned, or no longer
 * known) and whose lease is free, it delivers the pending lines in order (skipping keys the thread already holds),
 * says the lines given up ("N progress lines could not be delivered"), applies the latest header state if Slack
 * does not show it, and closes the outbox (keys deleted). Outboxes it cannot finish (Slack still down) stay for the
 * next round; every outbox key expires 7 days after its last write anyway.
 */
import { CallBudget } from './call-budget.js';
import type { ChannelPacer } from './channel-pacer.js';
import type { ChatTransport } from './chat.js';
import type { DeliveryLogger } from './delivery.js';
import type { PostedLines } from './posted-lines.js';
import { broadcastRuns, DEFAULT_LEASE_MS, type ThreadOutboxes } from './thread-outbox.js';
import { ThreadPoster } from './thread-poster.js';

export interface OutboxSweeperOptions {
  /** Every job's outbox (redisThreadOutboxes). */
  outboxes: ThreadOutboxes;
  /** Job `jobId`'s record of posted lines (redisPostedLines). */
  postedLines(jobId: string): PostedLines;
  /** The thread's chat (without client-level retries; see ThreadPoster). */
  chat: ChatTransport;
  pacer: ChannelPacer;
  /** Whether job `jobId` has ended (completed, failed, cancelled, or unknown): its reporter delivers no more. */
  jobEnded(jobId: string): Promise<boolean>;
  /** Outboxes written less than this ago are left to their reporter (ms); default DEFAULT_LEASE_MS (30 000). */
  idleMs?: number;
  /** Outboxes looked at per round; default 50. */
  batch?: number;
  /** Retry of one message through a Slack outage (ms); default delivery's 10 min. */
  retentionMs?: number;
  logger?: DeliveryLogger & { info?(obj: object, msg: string): void };
  onDropped?: (what: 'thread reply' | 'header update', lines: number) => void;
}

/** One round: resolves with the job ids whose outbox was delivered and closed. Throws when the store is unreachable. */
export async function sweepOutboxes(o: OutboxSweeperOptions): Promise<string[]> {
  const idle = Date.now() - (o.idleMs ?? DEFAULT_LEASE_MS);
  const jobIds = await o.outboxes.idle(idle, o.batch ?? 50);
  const closed: string[] = [];
  for (const jobId of jobIds) {
    if (!(await o.jobEnded(jobId))) continue;
    if (await sweepOne(o, jobId)) closed.push(jobId);
  }
  return closed;
}

async function sweepOne(o: OutboxSweeperOptions, jobId: string): Promise<boolean> {
  const outbox = o.outboxes.of(jobId);
  const snapshot = await outbox.open({ takeover: false });
  if (!snapshot) return false; // another deliverer holds it
  if (snapshot.target) {
    const poster = new ThreadPoster({
      chat: o.chat,
      target: snapshot.target,
      pacer: o.pacer,
      budget: new CallBudget(),
      posted: o.postedLines(jobId),
      scope: jobId,
      outbox,
      ...(o.logger ? { logger: o.logger } : {}),
      ...(o.onDropped ? { onDropped: o.onDropped } : {}),
      ...(o.retentionMs === undefined ? {} : { retentionMs: o.retentionMs }),
    });
    for (const run of broadcastRuns(snapshot.pending)) {
      await poster.reply(
        run.map((e) => ({ message: e.message, keys: [e.key] })),
        run.filter((e) => e.hookOutcome).length,
        run[0]!.broadcast,
        new Map(run.map((e) => [e.key, e.id])),
      );
    }
    await poster.announceDrops();
    if (snapshot.header) await poster.applyStoredHeader(snapshot.header);
  } else {
    // Entries without a thread: appended by a stale run after its outbox was closed (their keys are posted), or
    // outliving their thread's record. Nothing can deliver them.
    await outbox.delivered(snapshot.pending.map((e) => e.id));
  }
  const closed = await outbox.finish();
  if (closed) o.logger?.info?.({ jobId, lines: snapshot.pending.length }, 'thread outbox swept');
  return closed;
}

/**
 * Sweep at once (what a dead worker left), then every `intervalMs` (default 10 s) until stopped; errors are logged
 * and the next round tries again.
 */
export function startOutboxSweeper(o: OutboxSweeperOptions & { intervalMs?: number }): { stop(): void } {
  let running = false;
  const round = () => {
    if (running) return; // a round still delivering (Slack slow): skip this tick
    running = true;
    void sweepOutboxes(o)
      .catch((err: Error) => o.logger?.warn({ err: err.message }, 'thread outbox sweep failed'))
      .finally(() => {
        running = false;
      });
  };
  const timer = setInterval(round, o.intervalMs ?? 10_000);
  timer.unref();
  round();
  // A round cut short by the process ending leaves the outbox as it was: the next sweeper finishes it.
  return { stop: () => clearInterval(timer) };
}
