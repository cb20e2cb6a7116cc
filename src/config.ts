/**
 * The process configuration, parsed from the environment with zod. This is the only module that reads
 * `process.env`; everything else receives a typed `Config`.
 * Throws BotError('invalid_config') naming the variable when a value is malformed.
 */
import { z } from 'zod';
import { BotError } from './domain/errors.js';

const EnvSchema = z.object({
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  SLACK_BOT_TOKEN: z.string().optional(),
  SLACK_SIGNING_SECRET: z.string().optional(),
  SLACK_APP_TOKEN: z.string().optional(),
  SLACK_API_URL: z.url().optional(),
  KUBECONFIG: z.string().optional(),
  WAVESYNC_CONFIG: z.string().optional(),
  WAVESYNC_QUEUE_PREFIX: z.string().min(1).default('bull'),
  WAVESYNC_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  WAVESYNC_WORKER_LOCK_MS: z.coerce.number().int().min(1000).default(30_000),
  WAVESYNC_ADMIN_USER: z.string().min(1).default('admin'),
  WAVESYNC_ADMIN_PASSWORD: z.string().min(1).optional(),
});

/** Typed configuration; field names follow the environment variables they come from. */
export interface Config {
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  redisUrl: string;
  /** HTTP port of the bot (Slack events, /healthz, /metrics). */
  port: number;
  slack: {
    botToken: string | undefined;
    signingSecret: string | undefined;
    /** App-level token; when set the bot uses Socket Mode instead of the HTTP receiver. */
    appToken: string | undefined;
    /** Web API base URL; default Slack's own. */
    apiUrl: string | undefined;
  };
  /** Path(s) of kubeconfig files, ':'-separated as kubectl reads them; undefined → client-node defaults. */
  kubeconfig: string | undefined;
  /** Path of wavesync.yaml (applications, environments, approvers, channels). */
  configFile: string | undefined;
  queue: {
    /** BullMQ key prefix; give each installation (or test run) sharing one Redis its own. */
    prefix: string;
  };
  worker: {
    /** Syncs of different applications one worker process runs at once. */
    concurrency: number;
    /** BullMQ job lock in ms: a killed worker's sync is resumed elsewhere after about this long. */
    lockDurationMs: number;
  };
  /** Bull Board at /admin/queues behind basic auth; undefined (the default) = disabled. */
  admin: { user: string; password: string } | undefined;
}

/**
 * Parse `env` (default: `process.env`) into a Config.
 * @throws BotError with code `invalid_config` naming every bad variable.
 */
/** An empty variable (`REDIS_URL=`) means "not set", as shells and compose files commonly write it. */
function withoutEmptyValues(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''),
  );
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(withoutEmptyValues(env));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new BotError('invalid_config', `invalid environment: ${problems}`);
  }
  const e = parsed.data;
  return {
    logLevel: e.LOG_LEVEL,
    redisUrl: e.REDIS_URL,
    port: e.PORT,
    slack: {
      botToken: e.SLACK_BOT_TOKEN,
      signingSecret: e.SLACK_SIGNING_SECRET,
      appToken: e.SLACK_APP_TOKEN,
      apiUrl: e.SLACK_API_URL,
    },
    kubeconfig: e.KUBECONFIG,
    configFile: e.WAVESYNC_CONFIG,
    queue: { prefix: e.WAVESYNC_QUEUE_PREFIX },
    worker: { concurrency: e.WAVESYNC_WORKER_CONCURRENCY, lockDurationMs: e.WAVESYNC_WORKER_LOCK_MS },
    admin:
      e.WAVESYNC_ADMIN_PASSWORD === undefined
        ? undefined
        : { user: e.WAVESYNC_ADMIN_USER, password: e.WAVESYNC_ADMIN_PASSWORD },
  };
}

/**
 * The settings a process role cannot start without, each named with what it is for — all of them at once, so
 * that one attempt tells the whole story: WAVESYNC_CONFIG for every role; SLACK_BOT_TOKEN and
 * SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN, Socket Mode) for `serve` and `bot`. Empty when nothing is missing.
 */
export function missingSettings(role: 'serve' | 'bot' | 'worker', config: Config): string[] {
  const missing: string[] = [];
  if (config.configFile === undefined) missing.push('WAVESYNC_CONFIG (path of wavesync.yaml)');
  if (role === 'worker') return missing;
  if (!config.slack.botToken) missing.push('SLACK_BOT_TOKEN (xoxb-… bot token)');
  if (!config.slack.appToken && !config.slack.signingSecret) {
    missing.push('SLACK_SIGNING_SECRET (or SLACK_APP_TOKEN for Socket Mode)');
  }
  return missing;
}

/**
 * A copy of the process environment, for child processes (git, helm, kustomize need PATH and HOME) and for
 * secrets that wavesync.yaml names by variable (`gitCredentials[].tokenEnv`).
 */
export function processEnvironment(): Record<string, string | undefined> {
  return { ...process.env };
}
