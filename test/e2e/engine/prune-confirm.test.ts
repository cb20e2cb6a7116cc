import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { obj, SYNC_OPTIONS, sourced } from '../../builders/manifest-builders.js';
import { actions, type Harness, live, startHarness, syncObjects } from './support/engine-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

const configMap = (name: string, syncOptions?: string) => ({
  ...obj('v1', 'ConfigMap', name, syncOptions ? { [SYNC_OPTIONS]: syncOptions } : {}),
  data: { k: name },
});

/** Sync `a` (with `annotation`) and `b`, so that syncing nothing with prune makes both prune candidates. */
async function seed(annotation: string | undefined) {
  const namespace = h.freshNamespace('confirm');
  const request = { namespace, application: namespace };
  const seeded = await syncObjects(h, sourced(configMap('a', annotation), configMap('b')), request);
  expect(seeded.state.phase).toBe('Succeeded');
  return request;
}

describe('Prune=confirm (spec §4.7 step 2)', () => {
  it('a wave pruning a Prune=confirm object prunes nothing until pruning is confirmed, then prunes the whole wave', async () => {
    const request = await seed('Prune=confirm');
    let confirmedAt: string | undefined;
    let presentWhenAsked: [boolean, boolean] | undefined;
    const { state, events } = await syncObjects(h, [], {
      ...request,
      operation: { prune: true },
      pruneConfirmation: async () => confirmedAt,
      onEvent: (event) => {
        if (event.type !== 'PruneConfirmationRequired') return;
        presentWhenAsked = [
          live(h, 'v1', 'ConfigMap', 'a', request.namespace) !== undefined,
          live(h, 'v1', 'ConfigMap', 'b', request.namespace) !== undefined,
        ];
        confirmedAt = new Date().toISOString(); // a user confirms after being asked
      },
    });

    const asked = events.filter((e) => e.type === 'PruneConfirmationRequired');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      wave: { phase: 'Sync', wave: 0 },
      tasks: [{ kind: 'ConfigMap', name: 'a' }],
    });
    expect(presentWhenAsked).toEqual([true, true]);
    expect(state.phase).toBe('Succeeded');
    expect(actions(events).sort()).toEqual(['prune ConfigMap/a', 'prune ConfigMap/b']);
    expect(live(h, 'v1', 'ConfigMap', 'a', request.namespace)).toBeUndefined();
  });

  it('a confirmation from before the operation started does not count: the wave waits until the operation times out', async () => {
    const request = await seed('Prune=confirm');
    const { state } = await syncObjects(h, [], {
      ...request,
      operation: { prune: true },
      pruneConfirmation: async () => '2020-01-01T00:00:00Z',
      options: { operationTimeoutMs: 1500, pollIntervalMs: 200 },
    });

    expect(state.phase).toBe('Failed');
    expect(state.message).toMatch(/pruning confirmation of \/ConfigMap\/a/);
    expect(live(h, 'v1', 'ConfigMap', 'a', request.namespace)).toBeDefined();
    expect(live(h, 'v1', 'ConfigMap', 'b', request.namespace)).toBeDefined();
  });

  it('the Application-level Prune=confirm option applies to objects without their own Prune= annotation', async () => {
    const request = await seed('Prune=false');
    let asked = 0;
    const { state, events } = await syncObjects(h, [], {
      ...request,
      operation: { prune: true, syncOptions: ['Prune=confirm'] },
      pruneConfirmation: async () => (asked > 0 ? new Date().toISOString() : undefined),
      onEvent: (event) => {
        if (event.type === 'PruneConfirmationRequired') {
          asked++;
          // Only b waits for the confirmation: a's own Prune=false wins over the Application's Prune=confirm.
          expect(event.tasks.map((t) => t.name)).toEqual(['b']);
        }
      },
    });

    expect(asked).toBe(1);
    expect(state.phase).toBe('Succeeded');
    expect(state.syncResult.resources.map((r) => [r.name, r.status])).toEqual(
      expect.arrayContaining([
        ['a', 'PruneSkipped'],
        ['b', 'Pruned'],
      ]),
    );
    expect(events.some((e) => e.type === 'PruneConfirmationRequired')).toBe(true);
  });

  it('without Prune=confirm anywhere, the confirmation is never asked for', async () => {
    const request = await seed(undefined);
    let asked = 0;
    const { state } = await syncObjects(h, [], {
      ...request,
      operation: { prune: true },
      pruneConfirmation: async () => {
        asked++;
        return undefined;
      },
    });
    expect(state.phase).toBe('Succeeded');
    expect(asked).toBe(0);
  });
});
