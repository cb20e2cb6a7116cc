import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src/domain/index.js';
import { crd, obj, SYNC_OPTIONS, sourced } from '../../builders/manifest-builders.js';
import { actions, type Harness, live, startHarness, syncObjects } from './support/engine-harness.js';

let h: Harness;
let runs = 0;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

/** A Namespace this sync creates, a ConfigMap and a `widgets.example.com/v1 Widget` in it, all in wave 0. */
function namespaceConfigMapAndWidget(widgetAnnotations: Record<string, string> = {}): {
  namespace: string;
  objects: KubeObject[];
} {
  const namespace = `validate-${++runs}`;
  return {
    namespace,
    objects: [
      obj('v1', 'Namespace', namespace),
      obj('v1', 'ConfigMap', 'settings', {}, { namespace }),
      obj('example.com/v1', 'Widget', 'gadget', widgetAnnotations, { namespace, spec: { size: 1 } }),
    ],
  };
}

describe('validate before apply: every kind is resolved before the first apply (gitops-engine getSyncTasks)', () => {
  it('a custom resource whose CRD is not installed fails the operation with nothing applied, though its Namespace is new', async () => {
    const { namespace, objects } = namespaceConfigMapAndWidget();

    const { state, events } = await syncObjects(h, sourced(...objects), { namespace: 'default' });

    expect(state.phase).toBe('Failed');
    expect(state.message).toMatch(/^one or more synchronization tasks are not valid/);
    expect(state.message).toMatch(/example\.com\/v1 Widget/);
    expect(actions(events)).toEqual([]);
    expect(live(h, 'v1', 'Namespace', namespace, '')).toBeUndefined();
    expect(live(h, 'v1', 'ConfigMap', 'settings', namespace)).toBeUndefined();
    const widget = state.syncResult.resources.find((r) => r.kind === 'Widget');
    expect(widget).toMatchObject({ status: 'SyncFailed' });
  });

  it('the same with SkipDryRunOnMissingResource=true on the custom resource passes validation; its apply then fails', async () => {
    const { namespace, objects } = namespaceConfigMapAndWidget({
      [SYNC_OPTIONS]: 'SkipDryRunOnMissingResource=true',
    });

    const { state } = await syncObjects(h, sourced(...objects), { namespace: 'default' });

    expect(state.phase).toBe('Failed');
    expect(state.message).not.toMatch(/not valid/);
    expect(live(h, 'v1', 'ConfigMap', 'settings', namespace)).toBeDefined();
  });

  it('the same with the CRD in the sync passes validation and Succeeds', async () => {
    const { namespace, objects } = namespaceConfigMapAndWidget();
    const widgets = crd('example.com', 'Widget', 'widgets');
    (widgets.spec as Record<string, unknown>).scope = 'Namespaced';
    (widgets.spec as Record<string, unknown>).versions = [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ];

    const { state } = await syncObjects(h, sourced(widgets, ...objects), { namespace: 'default' });

    expect(state.phase).toBe('Succeeded');
    expect(live(h, 'example.com/v1', 'Widget', 'gadget', namespace)).toBeDefined();
  });
});
