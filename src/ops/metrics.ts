/**
 * createMetrics — the Prometheus metrics every wavesync process exposes at `GET /metrics` (prom-client, one
 * registry per process, never the global one so tests and in-process demos do not collide):
 *
 * - `wavesync_queue_jobs{state}` gauge: BullMQ job counts (waiting, active, delayed, completed, failed, paused),
 *   read from Redis at scrape time;
 * - `wavesync_syncs_total{phase}` counter: finished operations by OperationPhase (Succeeded, Failed, Error);
 * - `wavesync_sync_duration_seconds{phase}` histogram: operation duration;
 * - `wavesync_wave_duration_seconds{sync_phase}` histogram: duration of one (phase, wave) step;
 * - `wavesync_slack_api_calls_total{method}` and `wavesync_slack_rate_limited_total{method}` counters;
 * - `wavesync_slack_messages_dropped_total{what}` and `wavesync_slack_thread_lines_dropped_total` counters: thread
 *   messages (and the lines they held) given up after a Slack outage past the retention or a permanent error;
 * - `wavesync_drift_checks_total{result,trigger}` counter: drift comparisons of Applications with
 *   syncPolicy.automated, by result (Synced, OutOfSync, Error, Skipped while a sync of the app is queued or running)
 *   and by what asked for them (`interval`: the periodic check of every automated Application; `change`: a watched
 *   change to objects the Application tracks);
 * - `wavesync_drift_out_of_sync_applications` gauge: Applications whose last comparison was OutOfSync;
 * - `wavesync_preview_duration_seconds{result}` histogram: previews made (plan and live diff: `/sync diff`,
 *   `--dry-run`, approval messages, View diff), by result (`ok`, `failed`); in `serve` its worker thread makes them;
 * - prom-client's default process metrics (`wavesync_process_*`, `wavesync_nodejs_*`); in `serve` also its worker
 *   thread's (`wavesync_worker_thread_nodejs_*`: that thread's heap, event-loop lag and GC).
 */
import {
  AggregatorRegistry,
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  type MetricObjectWithValues,
  type MetricValue,
  Registry,
} from 'prom-client';
import type { SyncEvent } from '../domain/index.js';
import type { SyncReporter } from '../queue/index.js';

/** Metrics as `Registry.getMetricsAsJSON()` gives them (what a worker thread sends its process). */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** Job counts by BullMQ state, as `Queue.getJobCounts()` returns them. */
type JobCountsReader = () => Promise<Record<string, number>>;

export interface Metrics {
  readonly registry: Registry;
  /** The Prometheus text exposition, and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
  /** A reporter that records sync outcomes and wave durations from the operation's SyncEvents. */
  reporter(): SyncReporter;
  /** Count one Slack Web API call of `method` (e.g. `chat.postMessage`). */
  slackCall(method: string): void;
  /** Count one HTTP 429 from Slack for `method`. */
  slackRateLimited(method: string): void;
  /**
   * Count one thread message given up (`what`: "thread reply" | "header update") holding `lines` thread lines
   * (default 0): a Slack outage past the retention of one delivery (10 min) or a permanent Slack error. The thread
   * says it once Slack answers again ("N progress lines could not be delivered").
   */
  slackDropped(what: string, lines?: number): void;
  /** Record one drift comparison of `application` (src/drift), and what asked for it. */
  driftChecked(
    application: string,
    result: 'Synced' | 'OutOfSync' | 'Error' | 'Skipped',
    trigger: 'interval' | 'change',
  ): void;
  /** Record one preview made on this thread (plan and live diff) and how long it took. */
  previewMade(seconds: number, result: 'ok' | 'failed'): void;
  /** Read queue depth from Redis at scrape time (the worker and bot both set it). */
  setJobCountsReader(reader: JobCountsReader): void;
  /**
   * Add the metrics `read` gives at every scrape to this registry's (series of the same name and labels summed):
   * `serve`'s worker thread, which counts its own syncs and Slack calls. A source that fails is left out.
   */
  include(read: () => Promise<MetricsJson>): void;
}

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'completed', 'failed', 'paused'] as const;

/**
 * Create the registry and its metrics. `defaults: false` leaves out the process metrics (tests); `defaultsPrefix`
 * names them otherwise (default `wavesync_`; serve's worker thread: `wavesync_worker_thread_`, its own heap,
 * event-loop lag and GC beside the bot's).
 */
export function createMetrics(options: { defaults?: boolean; defaultsPrefix?: string } = {}): Metrics {
  const registry = new Registry();
  if (options.defaults !== false) {
    collectDefaultMetrics({ register: registry, prefix: options.defaultsPrefix ?? 'wavesync_' });
  }
  let readCounts: JobCountsReader | undefined;
  new Gauge({
    name: 'wavesync_queue_jobs',
    help: 'Sync jobs in the BullMQ queue, by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      if (!readCounts) return;
      const counts = await readCounts().catch(() => undefined);
      if (!counts) return;
      for (const state of QUEUE_STATES) this.set({ state }, counts[state] ?? 0);
    },
  });
  const syncs = new Counter({
    name: 'wavesync_syncs_total',
    help: 'Finished sync operations, by OperationPhase',
    labelNames: ['phase'],
    registers: [registry],
  });
  const syncDuration = new Histogram({
    name: 'wavesync_sync_duration_seconds',
    help: 'Duration of sync operations in seconds, by OperationPhase',
    labelNames: ['phase'],
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800],
    registers: [registry],
  });
  const waveDuration = new Histogram({
    name: 'wavesync_wave_duration_seconds',
    help: 'Duration of one sync wave in seconds, by SyncPhase',
    labelNames: ['sync_phase'],
    buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600],
    registers: [registry],
  });
  const slackCalls = new Counter({
    name: 'wavesync_slack_api_calls_total',
    help: 'Slack Web API calls, by method',
    labelNames: ['method'],
    registers: [registry],
  });
  const slackLimited = new Counter({
    name: 'wavesync_slack_rate_limited_total',
    help: 'Slack Web API answers with HTTP 429, by method',
    labelNames: ['method'],
    registers: [registry],
  });
  const slackDropped = new Counter({
    name: 'wavesync_slack_messages_dropped_total',
    help: 'Thread messages given up after a Slack outage past the retention (10 min) or a permanent error, by kind',
    labelNames: ['what'],
    registers: [registry],
  });
  const linesDropped = new Counter({
    name: 'wavesync_slack_thread_lines_dropped_total',
    help: 'Thread lines (progress replies) given up after a Slack outage past the retention or a permanent error',
    registers: [registry],
  });
  const driftChecks = new Counter({
    name: 'wavesync_drift_checks_total',
    help: 'Drift comparisons of Applications with syncPolicy.automated, by result and trigger (interval, change)',
    labelNames: ['result', 'trigger'],
    registers: [registry],
  });
  const outOfSync = new Set<string>();
  const outOfSyncApps = new Gauge({
    name: 'wavesync_drift_out_of_sync_applications',
    help: 'Applications whose last drift comparison was OutOfSync',
    registers: [registry],
  });

  const previewDuration = new Histogram({
    name: 'wavesync_preview_duration_seconds',
    help: 'Previews made (plan and live diff: /sync diff, --dry-run, approval messages), in seconds, by result',
    labelNames: ['result'],
    buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120],
    registers: [registry],
  });

  function observe(event: SyncEvent): void {
    if (event.type === 'WaveCompleted') {
      waveDuration.observe({ sync_phase: event.wave.phase }, event.durationMs / 1000);
    } else if (event.type === 'OperationCompleted') {
      syncs.inc({ phase: event.phase });
      syncDuration.observe({ phase: event.phase }, event.durationMs / 1000);
    }
  }

  const sources: (() => Promise<MetricsJson>)[] = [];
  return {
    registry,
    async render() {
      if (sources.length === 0) return { contentType: registry.contentType, body: await registry.metrics() };
      const parts = await Promise.all([
        registry.getMetricsAsJSON(),
        ...sources.map((read) => read().catch(() => [])),
      ]);
      // Summed, every series: the parts count disjoint events of one process (its process metrics are only ours).
      const summed = parts.map((part) => part.map((metric) => ({ ...metric, aggregator: 'sum' as const })));
      return {
        contentType: registry.contentType,
        body: await AggregatorRegistry.aggregate(summed).metrics(),
      };
    },
    include(read) {
      sources.push(read);
    },
    reporter: () => ({
      async report(event) {
        observe(event);
      },
      async close() {},
    }),
    slackCall: (method) => slackCalls.inc({ method }),
    slackRateLimited: (method) => slackLimited.inc({ method }),
    slackDropped(what, lines = 0) {
      slackDropped.inc({ what });
      if (lines > 0) linesDropped.inc(lines);
    },
    driftChecked(application, result, trigger) {
      driftChecks.inc({ result, trigger });
      if (result === 'OutOfSync') outOfSync.add(application);
      else if (result === 'Synced') outOfSync.delete(application);
      outOfSyncApps.set(outOfSync.size);
    },
    previewMade: (seconds, result) => previewDuration.observe({ result }, seconds),
    setJobCountsReader(reader) {
      readCounts = reader;
    },
  };
}
