import { describe, expect, it } from 'vitest';
import { deletionRunnerContext, SILENT_RUNNER_LOGGER } from '../../test/support/runner-context.js';
import { testApplication } from '../../test/support/test-application.js';
import type { OperationState } from '../domain/index.js';
import { runDeletion } from './run-deletion.js';

const app = testApplication({
  name: 'guestbook',
  source: { repoURL: 'https://git.example.com/apps.git', path: 'guestbook' },
  finalizers: ['resources-finalizer.argocd.argoproj.io'],
});

const deletion = { confirmed: [], planHash: 'a'.repeat(32) };

const context = () => deletionRunnerContext(deletion);
const silent = SILENT_RUNNER_LOGGER;

describe('src/deletion/run-deletion', () => {
  it('deletes the Application on the cluster of its destination, with the job and its DeletionRequest', async () => {
    const { ctx } = context();
    const seen: unknown[] = [];
    const done = { phase: 'Succeeded' } as OperationState;
    const state = await runDeletion(
      {
        application: () => app,
        clusterFor: (a) => `cluster of ${a.name}`,
        deleteApplication: async (input) => {
          seen.push(input);
          return done;
        },
      },
      ctx,
      silent,
    );
    expect(state).toBe(done);
    expect(seen).toEqual([{ app, cluster: 'cluster of guestbook', ctx }]);
  });

  it('when the worker cannot delete or the Application is unknown, then the thread is told and the job ends in Error', async () => {
    for (const [deps, message] of [
      [{ application: () => app, clusterFor: () => 'c' }, 'this worker cannot delete Applications'],
      [
        {
          application: () => {
            throw new Error('no Application named guestbook');
          },
          clusterFor: () => 'c',
          deleteApplication: async () => ({ phase: 'Succeeded' }) as OperationState,
        },
        'no Application named guestbook',
      ],
    ] as const) {
      const { ctx, events, persisted } = context();
      const state = await runDeletion(deps, ctx, silent);
      expect(state).toMatchObject({ phase: 'Error', message });
      expect(events).toMatchObject([{ type: 'OperationCompleted', phase: 'Error', message }]);
      expect(persisted).toEqual([state]);
    }
  });

  it('rethrows transient errors so BullMQ retries them', async () => {
    const transient = Object.assign(new Error('connect ECONNREFUSED'), { transient: true });
    const { ctx, events } = context();
    const deps = {
      application: () => app,
      clusterFor: () => {
        throw transient;
      },
      deleteApplication: async () => ({ phase: 'Succeeded' }) as OperationState,
    };
    await expect(runDeletion(deps, ctx, silent)).rejects.toBe(transient);
    expect(events).toEqual([]);
  });
});
