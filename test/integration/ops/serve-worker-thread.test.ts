/**
 * `wavesync serve` runs its worker in a worker thread of its own (src/main/worker-thread.ts): the sync is counted
 * by the thread's metrics, not by the bot's, and both are in serve's /metrics; /healthz says the worker is up;
 * `/sync diff` is made in the thread too (its preview metric), with the same reply; close() ends the thread with the
 * rest.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServeEnv, startServeEnv } from '../support/serve-env.js';

const SECRET = 'worker-thread-secret';
const CHANNEL = 'C0THREAD';

let env: ServeEnv;

beforeAll(async () => {
  env = await startServeEnv({
    secret: SECRET,
    files: {
      'wavesync.yaml': 'applications:\n  - directory: applications\nenvironments:\n  staging: {}\n',
      'applications/web.yaml': [
        'apiVersion: argoproj.io/v1alpha1',
        'kind: Application',
        'metadata: { name: web, namespace: argocd, labels: { wavesync.io/environment: staging } }',
        'spec:',
        '  project: default',
        '  source: { repoURL: "", path: manifests }',
        '  destination: { server: https://kubernetes.default.svc, namespace: web }',
        '  syncPolicy: { syncOptions: [CreateNamespace=true] }',
        '',
      ].join('\n'),
      'manifests/settings.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings }\ndata: { mode: demo }\n',
    },
  });
}, 120_000);

afterAll(() => env?.close());

describe('test/integration/ops/serve-worker-thread', () => {
  it("when serve syncs, then the worker thread ran it: serve's /metrics counts it, the bot's own registry does not; /healthz says the worker is up", async () => {
    const base = `http://127.0.0.1:${env.wavesync.port}`;
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', role: 'serve', redis: 'ok', worker: 'up' });

    const delivery = await env.bot.sendCommand({
      text: 'web',
      userId: 'U0PAT',
      channelId: CHANNEL,
      responseUrl: env.slack.responseUrl('sync-web'),
    });
    expect(delivery.status).toBe(200);
    await env.slack.waitFor(
      () => env.slack.channelMessages(CHANNEL).find((m) => !m.threadTs && m.text.includes('Succeeded')),
      60_000,
    );

    const served = await (await fetch(`${base}/metrics`)).text();
    expect(served).toContain('wavesync_syncs_total{phase="Succeeded"} 1');
    expect(served).toMatch(/wavesync_process_resident_memory_bytes \d+/);
    expect(served).toMatch(/wavesync_worker_thread_nodejs_heap_size_used_bytes \d+/);
    expect(await env.wavesync.metrics.registry.metrics()).not.toContain(
      'wavesync_syncs_total{phase="Succeeded"}',
    );
    expect(
      (await env.cluster.get({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'web', name: 'settings' }))
        ?.data,
    ).toEqual({ mode: 'demo' });
  }, 90_000);

  it('when /sync diff is asked in serve, then the worker thread makes it (its preview is counted there, not by the bot) and the reply shows the live change', async () => {
    await env.cluster.apply(
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'settings', namespace: 'web' },
        data: { mode: 'edited-live' },
      },
      { dryRun: false, force: true, fieldManager: 'kubectl-edit' },
    );
    await env.bot.sendCommand({
      text: 'diff web',
      userId: 'U0PAT',
      channelId: CHANNEL,
      responseUrl: env.slack.responseUrl('diff-web'),
    });
    const reply = await env.slack.waitFor(() => env.slack.responseUrlPosts('diff-web')[0], 30_000);

    const text = JSON.stringify(reply.body);
    expect(reply.body).toMatchObject({ response_type: 'ephemeral' });
    expect(text).toContain('ConfigMap/settings');
    expect(text).toContain('data.mode: edited-live → demo');
    const served = await (await fetch(`http://127.0.0.1:${env.wavesync.port}/metrics`)).text();
    expect(served).toContain('wavesync_preview_duration_seconds_count{result="ok"} 1');
    expect(await env.wavesync.metrics.registry.metrics()).not.toContain(
      'wavesync_preview_duration_seconds_count{result="ok"}',
    );
  }, 60_000);
});
