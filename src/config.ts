/**
 * The process configuration, parsed from the environment with zod. This is the only module that reads
 * `process.env`; everything else receives a typed `Config`.
 * Throws BotError('invalid_config') naming the variable when a value is malformed.
 */
import { z } from 'zod';
import { BotError } from './domain/index.js';
import { clusterSafePrefix, type RedisConnectionOptions, type RedisNode } from './queue/index.js';

const EnvSchema = z.object({
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  REDIS_URL: z.url().default('redis://127.0.0.1:6379'),
  REDIS_SENTINELS: z.string().optional(),
  REDIS_SENTINEL_MASTER: z.string().min(1).optional(),
  REDIS_SENTINEL_PASSWORD: z.string().optional(),
  REDIS_PASSWORD: z.string().optional(),
  REDIS_CLUSTER_NODES: z.string().optional(),
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
  WAVESYNC_SYNC_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
  WAVESYNC_SYNC_BACKOFF_MS: z.coerce.number().int().min(100).default(2000),
  WAVESYNC_ADMIN_USER: z.string().min(1).default('admin'),
  WAVESYNC_ADMIN_PASSWORD: z.string().min(1).optional(),
});

/** Typed configuration; field names follow the environment variables they come from. */
export interface Config {
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  /**
   * Where Redis is, for every connection (queue, worker, approvals, drift state, scripts): REDIS_URL (one
   * server), REDIS_SENTINELS + REDIS_SENTINEL_MASTER (Sentinel) or REDIS_CLUSTER_NODES (Cluster), with
   * REDIS_PASSWORD / REDIS_SENTINEL_PASSWORD. docs/deploy.md "Redis topologies".
   */
  redis: RedisConnectionOptions;
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
    /**
     * BullMQ key prefix; give each installation (or test run) sharing one Redis its own. On Cluster it carries a
     * `{hash tag}` (added when WAVESYNC_QUEUE_PREFIX has none) so every script's keys share one slot.
     */
    prefix: string;
    /**
     * Runs of one sync after a transient infrastructure error (the Kubernetes API unreachable, Redis lost), the
     * first included; set on the job by whoever enqueues it (bot, worker for App of Apps children). Default 5.
     */
    attempts: number;
    /** BullMQ's exponential backoff between those runs, in ms: backoffMs · 2^(n−1) before run n+1. Default 2000. */
    backoffMs: number;
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
  if (!parsed.success) throw invalidEnvironment(parsed.error.issues, env);
  const e = parsed.data;
  const redis = redisOf(e);
  return {
    logLevel: e.LOG_LEVEL,
    redis,
    port: e.PORT,
    slack: {
      botToken: e.SLACK_BOT_TOKEN,
      signingSecret: e.SLACK_SIGNING_SECRET,
      appToken: e.SLACK_APP_TOKEN,
      apiUrl: e.SLACK_API_URL,
    },
    kubeconfig: e.KUBECONFIG,
    configFile: e.WAVESYNC_CONFIG,
    queue: {
      prefix: clusterSafePrefix(e.WAVESYNC_QUEUE_PREFIX, redis),
      attempts: e.WAVESYNC_SYNC_ATTEMPTS,
      backoffMs: e.WAVESYNC_SYNC_BACKOFF_MS,
    },
    worker: { concurrency: e.WAVESYNC_WORKER_CONCURRENCY, lockDurationMs: e.WAVESYNC_WORKER_LOCK_MS },
    admin:
      e.WAVESYNC_ADMIN_PASSWORD === undefined
        ? undefined
        : { user: e.WAVESYNC_ADMIN_USER, password: e.WAVESYNC_ADMIN_PASSWORD },
  };
}

type Env = z.infer<typeof EnvSchema>;

/** What each checked variable takes, for the fix of `invalid X`; others fall back to zod's words. */
const EXPECTED: Partial<Record<keyof Env, string>> = {
  LOG_LEVEL: 'one of fatal, error, warn, info, debug, trace, silent, or unset it for the default info',
  REDIS_URL: 'a URL, like redis://127.0.0.1:6379 (the default when unset)',
  SLACK_API_URL: "a URL, like https://slack.com/api/ (Slack's own when unset)",
  PORT: 'a port number from 0 to 65535, or unset it for the default 3000',
  WAVESYNC_WORKER_CONCURRENCY: 'a whole number from 1 to 64, or unset it for the default 4',
  WAVESYNC_WORKER_LOCK_MS: 'a whole number of milliseconds, at least 1000, or unset it for the default 30000',
};

/**
 * `invalid PORT (environment: PORT="abc"): set PORT to a port number from 0 to 65535, …` — every bad variable,
 * its value and what it takes, in the one error format.
 */
function invalidEnvironment(issues: z.core.$ZodIssue[], env: Record<string, string | undefined>): BotError {
  const names = [...new Set(issues.map((i) => String(i.path[0])))];
  const values = names.map((name) => `${name}=${JSON.stringify(env[name] ?? '')}`);
  const fixes = names.map((name) => {
    const expected = EXPECTED[name as keyof Env] ?? issues.find((i) => i.path[0] === name)?.message;
    return `set ${name} to ${expected}`;
  });
  return new BotError('invalid_config', `invalid ${names.join(', ')} (environment: ${values.join(', ')})`, {
    fix: fixes.join('; '),
  });
}

/** REDIS_* → connection options. @throws BotError('invalid_config') on a bad node list or a mixed topology. */
function redisOf(e: Env): RedisConnectionOptions {
  const password = e.REDIS_PASSWORD === undefined ? {} : { password: e.REDIS_PASSWORD };
  if (e.REDIS_SENTINELS !== undefined && e.REDIS_CLUSTER_NODES !== undefined)
    throw new BotError('invalid_config', 'set REDIS_SENTINELS or REDIS_CLUSTER_NODES, not both');
  if (e.REDIS_CLUSTER_NODES !== undefined)
    return { cluster: { nodes: nodeList('REDIS_CLUSTER_NODES', e.REDIS_CLUSTER_NODES) }, ...password };
  if (e.REDIS_SENTINELS !== undefined) {
    if (e.REDIS_SENTINEL_MASTER === undefined)
      throw new BotError(
        'invalid_config',
        'REDIS_SENTINELS is set but REDIS_SENTINEL_MASTER (the master group name, e.g. mymaster) is not',
      );
    return {
      sentinels: nodeList('REDIS_SENTINELS', e.REDIS_SENTINELS),
      name: e.REDIS_SENTINEL_MASTER,
      ...password,
      ...(e.REDIS_SENTINEL_PASSWORD === undefined ? {} : { sentinelPassword: e.REDIS_SENTINEL_PASSWORD }),
    };
  }
  return { url: e.REDIS_URL, ...password };
}

/** `host:port,host:port` → nodes. @throws BotError('invalid_config') naming `variable` and the bad entry. */
function nodeList(variable: string, value: string): RedisNode[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(entry);
      const port = Number(match?.[2]);
      if (!match || port < 1 || port > 65535)
        throw new BotError('invalid_config', `${variable}: "${entry}" is not host:port`);
      return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
    });
}

/** A setting a process role cannot start without: the variable and how to set it. */
export interface MissingSetting {
  variable: string;
  /** `VARIABLE=<value>` with where the value comes from, e.g. the Slack app page. */
  howToSet: string;
}

/**
 * The settings a process role cannot start without, each with how to set it — all of them at once, so that one
 * attempt tells the whole story: WAVESYNC_CONFIG for every role; SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET (or
 * SLACK_APP_TOKEN, Socket Mode) for `serve` and `bot`. Empty when nothing is missing.
 */
export function missingSettings(role: 'serve' | 'bot' | 'worker', config: Config): MissingSetting[] {
  const missing: MissingSetting[] = [];
  if (config.configFile === undefined)
    missing.push({ variable: 'WAVESYNC_CONFIG', howToSet: 'WAVESYNC_CONFIG=<path of wavesync.yaml>' });
  if (role === 'worker') return missing;
  if (!config.slack.botToken) {
    missing.push({
      variable: 'SLACK_BOT_TOKEN',
      howToSet: `SLACK_BOT_TOKEN=xoxb-… (your Slack app's "OAuth & Permissions" page)`,
    });
  }
  if (!config.slack.appToken && !config.slack.signingSecret) {
    missing.push({
      variable: 'SLACK_SIGNING_SECRET',
      howToSet:
        `SLACK_SIGNING_SECRET=<Signing Secret of your Slack app's "Basic Information" page> ` +
        '(or SLACK_APP_TOKEN=xapp-… for Socket Mode)',
    });
  }
  return missing;
}

/** The variables that say where Redis is (the demo passes them on to the Config it builds). */
const REDIS_VARIABLES = [
  'REDIS_URL',
  'REDIS_SENTINELS',
  'REDIS_SENTINEL_MASTER',
  'REDIS_SENTINEL_PASSWORD',
  'REDIS_PASSWORD',
  'REDIS_CLUSTER_NODES',
] as const;

/** The REDIS_* variables of `env` (default: `process.env`) that are set. */
export function redisVariables(
  env: Record<string, string | undefined> = process.env,
): Record<string, string> {
  return withoutEmptyValues(Object.fromEntries(REDIS_VARIABLES.map((name) => [name, env[name]])));
}

/**
 * A copy of the process environment, for child processes (git, helm, kustomize need PATH and HOME) and for
 * secrets that wavesync.yaml names by variable (`gitCredentials[].tokenEnv`).
 */
export function processEnvironment(): Record<string, string | undefined> {
  return { ...process.env };
}
