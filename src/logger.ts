/**
 * The pino root logger factory. One root logger is built at start-up and passed down; children carry
 * `{ component }` and per job `{ application, operationId }`. Secrets are redacted wherever they appear.
 */
import { type Logger as PinoLogger, pino } from 'pino';

export type Logger = PinoLogger;

/** Paths pino replaces with `[Redacted]`: tokens, signing secrets, auth headers, Secret data. */
const REDACT_PATHS = [
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
  /**
   * `json` (default): pino's JSON lines, for log collectors. `text`: one human-readable line per record
   * (textLine), for a person at a terminal; pino-pretty is not a dependency.
   */
  format?: 'json' | 'text';
}

/** Create the root logger with secret redaction (in both formats). */
export function createLogger(options: LoggerOptions): Logger {
  const opts = { level: options.level, redact: { paths: REDACT_PATHS, censor: '[Redacted]' } };
  const destination =
    options.format === 'text' ? textDestination(options.destination ?? process.stdout) : options.destination;
  return destination ? pino(opts, destination) : pino(opts);
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** pino's fields that textLine shows in its own way or not at all. */
const FRAMING_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg']);

/**
 * One pino JSON record as `HH:MM:SS.mmm LEVEL message key=value …` (UTC time; strings with spaces quoted,
 * objects as JSON; an `err` as its message). Not JSON (a partial write) → returned as it is.
 */
export function textLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = typeof record.time === 'number' ? new Date(record.time).toISOString().slice(11, 23) : '';
  const level = LEVEL_NAMES[record.level as number] ?? String(record.level);
  const fields = Object.entries(record)
    .filter(([key]) => !FRAMING_FIELDS.has(key))
    .map(([key, value]) => `${key}=${fieldText(value)}`);
  return `${[time, level.padEnd(5), String(record.msg ?? ''), ...fields].filter(Boolean).join(' ')}\n`;
}

function fieldText(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) ? JSON.stringify(value) : value;
  if (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { message?: unknown }).message === 'string'
  ) {
    return JSON.stringify((value as { message: string }).message);
  }
  return JSON.stringify(value);
}

/** A pino destination writing each record through textLine to `stream`. */
function textDestination(stream: NodeJS.WritableStream): { write(line: string): boolean } {
  return { write: (line) => stream.write(textLine(line)) };
}
