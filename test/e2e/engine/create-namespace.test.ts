import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { obj, servedCrd, sourced, WAVE } from '../../builders/manifest-builders.js';
import { type Harness, live, startHarness, syncObjects } from './support/engine-harness.js';

let h: Harness;
let n = 0;

beforeAll(async () => {
  h = await startHarness();
});

afterAll(async () => {
  await h.stop();
});

const configMap = () => ({ ...obj('v1', 'ConfigMap', 'web'), data: { a: '1' } });

describe('the Namespace CreateNamespace=true creates is not tracked (spec §3.1 step 5)', () => {
  it('carries no tracking label, so a later sync with prune but without the option neither prunes it nor what is in it', async () => {
    const namespace = `created-ns-${++n}`;
    const request = { namespace, application: namespace };
    const created = await syncObjects(h, sourced(configMap()), {
      ...request,
      operation: { syncOptions: ['CreateNamespace=true'] },
    });
    expect(created.state.phase).toBe('Succeeded');
    const ns = live(h, 'v1', 'Namespace', namespace, '');
    expect(ns?.metadata.labels ?? {}).not.toHaveProperty('app.kubernetes.io/instance');
    expect(ns?.metadata.annotations ?? {}).not.toHaveProperty('argocd.argoproj.io/tracking-id');

    const pruned = await syncObjects(h, sourced(configMap()), { ...request, operation: { prune: true } });

    expect(pruned.state.phase).toBe('Succeeded');
    expect(pruned.state.syncResult.resources.map((r) => [r.kind, r.status])).toEqual([
      ['ConfigMap', 'Synced'],
    ]);
    expect(live(h, 'v1', 'Namespace', namespace, '')?.metadata.deletionTimestamp).toBeUndefined();
    expect(live(h, 'v1', 'ConfigMap', 'web', namespace)).toBeDefined();
  });
});

describe('CreateNamespace=true into a new namespace: everything is validated before anything is applied', () => {
  const goodFirst = () => ({ ...obj('v1', 'ConfigMap', 'good-first'), data: { a: '1' } });
  const later = (name: string, labels: Record<string, string> = {}) => {
    const later = { ...obj('v1', 'ConfigMap', name, { [WAVE]: '1' }), data: { b: '2' } };
    later.metadata.labels = labels;
    return later;
  };
  const createNamespace = (dryRun = false) => ({
    operation: { dryRun, syncOptions: ['CreateNamespace=true'] },
  });

  it('creates the namespace first, then dry-runs every object on the server: a later invalid one applies nothing', async () => {
    const namespace = `validate-ns-${++n}`;
    // The label value is only checked by the API server: proof the dry run ran in the namespace just created.
    const run = await syncObjects(h, sourced(goodFirst(), later('bad-label', { tier: 'not valid!' })), {
      namespace,
      application: namespace,
      ...createNamespace(),
    });

    expect(run.state.phase).toBe('Failed');
    expect(run.state.message).toContain('failed to apply (dry run)');
    expect(run.state.message).toContain('ConfigMap/bad-label');
    expect(live(h, 'v1', 'Namespace', namespace, '')).toBeDefined();
    expect(live(h, 'v1', 'ConfigMap', 'good-first', namespace)).toBeUndefined();
  });

  it('refuses an invalid name (Bad_Name) before wave 0 is applied', async () => {
    const namespace = `validate-ns-${++n}`;
    const run = await syncObjects(h, sourced(goodFirst(), later('Bad_Name')), {
      namespace,
      application: namespace,
      ...createNamespace(),
    });

    expect(run.state.phase).toBe('Failed');
    expect(run.state.message).toContain('Bad_Name');
    expect(live(h, 'v1', 'ConfigMap', 'good-first', namespace)).toBeUndefined();
  });

  it('a dry run creates nothing, still refuses Bad_Name (checked client-side) and reports nothing as Succeeded', async () => {
    const namespace = `validate-ns-${++n}`;
    const run = await syncObjects(h, sourced(goodFirst(), later('Bad_Name')), {
      namespace,
      application: namespace,
      ...createNamespace(true),
    });

    expect(run.state.phase).toBe('Failed');
    expect(run.state.message).toContain('is invalid: metadata.name: Invalid value: "Bad_Name"');
    expect(live(h, 'v1', 'Namespace', namespace, '')).toBeUndefined();
  });

  it('a successful dry run says which objects the server could not validate without the namespace', async () => {
    const namespace = `validate-ns-${++n}`;
    const run = await syncObjects(h, sourced(goodFirst(), later('good-later')), {
      namespace,
      application: namespace,
      ...createNamespace(true),
    });

    expect(run.state.phase).toBe('Succeeded');
    expect(run.state.message).toContain('not validated by the server');
    expect(run.state.message).toContain('ConfigMap/good-first, ConfigMap/good-later');
    const messages = run.state.syncResult.resources
      .filter((r) => r.kind === 'ConfigMap')
      .map((r) => r.message);
    expect(messages).toEqual([
      `name checked only: the server dry run needs namespace ${namespace}, which this sync creates`,
      `name checked only: the server dry run needs namespace ${namespace}, which this sync creates`,
    ]);
    expect(live(h, 'v1', 'Namespace', namespace, '')).toBeUndefined();
  });

  it('a CR whose CRD this sync creates skips the server dry run (as Argo CD) but an invalid name still applies nothing', async () => {
    const namespace = `validate-ns-${++n}`;
    const widget = obj('example.com/v1', 'Widget', 'Bad_Widget', { [WAVE]: '1' }, { namespace });
    const run = await syncObjects(
      h,
      sourced(servedCrd('example.com', 'Widget', 'widgets'), goodFirst(), widget),
      {
        namespace,
        application: namespace,
        ...createNamespace(),
      },
    );

    expect(run.state.phase).toBe('Failed');
    expect(run.state.message).toContain('Widget "Bad_Widget" is invalid');
    expect(live(h, 'v1', 'ConfigMap', 'good-first', namespace)).toBeUndefined();
  });
});
