/**
 * startWavesync — the composition root: from the typed Config (environment) and wavesync.yaml build the
 * Applications registry and renderer, the metrics and operator endpoints, and start the process role:
 * `worker` (runs syncs) — `bot` and `serve` add the Slack app (see start-bot.ts). Returns a handle whose
 * `close()` stops everything in order: no new HTTP requests, then running syncs saved and handed back to the
 * queue, then connections.
 */
import type { WebClient } from '@slack/web-api';
import { applicationsFromSettings } from '../apps/index.js';
import { type Config, processEnvironment } from '../config.js';
import { BotError } from '../domain/index.js';
import type { EngineOptions } from '../engine/index.js';
import type { Logger } from '../logger.js';
import type { SyncWorker } from '../queue/index.js';
import { loadSettings, type Settings } from '../settings/index.js';
import { createSlackWebClient } from '../slack/slack-web-client.js';
import { createApprovalWiring } from './approval-wiring.js';
import { countingFetch } from './counting-fetch.js';
import { createMetrics, type Metrics } from './metrics.js';
import { createOpsEndpoints } from './ops-endpoints.js';
import { startOpsServer } from './ops-server.js';
import { packageVersion } from './package-info.js';
import { startWorker } from './start-worker.js';

export type ProcessRole = 'worker';

export interface StartOptions {
  config: Config;
  logger: Logger;
  engineOptions?: Partial<EngineOptions>;
  /** Interface the HTTP server listens on (default all interfaces). */
  host?: string;
}

export interface RunningWavesync {
  role: ProcessRole;
  /** The HTTP port actually listened on (PORT=0 picks a free one). */
  port: number;
  metrics: Metrics;
  close(options?: { graceMs?: number }): Promise<void>;
}

/** Read wavesync.yaml from WAVESYNC_CONFIG. @throws BotError('invalid_config') when it is not set or invalid. */
export async function settingsOf(config: Config): Promise<Settings> {
  if (config.configFile === undefined) {
    throw new BotError(
      'invalid_config',
      'WAVESYNC_CONFIG is not set: point it at your wavesync.yaml (see examples/wavesync.yaml and docs/applications.md)',
    );
  }
  return loadSettings(config.configFile);
}

/** Start `role`. @throws BotError for configuration problems (before anything listens). */
export async function startWavesync(role: ProcessRole, options: StartOptions): Promise<RunningWavesync> {
  const { config, logger } = options;
  const settings = await settingsOf(config);
  const apps = await applicationsFromSettings(settings, { env: processEnvironment(), logger });
  logger.info({ applications: apps.registry.names().length, config: settings.file }, 'applications loaded');
  const metrics = createMetrics();
  const ops = createOpsEndpoints({ config, version: packageVersion(), role, metrics });
  const web = slackWebClient(config, metrics);
  const wiring =
    web &&
    createApprovalWiring({
      redisUrl: config.redisUrl,
      prefix: config.queue.prefix,
      settings,
      apps,
      web,
      logger,
    });
  let worker: SyncWorker | undefined;
  try {
    worker = await startWorker({
      config,
      settings,
      apps,
      metrics,
      logger,
      ...(web ? { web } : {}),
      ...(wiring ? { notifier: wiring.notifier } : {}),
      ...(options.engineOptions ? { engineOptions: options.engineOptions } : {}),
    });
    const server = await startOpsServer(ops.routes, config.port, options.host);
    logger.info({ port: server.port }, 'wavesync started');
    return {
      role,
      port: server.port,
      metrics,
      async close({ graceMs } = {}) {
        await server.close();
        await worker?.close(graceMs === undefined ? {} : { graceMs });
        await wiring?.close();
        await ops.close();
      },
    };
  } catch (error) {
    await worker?.close({ graceMs: 0 }).catch(() => undefined);
    await wiring?.close();
    await ops.close();
    throw error;
  }
}

/** The Web API client the worker (threads, notifications) and the approval flow use; none without a bot token. */
function slackWebClient(config: Config, metrics: Metrics): WebClient | undefined {
  const { botToken, apiUrl } = config.slack;
  if (!botToken) return undefined;
  return createSlackWebClient({ botToken, ...(apiUrl ? { apiUrl } : {}), fetch: countingFetch(metrics) });
}
