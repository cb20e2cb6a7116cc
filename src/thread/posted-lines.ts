/**
 * What a job's thread already holds: stable line key → id (ts) of the chat message that carries it. The thread
 * poster skips keys found here and records each key right after the chat answers, so a worker that resumes a job
 * (after a kill, a stall or a lock loss) does not post again the lines its engine re-announces
 * (./redis-posted-lines.ts keeps it in Redis). The first message recorded for a key stays: a later one is reported
 * back so its poster can delete it.
 */
export interface PostedLines {
  /** Keys already posted in this job's thread (key → message ts). Throws when the store is unreachable. */
  load(): Promise<Map<string, string>>;
  /**
   * Record `keys` as posted in the message `ts`, unless a key is recorded already with another message: resolves to
   * those keys → the message that holds them (another deliverer posted them first). Throws when the store is
   * unreachable.
   */
  record(keys: readonly string[], ts: string): Promise<Map<string, string>>;
}
