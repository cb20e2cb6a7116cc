/**
 * Bolt's Logger interface on top of the project's pino logger, so Bolt's own messages (signature failures,
 * unacknowledged requests) land in the same structured log with `component: 'bolt'`.
 */
import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../logger.js';

const PINO_LEVEL: Readonly<Record<LogLevel, string>> = {
  [LogLevel.DEBUG]: 'debug',
  [LogLevel.INFO]: 'info',
  [LogLevel.WARN]: 'warn',
  [LogLevel.ERROR]: 'error',
};

export function boltLoggerFrom(logger: Logger): BoltLogger {
  const child = logger.child({ component: 'bolt' });
  let level = LogLevel.INFO;
  const text = (msg: unknown[]) => msg.map((m) => (m instanceof Error ? m.message : String(m))).join(' ');
  return {
    debug: (...msg: unknown[]) => child.debug(text(msg)),
    info: (...msg: unknown[]) => child.info(text(msg)),
    warn: (...msg: unknown[]) => child.warn({ detail: text(msg) }, 'bolt warning'),
    error: (...msg: unknown[]) => child.error({ detail: text(msg) }, 'bolt error'),
    setLevel(l: LogLevel) {
      level = l;
      child.level = PINO_LEVEL[l];
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
