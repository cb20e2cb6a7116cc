/**
 * Errors of the queue layer and the transient-error convention shared with the engine.
 */

/** Thrown by `persist` when another worker took the job over (this worker's lock expired). */
export class LockLostError extends Error {
  constructor(jobId: string) {
    super(`job ${jobId} is now owned by another worker`);
    this.name = 'LockLostError';
  }
}

/** Thrown by `persist` (after saving) once this worker is shutting down; the job resumes elsewhere. */
export class WorkerShuttingDownError extends Error {
  constructor() {
    super('worker is shutting down; the operation continues on another worker');
    this.name = 'WorkerShuttingDownError';
  }
}

/** An infrastructure failure worth retrying with backoff (API server unreachable, Redis blip). */
export class TransientError extends Error {
  readonly transient = true;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransientError';
  }
}

const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'EHOSTUNREACH',
]);

/**
 * True for errors a retry can cure: anything with `transient: true` (TransientError, or an engine error
 * marked so), Node socket errors (ECONNREFUSED, ECONNRESET, ETIMEDOUT, EPIPE, EAI_AGAIN, EHOSTUNREACH),
 * and Redis connection loss, also when wrapped as `cause`.
 */
export function isTransientError(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { transient, code, message, cause } = e as {
      transient?: unknown;
      code?: unknown;
      message?: unknown;
      cause?: unknown;
    };
    if (transient === true) return true;
    if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
    if (typeof message === 'string' && /Connection is closed|Stream isn't writeable/.test(message))
      return true;
    e = cause;
  }
  return false;
}
