/**
 * The pino root logger factory. One root logger is built at start-up and passed down; children carry
 * `{ component }` and per job `{ application, operationId }`. Secrets are redacted wherever they appear.
 */
import { type Logger as PinoLogger, pino } from 'pino';

export type Logger = PinoLogger;

/** Paths pino replaces with `[Redacted]`: tokens, signing secrets, auth headers, Secret data. */
export const REDACT_PATHS = [
  'token',
  '*.token',
  'botToken',
  '*.botToken',
  'appToken',
  '*.appToken',
  'signingSecret',
  '*.signingSecret',
  'password',
  '*.password',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'headers["x-slack-signature"]',
  'stringData',
  '*.stringData',
  'secret.data',
  '*.secret.data',
];

export interface LoggerOptions {
  level: string;
  /** Destination stream; default stdout. Tests pass a buffer. */
  destination?: NodeJS.WritableStream;
}

/** Create the root logger with secret redaction. */
export function createLogger(options: LoggerOptions): Logger {
  const opts = { level: options.level, redact: { paths: REDACT_PATHS, censor: '[Redacted]' } };
  return options.destination ? pino(opts, options.destination) : pino(opts);
}
