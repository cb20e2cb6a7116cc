import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createApprovalStore,
  createAuditLog,
  createFailureNotifier,
  type FailureNotifier,
} from '../../../src/approvals/index.js';
import type { Application, OperationState, SyncEvent, TaskRef } from '../../../src/domain/index.js';
import { parseSettings } from '../../../src/settings/index.js';
import { createSlackApprovalMessenger } from '../../../src/slack/slack-approval-messenger.js';
import { createSlackWebClient } from '../../../src/slack/slack-web-client.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { deleteKeys, testRedis, uniquePrefix } from '../support/queue-test-env.js';

const redis = testRedis();
const settings = parseSettings(
  [
    'environments:',
    '  production:',
    '    notifications: { channel: C0ALERTS, mention: [here] }',
    '  quiet: {}',
  ].join('\n'),
  path.join('/etc/wavesync', 'wavesync.yaml'),
);
const apps: Record<string, Application> = Object.fromEntries(
  [
    ['web', 'production'],
    ['docs', 'quiet'],
  ].map(([name = '', env = '']) => [
    name,
    {
      name,
      namespace: 'argocd',
      project: 'default',
      source: { repoURL: '', path: name },
      destination: { namespace: name },
      finalizers: [],
      labels: { 'wavesync.io/environment': env },
      annotations: {},
      manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name } },
      origin: `${name}.yaml:1`,
    },
  ]),
);
let slack: FakeSlackApi;
let prefix: string;
let notifier: FailureNotifier;
const errors: unknown[] = [];

const at = '2026-11-29T10:00:00.000Z';
const deployment: TaskRef = {
  group: 'apps',
  kind: 'Deployment',
  namespace: 'web',
  name: 'web',
  isHook: false,
  isPrune: false,
};

function state(phase: OperationState['phase'], message: string): OperationState {
  return {
    operation: { prune: false, dryRun: false, syncOptions: [] },
    phase,
    message,
    syncResult: {
      revision: '3f9c2e1aa0b4c5d6e7f8091a2b3c4d5e6f708192',
      resources: [
        {
          group: 'apps',
          version: 'v1',
          kind: 'Deployment',
          namespace: 'web',
          name: 'web',
          syncPhase: 'Sync',
          wave: 0,
          status: phase === 'Error' ? 'SyncFailed' : 'Synced',
          message:
            phase === 'Error' ? 'admission webhook denied the request' : 'deployment.apps/web configured',
        },
      ],
    },
    startedAt: at,
  };
}

async function run(application: string, jobId: string, events: SyncEvent[]): Promise<void> {
  const reporter = notifier.reporterFor({
    jobId,
    request: {
      application,
      operation: { prune: false, dryRun: false, syncOptions: [] },
      initiator: { userId: 'U0PAT', userName: 'pat' },
      target: undefined,
      requestKey: jobId,
    },
  });
  for (const event of events) await reporter.report(event);
  await reporter.close();
}

const completed = (phase: OperationState['phase'], message: string): SyncEvent => ({
  type: 'OperationCompleted',
  at,
  phase,
  message,
  durationMs: 10,
  state: state(phase, message),
});

beforeEach(async () => {
  prefix = uniquePrefix();
  slack = await FakeSlackApi.start({ postIntervalMs: 1, burst: 100 });
  const messenger = createSlackApprovalMessenger(
    createSlackWebClient({ botToken: slack.botToken, apiUrl: slack.apiUrl, retries: 0 }),
  );
  notifier = createFailureNotifier({
    redis,
    prefix,
    settings,
    findApplication: (name) => apps[name],
    store: createApprovalStore(redis, { prefix }),
    audit: createAuditLog(redis, prefix),
    poster: messenger,
    onError: (error) => errors.push(error),
  });
  errors.length = 0;
});
afterEach(async () => {
  await slack.close();
  await deleteKeys(redis, prefix);
});
afterAll(() => redis.quit());

describe('test/integration/approvals/failure-notifier', () => {
  it('when a sync Succeeded but the app is Degraded, then it is announced with the unhealthy resource', async () => {
    await run('web', 'job-1', [
      completed('Succeeded', 'successfully synced (all tasks run)'),
      {
        type: 'HealthAssessed',
        at,
        health: { status: 'Degraded' },
        afterMs: 5,
        unhealthy: [{ task: deployment, health: { status: 'Degraded', message: 'ImagePullBackOff' } }],
      },
    ]);

    const [alert] = slack.channelMessages('C0ALERTS');
    expect(alert?.text).toBe(
      '❌ web → production is Degraded after sync · revision 3f9c2e1 · requested by @U0PAT: Deployment/web Degraded: ImagePullBackOff <!here>',
    );
  });

  it('when an operation Errors, then the failing resource is named; when nothing is configured, nothing is posted', async () => {
    await run('web', 'job-2', [completed('Error', 'one or more objects failed to apply')]);
    await run('docs', 'job-3', [completed('Failed', 'hook failed')]);

    expect(slack.channelMessages('C0ALERTS').map((m) => m.text)).toEqual([
      '❌ web → production errored · revision 3f9c2e1 · requested by @U0PAT: Sync Deployment/web failed: admission webhook denied the request <!here>',
    ]);
  });

  it('when Slack rejects the notice, then a retry of the same job delivers it once', async () => {
    slack.failNext('chat.postMessage', 'internal_error');

    await run('web', 'job-4', [completed('Failed', 'hook failed')]);
    await run('web', 'job-4', [completed('Failed', 'hook failed')]);
    await run('web', 'job-4', [completed('Failed', 'hook failed')]);

    expect(errors).toHaveLength(1);
    expect(slack.channelMessages('C0ALERTS')).toHaveLength(1);
  });
});
