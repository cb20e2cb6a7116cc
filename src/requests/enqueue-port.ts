import type { DurableWrites, EnqueueOptions, EnqueueResult, SyncRequest } from '../queue/index.js';

/** The producer (src/queue SyncQueueClient): the port every sync is queued through, here only. */
export interface EnqueuePort {
  /** @throws BotError('not_queued') when Redis cannot take the job. */
  enqueueSync(req: SyncRequest, options?: EnqueueOptions): Promise<EnqueueResult>;
  /** Its connection's writes on the Redis replicas (SyncQueue.durable), confirmed before a queued job is shown. */
  readonly durable?: DurableWrites;
}
