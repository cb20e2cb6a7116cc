import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { type Application, BotError, type SyncOperation } from '../domain/index.js';
import { createLogger } from '../logger.js';
import { startWorkerThread, type WorkerThread } from './worker-thread.js';

const fixture = (name: string) => new URL(`../../test/fixtures/worker-thread/${name}`, import.meta.url).href;

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', destination }) };
}

async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const data = { config: loadConfig({}), logLevel: 'info' };

describe('src/main/worker-thread', () => {
  let thread: WorkerThread | undefined;
  afterEach(async () => {
    await thread?.close(0);
    thread = undefined;
  });

  it("when the thread ends unexpectedly, then it is logged, /healthz's state says why, and a new thread starts", async () => {
    const { lines, logger } = capture();
    thread = startWorkerThread(data, logger, fixture('crash-on-metrics'));
    await thread.ready;
    expect(thread.state()).toBe('up');
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 40, component: 'worker', msg: 'thread says' }),
    );

    expect(await thread.metrics()).toEqual([]);
    expect(thread.state()).toBe('restarting: the worker thread ended (exit code 1)');
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: 'the worker thread ended; starting a new one',
        restartInMs: 1000,
      }),
    );
    await until(() => thread?.state() === 'up');
    expect(lines.filter((l) => l.msg === 'thread says')).toHaveLength(2);

    await thread.close(0);
    expect(thread.state()).toBe('stopped');
  }, 30_000);

  it('when the thread cannot start, then ready rejects with its BotError and the thread is ended', async () => {
    const { logger } = capture();
    thread = startWorkerThread(data, logger, fixture('refuse-to-start'));

    const error = await thread.ready.catch((e: unknown) => e);

    expect(error).toBeInstanceOf(BotError);
    expect(error).toMatchObject({
      code: 'invalid_config',
      message: 'settings file not found',
      fix: 'set WAVESYNC_CONFIG',
    });
    await until(() => thread?.state() === 'stopped');
  }, 30_000);

  it("when serve asks for a preview, then the thread's answer resolves it, its BotError rejects it as a BotError, and a thread that ends rejects what it had not answered", async () => {
    const { logger } = capture();
    thread = startWorkerThread(data, logger, fixture('previews'));
    const app = (name: string) => ({ name }) as Application;
    const operation = (revision?: string): SyncOperation => ({
      prune: false,
      dryRun: true,
      syncOptions: [],
      ...(revision ? { revision } : {}),
    });
    expect(await thread.preview(app('ok'), operation('v2')).catch((e: unknown) => e)).toBeInstanceOf(Error);
    await thread.ready;

    expect(await thread.preview(app('ok'), operation('v2'))).toMatchObject({
      revision: 'v2',
      plan: { apply: ['ConfigMap/a'] },
    });
    // A diff over PREVIEW_PART_SIZE crosses in parts, beside another preview: each is whole and in order.
    const [many, ok] = await Promise.all([
      thread.preview(app('many'), operation()),
      thread.preview(app('ok'), operation('v4')),
    ]);
    expect(many.revision).toBe('v3');
    expect(many.diff?.resources.map((r) => r.name)).toEqual(
      Array.from({ length: 2500 }, (_, i) => `cm-${i}`),
    );
    expect(ok.revision).toBe('v4');
    // What cannot be copied to the thread is refused at once (and not left waiting for an answer).
    const uncopyable = { name: 'ok', spec: () => 1 } as unknown as Application;
    expect(await thread.preview(uncopyable, operation()).catch((e: unknown) => e)).toMatchObject({
      name: 'DataCloneError',
    });
    const refused = await thread.preview(app('huge'), operation()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BotError);
    expect(refused).toMatchObject({
      code: 'too_large',
      message: 'huge renders 60000 objects, over the limit of 50000',
      fix: 'raise applicationLimits.maxObjects',
      detail: 'objects',
    });
    const lost = await thread.preview(app('crash'), operation()).catch((e: unknown) => e);
    expect(lost).toMatchObject({
      message: 'the worker thread ended (exit code 1) before the diff was made',
    });
    expect(await thread.preview(app('ok'), operation()).catch((e: unknown) => e)).toMatchObject({
      message: 'the worker thread is not up (restarting: the worker thread ended (exit code 1))',
    });
  }, 30_000);
});
