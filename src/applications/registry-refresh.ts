/**
 * Reading `applications:` again while wavesync runs, as Argo CD refreshes its Applications (every 180 s by default):
 * new Applications in git or in the cluster (an App of Apps parent's children) become known, removed ones go. A
 * failed read keeps the previous Applications and is logged; reads never overlap. `refreshIfStale` is for a name
 * someone just typed that is not known yet: one read, at most every `minIntervalMs`, waited for at most
 * `waitMs` (Slack wants its answer within 3 s).
 */
import type { Logger } from '../logger.js';
import type { ApplicationRegistry } from './application-registry.js';

export interface RegistryRefresher {
  /** Read now (joining a read in progress); resolves with the names added and removed. Never rejects. */
  refresh(): Promise<{ added: string[]; removed: string[] }>;
  /** Read unless a read started within `minIntervalMs`; resolves when done or after `waitMs`, whichever first. */
  refreshIfStale(): Promise<void>;
  /** Read every `intervalMs` until stop(); 0 does nothing. */
  start(intervalMs: number): void;
  /** Stop the timer and wait for a read in progress. */
  stop(): Promise<void>;
}

export interface RegistryRefresherOptions {
  logger?: Pick<Logger, 'info' | 'warn'>;
  /** Least ms between two reads triggered by unknown names; default 5000. */
  minIntervalMs?: number;
  /** Longest wait for such a read, in ms; default 1500. */
  waitMs?: number;
  now?: () => number;
}

export function createRegistryRefresher(
  registry: Pick<ApplicationRegistry, 'names' | 'reload'>,
  options: RegistryRefresherOptions = {},
): RegistryRefresher {
  const now = options.now ?? Date.now;
  const minIntervalMs = options.minIntervalMs ?? 5000;
  const waitMs = options.waitMs ?? 1500;
  let inFlight: Promise<{ added: string[]; removed: string[] }> | undefined;
  let lastStartedAt = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;

  const read = async () => {
    const before = new Set(registry.names());
    try {
      await registry.reload();
    } catch (error) {
      options.logger?.warn(
        { err: (error as Error).message },
        'Applications not re-read; keeping the previous ones',
      );
      return { added: [], removed: [] };
    }
    const after = new Set(registry.names());
    const added = [...after].filter((n) => !before.has(n));
    const removed = [...before].filter((n) => !after.has(n));
    if (added.length > 0 || removed.length > 0)
      options.logger?.info({ added, removed }, 'Applications changed');
    return { added, removed };
  };
  const refresh = () => {
    if (!inFlight) {
      lastStartedAt = now();
      inFlight = read().finally(() => {
        inFlight = undefined;
      });
    }
    return inFlight;
  };
  return {
    refresh,
    async refreshIfStale() {
      if (!inFlight && now() - lastStartedAt < minIntervalMs) return;
      let timeout: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timeout = setTimeout(resolve, waitMs);
      });
      await Promise.race([refresh().then(() => undefined), late]).finally(() => clearTimeout(timeout));
    },
    start(intervalMs) {
      if (intervalMs <= 0) return;
      timer = setInterval(() => void refresh(), intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await inFlight;
    },
  };
}
