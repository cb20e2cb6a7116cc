/**
 * The body of `wavesync serve`'s worker thread (started by worker-thread.ts): the worker role, embedded (no HTTP
 * server; serve answers /healthz and /metrics for it), its log lines and metrics sent to serve, stopped when serve
 * says so; serve's previews (`/sync diff`, approval messages) made here. Serve ends the thread once it has said
 * `failed` or `closed` (after every line before it arrived).
 */
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import { previewForTransfer } from '../environments/index.js';
import { createLogger } from '../logger.js';
import { startWavesync } from './start-wavesync.js';
import {
  createPreviewSender,
  type HostMessage,
  type ThreadMessage,
  threadError,
  type WorkerThreadData,
} from './worker-thread.js';

const port = parentPort;
if (!port) throw new Error("worker-thread-entry runs in serve's worker thread only");
const data = workerData as WorkerThreadData;
const post = (message: ThreadMessage) => port.postMessage(message);
const lines = new Writable({
  decodeStrings: false,
  write(chunk: string | Buffer, _encoding, done) {
    post({ type: 'log', line: chunk.toString() });
    done();
  },
});
const running = startWavesync('worker', {
  config: data.config,
  logger: createLogger({ level: data.logLevel, destination: lines }),
  embedded: true,
  ...(data.engineOptions ? { engineOptions: data.engineOptions } : {}),
});
const previews = createPreviewSender(post);

port.on('message', (message: HostMessage) => {
  if (message.type === 'preview-part-taken') previews.taken(message.id);
  else if (message.type === 'metrics') {
    void running
      .then((worker) => worker.metrics.registry.getMetricsAsJSON())
      .then(
        (metrics) => post({ type: 'metrics', id: message.id, metrics }),
        () => post({ type: 'metrics', id: message.id, metrics: [] }),
      );
  } else if (message.type === 'preview') {
    // serve's previews (`/sync diff`, approvals): made here, on this thread's heap, beside the syncs.
    void running
      .then(({ preview }) => {
        if (!preview) throw new Error('this worker makes no previews');
        return preview(message.app, message.operation);
      })
      .then((preview) => previews.send(message.id, previewForTransfer(preview)))
      .catch((error: unknown) => post({ type: 'preview-failed', id: message.id, error: threadError(error) }));
  } else {
    void running
      .then((worker) => worker.close(message.graceMs === undefined ? {} : { graceMs: message.graceMs }))
      .catch(() => undefined)
      .then(() => post({ type: 'closed' }));
  }
});
running.then(
  () => post({ type: 'ready' }),
  (error: unknown) => post({ type: 'failed', error: threadError(error) }),
);
