/**
 * A `reporterFactory` for Slack in tests: one WebClient and one per-channel pacer shared by every job, and a
 * SlackReporter per job that reports into the job's ReportTarget (the header and its thread), without the durable
 * outbox and posted-lines stores of the worker's own factory (src/main/start-worker.ts). Jobs without a target get
 * a reporter that does nothing.
 */
import type { Logger } from '../../src/logger.js';
import type { SyncReporter } from '../../src/queue/index.js';
import { headerViewOf } from '../../src/slack/commands/header-view.js';
import type { ApplicationCatalog, SyncRequest } from '../../src/slack/ports.js';
import { createSlackReporter } from '../../src/slack/reporters/slack-reporter.js';
import { createSlackWebClient } from '../../src/slack/slack-web-client.js';
import { ChannelPacer } from '../../src/thread/channel-pacer.js';

export interface SlackReporterFactoryOptions {
  botToken: string;
  /** Web API base URL (SLACK_API_URL); default Slack's. */
  apiUrl?: string;
  catalog: ApplicationCatalog;
  logger?: Logger;
  /** Minimum ms between posts to one channel; default 1000 (Slack's ≈1 message/s per channel). */
  postIntervalMs?: number;
  /** Minimum ms between header updates; default 1000. */
  headerIntervalMs?: number;
  /** Gathering window in ms; default 250. */
  coalesceMs?: number;
  /** Web API retries for network errors; default 2. */
  retries?: number;
}

export type ReporterFactory = (job: { jobId: string; request: SyncRequest }) => SyncReporter;

export function createSlackReporterFactory(options: SlackReporterFactoryOptions): ReporterFactory {
  const client = createSlackWebClient({
    botToken: options.botToken,
    ...(options.apiUrl ? { apiUrl: options.apiUrl } : {}),
    ...(options.retries === undefined ? {} : { retries: options.retries }),
  });
  const pacer = new ChannelPacer(options.postIntervalMs ?? 1000);
  const logger = options.logger?.child({ component: 'slack-reporter' });
  return ({ jobId, request }) => {
    if (!request.target) return NO_REPORTER;
    return createSlackReporter({
      client,
      target: request.target,
      header: headerViewOf(options.catalog, { ...request, jobId }),
      pacer,
      ...(options.headerIntervalMs === undefined ? {} : { headerIntervalMs: options.headerIntervalMs }),
      ...(options.coalesceMs === undefined ? {} : { coalesceMs: options.coalesceMs }),
      ...(logger ? { logger } : {}),
    });
  };
}

const NO_REPORTER: SyncReporter = {
  async report() {},
  async close() {},
};
