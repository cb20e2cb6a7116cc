import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Application, OperationState, SyncEvent, TaskRef } from '../../../src/domain/index.js';
import {
  createApprovalStore,
  createAuditLog,
  createFailureNotifier,
  type FailureNotifier,
  redisNotificationMarks,
} from '../../../src/environments/index.js';
import { parseSettings } from '../../../src/settings/index.js';
import { createSlackApprovalMessenger } from '../../../src/slack/reporters/slack-approval-messenger.js';
import { createSlackWebClient } from '../../../src/slack/slack-web-client.js';
import { FakeSlackApi } from '../../fakes/fake-slack-api.js';
import { healthyEvent, runNotifierJob } from '../../support/notifier-job.js';
import { deleteKeys, testRedis, uniquePrefix } from '../support/queue-test-env.js';

const redis = testRedis();
const settings = parseSettings(
  [
    'environments:',
    '  production:',
    '    notifications: { channel: C0ALERTS, mention: [here] }',
    '  quiet: {}',
    '  staging:',
    '    notifications: { channel: C0ALERTS }',
    '    subscriptions: { on-sync-running: [C0RUN], on-sync-failed: [C0ALERTS] }',
  ].join('\n'),
  path.join('/etc/wavesync', 'wavesync.yaml'),
);
const apps: Record<string, Application> = Object.fromEntries(
  [
    ['web', 'production'],
    ['docs', 'quiet'],
    ['shop', 'staging'],
    ['api', 'staging'],
  ].map(([name = '', env = '']) => [
    name,
    {
      name,
      namespace: 'argocd',
      project: 'default',
      source: { repoURL: name === 'shop' ? 'https://git.example.com/shop.git' : '', path: name },
      destination: { namespace: name },
      finalizers: [],
      labels: { 'wavesync.io/environment': env },
      annotations: (name === 'shop'
        ? {
            'notifications.argoproj.io/subscribe.on-deployed.slack': 'C0DEPLOYED',
            'notifications.argoproj.io/subscribe.on-sync-failed.slack': 'C0TEAM; C0ALERTS',
          }
        : name === 'api'
          ? {
              'notifications.argoproj.io/subscriptions':
                '- trigger: [on-deployed]\n  destinations: [{ service: slack, recipients: [C0APIDEPLOYS] }]\n' +
                '- triggers: [on-sync-succeeded]\n  recipients: [slack:C0APITEAM]\n',
            }
          : {}) as Record<string, string>,
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

const run = (application: string, jobId: string, events: SyncEvent[]) =>
  runNotifierJob(notifier, application, jobId, events);

const completed = (
  phase: OperationState['phase'],
  message: string,
): Extract<SyncEvent, { type: 'OperationCompleted' }> => ({
  type: 'OperationCompleted',
  at,
  phase,
  message,
  durationMs: 10,
  state: state(phase, message),
});

const healthy = healthyEvent(at);

beforeEach(async () => {
  prefix = uniquePrefix();
  slack = await FakeSlackApi.start({ postIntervalMs: 1, burst: 100 });
  const messenger = createSlackApprovalMessenger(
    createSlackWebClient({ botToken: slack.botToken, apiUrl: slack.apiUrl, retries: 0 }),
  );
  notifier = createFailureNotifier({
    marks: redisNotificationMarks(redis, prefix),
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

  it('when a subscribed app deploys and its job is run twice (a resume), then each subscribed channel gets its notice once', async () => {
    const started: SyncEvent = {
      type: 'OperationStarted',
      at,
      application: 'shop',
      revision: '3f9c2e1aa0b4c5d6e7f8091a2b3c4d5e6f708192',
      operation: { prune: false, dryRun: false, syncOptions: [] },
      waves: [],
      resumed: false,
    };
    for (let i = 0; i < 2; i++) {
      await run('shop', 'job-5', [started, completed('Succeeded', 'successfully synced'), healthy]);
    }

    expect(slack.channelMessages('C0DEPLOYED').map((m) => m.text)).toEqual([
      '🚀 shop → staging deployed · Healthy · revision 3f9c2e1 · requested by @U0PAT',
    ]);
    expect(slack.channelMessages('C0RUN').map((m) => m.text)).toEqual([
      '🔄 shop → staging sync running · revision 3f9c2e1 · requested by @U0PAT',
    ]);
    expect(slack.channelMessages('C0TEAM')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('when the same revision is synced again and is Healthy, then on-deployed does not notify again (oncePer revision, as Argo CD); a new revision does', async () => {
    const succeeded = (revision: string): Extract<SyncEvent, { type: 'OperationCompleted' }> => {
      const event = completed('Succeeded', 'successfully synced');
      return { ...event, state: { ...event.state, syncResult: { ...event.state.syncResult, revision } } };
    };
    await run('shop', 'job-6', [succeeded('3f9c2e1aa0b4c5d6e7f8091a2b3c4d5e6f708192'), healthy]);
    await run('shop', 'job-7', [succeeded('3f9c2e1aa0b4c5d6e7f8091a2b3c4d5e6f708192'), healthy]);
    await run('shop', 'job-8', [succeeded('7d41b0c22e5f60718293a4b5c6d7e8f90a1b2c3d'), healthy]);

    expect(slack.channelMessages('C0DEPLOYED').map((m) => m.text)).toEqual([
      '🚀 shop → staging deployed · Healthy · revision 3f9c2e1 · requested by @U0PAT',
      '🚀 shop → staging deployed · Healthy · revision 7d41b0c · requested by @U0PAT',
    ]);
    expect(errors).toEqual([]);
  });

  it('when an app subscribes with the notifications.argoproj.io/subscriptions YAML annotation, then its channels get the notices', async () => {
    await run('api', 'job-9', [completed('Succeeded', 'successfully synced'), healthy]);

    expect(slack.channelMessages('C0APIDEPLOYS').map((m) => m.text)).toEqual([
      '🚀 api → staging deployed · Healthy · revision 3f9c2e1 · requested by @U0PAT',
    ]);
    expect(slack.channelMessages('C0APITEAM')).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('when a hook fails, then the alerts channel and on-sync-failed subscribers get the hook log tail and Roll back, the alerts channel once', async () => {
    const failed = state('Failed', 'one or more synchronization tasks completed unsuccessfully');
    failed.syncResult.resources.push({
      group: 'batch',
      version: 'v1',
      kind: 'Job',
      namespace: 'shop',
      name: 'db-migrate',
      syncPhase: 'PreSync',
      wave: 0,
      hookType: 'PreSync',
      hookPhase: 'Failed',
      message: 'Job has reached the specified backoff limit',
      logTail: ['== 20261129 AddIndexToOrders: migrating ====', 'rake aborted! PG::UndefinedTable'],
    });
    await run('shop', 'job-6', [
      {
        type: 'OperationCompleted',
        at,
        phase: 'Failed',
        message: failed.message,
        durationMs: 10,
        state: failed,
      },
    ]);

    const [alert, ...more] = slack.channelMessages('C0ALERTS');
    expect(more).toEqual([]);
    const [team] = slack.channelMessages('C0TEAM');
    for (const message of [alert, team]) {
      const blocks = JSON.stringify(message?.blocks);
      expect(blocks).toContain(
        'PreSync hook Job/db-migrate failed: Job has reached the specified backoff limit',
      );
      expect(blocks).toContain('rake aborted! PG::UndefinedTable');
      expect(blocks).toContain('"action_id":"wavesync_rollback"');
    }
  });

  it('when a person cancels the sync, then on-sync-failed subscribers are told it was cancelled and by whom, and no failure is announced', async () => {
    await run('shop', 'job-7', [
      {
        ...completed('Failed', 'Operation terminated'),
        cancelledBy: { userId: 'U0LEE', userName: 'lee', reason: 'wrong branch' },
      },
    ]);

    expect(slack.channelMessages('C0TEAM').map((m) => m.text)).toEqual([
      '🚫 shop → staging sync cancelled by @U0LEE: wrong branch · revision 3f9c2e1 · requested by @U0PAT',
    ]);
    // The alerts channel is subscribed to on-sync-failed too: it hears of the cancel, but no failure notice.
    expect(slack.channelMessages('C0ALERTS').map((m) => m.text)).toEqual([
      '🚫 shop → staging sync cancelled by @U0LEE: wrong branch · revision 3f9c2e1 · requested by @U0PAT',
    ]);
  });
});
