import { describe, expect, it } from 'vitest';
import {
  deletionRunnerContext,
  runnerContext,
  SILENT_RUNNER_LOGGER,
} from '../../test/support/runner-context.js';
import { testApplication } from '../../test/support/test-application.js';
import type { Application } from '../domain/index.js';
import { BotError, type OperationState } from '../domain/index.js';
import { createEngineSyncRunner, type RunOperation } from './engine-sync-runner.js';

const app = testApplication({
  name: 'guestbook',
  source: { repoURL: '', path: 'guestbook' },
  destination: { server: 'https://kubernetes.default.svc', namespace: 'guestbook' },
  origin: 'guestbook.yaml:1',
});

const context = (initialState?: OperationState) => runnerContext({}, initialState);
const silent = SILENT_RUNNER_LOGGER;

describe('src/sync-run/engine-sync-runner', () => {
  it('runs the engine on the rendered targets, in the destination namespace, on the app cluster', async () => {
    const calls: Parameters<RunOperation<string, string>>[0][] = [];
    const runOperation: RunOperation<string, string> = async (input) => {
      calls.push(input);
      await input.persist?.({ ...finalState, phase: 'Running' });
      return finalState;
    };
    const runner = createEngineSyncRunner({
      application: () => app,
      render: async (_app, { revision }) => ({ targets: [`deployment@${revision}`], revision: 'sha-1' }),
      clusterFor: (a) => `cluster-of-${a.name}`,
      runOperation,
      logger: () => silent,
    });
    const { ctx, persisted } = context();

    const state = await runner(ctx);

    // The source as synced is recorded for the history entry (Argo CD's SyncOperationResult.source).
    expect(state).toEqual({ ...finalState, syncResult: { ...finalState.syncResult, source: app.source } });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      application: 'guestbook',
      targets: ['deployment@main'],
      namespace: 'guestbook',
      revision: 'sha-1',
      cluster: 'cluster-of-guestbook',
    });
    expect(persisted.map((s) => s.phase)).toEqual(['Running']);
  });

  it('saves every state with the source as synced, so a job ended from its saved final state records it', async () => {
    const runner = createEngineSyncRunner<string, string>({
      application: () => app,
      render: async () => ({ targets: [], revision: 'sha-1' }),
      clusterFor: () => 'c',
      runOperation: async (input) => {
        await input.persist?.({ ...finalState, phase: 'Running' });
        await input.persist?.(finalState);
        return finalState;
      },
      logger: () => silent,
    });
    const { ctx, persisted } = context();

    await runner(ctx);

    expect(persisted.map((s) => [s.phase, s.syncResult.source])).toEqual([
      ['Running', app.source],
      ['Succeeded', app.source],
    ]);
  });

  it("copies the Application's syncPolicy.syncOptions into the operation, without duplicates, and its managedNamespaceMetadata", async () => {
    const operations: string[][] = [];
    const metadata: unknown[] = [];
    const managedNamespaceMetadata = { labels: { team: 'web' } };
    const runner = createEngineSyncRunner<string, string>({
      application: () => ({
        ...app,
        syncPolicy: { syncOptions: ['CreateNamespace=true', 'PruneLast=true'], managedNamespaceMetadata },
      }),
      render: async () => ({ targets: [], revision: 'r' }),
      clusterFor: () => 'c',
      runOperation: async (input) => {
        operations.push(input.operation.syncOptions);
        metadata.push(input.managedNamespaceMetadata);
        return finalState;
      },
      logger: () => silent,
    });
    const { ctx } = context();
    ctx.request.operation.syncOptions = ['PruneLast=true', 'Replace=true'];

    await runner(ctx);

    expect(operations).toEqual([['CreateNamespace=true', 'PruneLast=true', 'Replace=true']]);
    expect(metadata).toEqual([managedNamespaceMetadata]);
  });

  it('on resume, renders the revision the operation already resolved', async () => {
    const revisions: (string | undefined)[] = [];
    const runner = resolvingRunner((_a, revision) => void revisions.push(revision));
    const { ctx } = context({
      ...finalState,
      phase: 'Running',
      syncResult: { revision: 'sha-resolved', resources: [] },
    });

    const state = await runner(ctx);

    expect(revisions).toEqual(['sha-resolved']);
    expect(state.syncResult.revision).toBe('sha-resolved');
  });

  it('when the Application cannot start, then the thread gets OperationCompleted with phase Error', async () => {
    const runner = createEngineSyncRunner<string, string>({
      application: () => {
        throw new BotError(
          'application_not_found',
          'application "gustbook" not found; did you mean guestbook?',
        );
      },
      render: async () => ({ targets: [], revision: '' }),
      clusterFor: () => 'c',
      runOperation: async () => finalState,
      logger: () => silent,
    });
    const { ctx, events, persisted } = context();

    const state = await runner(ctx);

    expect(state.phase).toBe('Error');
    expect(state.message).toBe('application "gustbook" not found; did you mean guestbook?');
    expect(events.map((e) => e.type)).toEqual(['OperationCompleted']);
    expect(persisted.at(-1)?.phase).toBe('Error');
  });

  it('when a completed operation resumed for its health cannot start, then the runner throws and reports and saves nothing (the queue ends the job from the saved state)', async () => {
    const runner = createEngineSyncRunner<string, string>({
      application: () => {
        throw new BotError('application_not_found', 'Application guestbook not found');
      },
      render: async () => ({ targets: [], revision: '' }),
      clusterFor: () => 'c',
      runOperation: async () => finalState,
      logger: () => silent,
    });
    const { ctx, events, persisted } = context(finalState);

    await expect(runner(ctx)).rejects.toThrow('Application guestbook not found');
    expect(events).toEqual([]);
    expect(persisted).toEqual([]);
  });

  it("a rollback renders the source its history entry recorded, not the Application's current one", async () => {
    const rendered: Application['source'][] = [];
    const recorded = {
      repoURL: 'https://git.example/web.git',
      path: 'old/web',
      helm: { parameters: [{ name: 'replicas', value: '2' }] },
    };
    const runner = resolvingRunner((a) => void rendered.push(a.source));
    const { ctx } = context();
    ctx.request = {
      ...ctx.request,
      operation: { ...ctx.request.operation, revision: 'sha-old', source: recorded },
      rollback: { id: 1, revision: 'sha-old' },
    };

    const state = await runner(ctx);

    expect(rendered).toEqual([recorded]);
    expect(state.syncResult.source).toEqual(recorded);
  });

  it('a multi-source sync records every source, and a rollback renders the sources its entry recorded at their revisions', async () => {
    const current = [
      { repoURL: 'https://charts.example', chart: 'redis', targetRevision: '18.x' },
      { repoURL: 'https://git.example/values.git', ref: 'values' },
    ];
    const recorded = [{ ...current[0]!, targetRevision: '17.x' }, current[1]!];
    const multi = { ...app, source: current[0]!, sources: current };
    const seen: [Application['sources'], string | undefined][] = [];
    const runner = createEngineSyncRunner<string, string>({
      application: () => multi,
      render: async (a, { revision }) => {
        seen.push([a.sources, revision]);
        return { targets: [], revision: revision ?? `18.1.0;${'a'.repeat(40)}` };
      },
      clusterFor: () => 'c',
      runOperation: async (input) => ({
        ...finalState,
        syncResult: { revision: input.revision, resources: [] },
      }),
      logger: () => silent,
    });

    const synced = await runner(context().ctx);
    const { ctx } = context();
    const old = `17.3.2;${'b'.repeat(40)}`;
    ctx.request = {
      ...ctx.request,
      operation: { ...ctx.request.operation, revision: old, sources: recorded },
      rollback: { id: 3, revision: old },
    };
    const rolledBack = await runner(ctx);

    expect(synced.syncResult.sources).toEqual(current);
    expect(seen).toEqual([
      [current, 'main'],
      [recorded, old],
    ]);
    expect(rolledBack.syncResult).toMatchObject({ revision: old, source: recorded[0], sources: recorded });
  });

  it('a rollback to an entry without a recorded source uses the current source and warns in the thread', async () => {
    const warnings: string[] = [];
    const runner = createEngineSyncRunner<string, string>({
      application: () => app,
      render: async (_a, { revision }) => ({ targets: [], revision: revision ?? '' }),
      clusterFor: () => 'c',
      runOperation: async (input) => {
        warnings.push(...(input.warnings ?? []).map((w) => w.message));
        return finalState;
      },
      logger: () => silent,
    });
    const { ctx } = context();
    ctx.request = { ...ctx.request, rollback: { id: 7, revision: 'sha-old' } };

    const state = await runner(ctx);

    expect(warnings).toContain(
      "history entry #7 has no recorded source (recorded before history kept it): rolling back with the Application's current source (repoURL, path, helm values) at revision sha-old",
    );
    expect(state.syncResult.source).toEqual(app.source);
  });

  it("a generated Application's rollback warning points at its ApplicationSet's file and line", async () => {
    const where: string[] = [];
    const runner = createEngineSyncRunner<string, string>({
      application: () => ({ ...app, origin: 'appsets/shops.yaml:3 (ApplicationSet shops)' }),
      render: async (_a, { revision }) => ({ targets: [], revision: revision ?? '' }),
      clusterFor: () => 'c',
      runOperation: async (input) => {
        where.push(...(input.warnings ?? []).map((w) => `${w.file}:${w.line}`));
        return finalState;
      },
      logger: () => silent,
    });
    const { ctx } = context();
    ctx.request = { ...ctx.request, rollback: { id: 7, revision: 'sha-old' } };

    await runner(ctx);

    expect(where).toEqual(['appsets/shops.yaml:3']);
  });

  it('hands a deletion job to the deletion runner, with its deletion and no operation, and renders and syncs nothing', async () => {
    const deleted: unknown[] = [];
    const done = { ...finalState, operation: { prune: false, dryRun: false, syncOptions: [] } };
    const runner = createEngineSyncRunner<string, string>({
      application: () => app,
      render: async () => {
        throw new Error('a deletion renders nothing');
      },
      clusterFor: (a) => `cluster-of-${a.name}`,
      runOperation: async () => {
        throw new Error('a deletion runs no sync');
      },
      deleteApplication: async ({ cluster, ctx }) => {
        deleted.push({ cluster, request: ctx.request });
        return done;
      },
      logger: () => silent,
    });
    const deletion = { confirmed: [], planHash: 'a'.repeat(32), revision: 'b'.repeat(40) };

    const state = await runner(deletionRunnerContext(deletion).ctx);

    expect(state).toBe(done);
    expect(deleted).toEqual([
      { cluster: 'cluster-of-guestbook', request: expect.objectContaining({ deletion }) },
    ]);
    expect(deleted[0]).not.toHaveProperty('request.operation');
  });

  it('rethrows transient errors so BullMQ retries them', async () => {
    const transient = Object.assign(new Error('connect ECONNREFUSED'), { transient: true });
    const runner = createEngineSyncRunner<string, string>({
      application: () => app,
      render: async () => {
        throw transient;
      },
      clusterFor: () => 'c',
      runOperation: async () => finalState,
      logger: () => silent,
    });

    await expect(runner(context().ctx)).rejects.toBe(transient);
  });
});

/** A runner whose render resolves the asked revision as is (telling `rendering` what it renders). */
function resolvingRunner(rendering: (app: Application, revision: string | undefined) => void) {
  return createEngineSyncRunner<string, string>({
    application: () => app,
    render: async (a, { revision }) => {
      rendering(a, revision);
      return { targets: [], revision: revision ?? '' };
    },
    clusterFor: () => 'c',
    runOperation: async (input) => ({
      ...finalState,
      syncResult: { revision: input.revision, resources: [] },
    }),
    logger: () => silent,
  });
}

const finalState: OperationState = {
  operation: { revision: 'main', prune: false, dryRun: false, syncOptions: [] },
  phase: 'Succeeded',
  message: 'successfully synced (all tasks run)',
  syncResult: { revision: 'sha-1', resources: [] },
  startedAt: '2026-11-29T10:00:00.000Z',
  finishedAt: '2026-11-29T10:00:05.000Z',
};
