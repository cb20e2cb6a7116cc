/**
 * Close workers and queues on SIGTERM/SIGINT: stop taking jobs, let running operations persist and hand
 * their jobs back, close connections, then exit. A second signal exits at once.
 * Source: https://docs.bullmq.io/guide/workers/graceful-shutdown
 */
import { type QueueLogger, silentLogger } from './store/redis-connections.js';

export interface Closeable {
  close(): Promise<void>;
}

export interface ShutdownOptions {
  signals?: NodeJS.Signals[];
  logger?: QueueLogger;
  /** Called with the exit code once everything is closed; default `process.exit`. */
  exit?: (code: number) => void;
}

/**
 * Install the handlers; `targets` close in the given order (workers before queues). Returns a function that
 * removes the handlers again.
 */
export function closeOnSignals(targets: readonly Closeable[], options: ShutdownOptions = {}): () => void {
  const {
    signals = ['SIGTERM', 'SIGINT'],
    logger = silentLogger,
    exit = (code) => process.exit(code),
  } = options;
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      exit(1);
      return;
    }
    closing = true;
    logger.info({ signal }, 'shutting down: no new jobs; running operations hand over at their next step');
    closeAll(targets, logger).then(exit);
  };
  for (const s of signals) process.on(s, onSignal);
  return () => {
    for (const s of signals) process.off(s, onSignal);
  };
}

async function closeAll(targets: readonly Closeable[], logger: QueueLogger): Promise<number> {
  let code = 0;
  for (const target of targets) {
    try {
      await target.close();
    } catch (err) {
      logger.error({ err: String(err) }, 'error while shutting down');
      code = 1;
    }
  }
  return code;
}
