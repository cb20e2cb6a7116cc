/**
 * Notification subscriptions end to end (issue 17), through `wavesync serve` (bot + worker): signed `/sync`
 * commands, the fake Slack Web API, the Kubernetes API simulator over HTTP, the real queue on the real Redis.
 * Subscriptions come from the Applications' `notifications.argoproj.io/subscribe.<trigger>.slack` annotations (as
 * Argo CD's notifications controller reads them) and from the environment's defaults in wavesync.yaml.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../integration/support/queue-test-env.js';
import {
  type ServeStack,
  stagingApplicationYaml,
  startServeStack,
  webDeploymentYaml,
} from '../support/serve-stack.js';

const USERS = { U0PAT: 'pat' } as const;
const SETTINGS = `
applications:
  - directory: applications
defaults:
  healthTimeoutSeconds: 20
  driftDetection: { enabled: false }
environments:
  staging:
    subscriptions: { on-sync-succeeded: [C0TEAM] }
`;

let stack: ServeStack;

beforeAll(async () => {
  stack = await startServeStack({
    settings: SETTINGS,
    users: USERS,
    files: {
      'applications/shop.yaml': stagingApplicationYaml('shop', '{ repoURL: "", path: manifests/shop }', {
        annotations: { 'notifications.argoproj.io/subscribe.on-deployed.slack': 'C0DEPLOYED;C0RELEASES' },
      }),
      'manifests/shop/deployment.yaml': webDeploymentYaml('nginx:1.27', 600),
      // The Deployment's Pods can never pull their image: once the operation Succeeded (its only wave applied),
      // the rollout passes its progress deadline and the Deployment turns Degraded (ProgressDeadlineExceeded).
      'applications/api.yaml': stagingApplicationYaml('api', '{ repoURL: "", path: manifests/api }', {
        annotations: { 'notifications.argoproj.io/subscribe.on-health-degraded.slack': 'C0DEGRADED' },
      }),
      // Automated (so drift detection compares it), subscribed to on-health-degraded.
      'applications/watch.yaml': stagingApplicationYaml('watch', '{ repoURL: "", path: manifests/watch }', {
        automated: true,
        annotations: { 'notifications.argoproj.io/subscribe.on-health-degraded.slack': 'C0WATCH' },
      }),
      'manifests/watch/deployment.yaml': webDeploymentYaml('nginx:1.27', 600),
      'manifests/api/deployment.yaml': webDeploymentYaml('registry.example/api:does-not-exist', 2),
    },
  });
}, 60_000);

afterAll(async () => {
  await stack?.close();
});

const texts = (channel: string) => stack.slack.channelMessages(channel).map((m) => stack.text(channel, m.ts));
const headerOf = (channel: string) => stack.slack.channelMessages(channel).find((m) => !m.threadTs);

describe('test/e2e/chatops/notifications', () => {
  it('when an app with an on-deployed subscription annotation syncs and is Healthy, then each subscribed channel gets one notice linking the thread', async () => {
    await stack.command('shop', 'C0SHOP', 'U0PAT');
    const [entry] = await stack.finished('shop', 1);
    expect(entry).toMatchObject({ phase: 'Succeeded', health: { status: 'Healthy' } });
    const header = headerOf('C0SHOP');
    const link = `https://fake.slack.test/archives/C0SHOP/p${header?.ts.replace('.', '')}`;
    // The job's reporters (the notifier among them) are closed before the job is recorded as ended: every notice
    // of the operation has been posted by now.

    for (const channel of ['C0DEPLOYED', 'C0RELEASES']) {
      const notices = texts(channel);
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatch(
        /^🚀 shop → staging deployed · Healthy · revision \S+ · requested by @U0PAT/,
      );
      expect(JSON.stringify(stack.slack.channelMessages(channel)[0]?.blocks)).toContain(link);
    }
    // The environment's default subscription (on-sync-succeeded → C0TEAM) applies too.
    expect(texts('C0TEAM').filter((t) => t.startsWith('✅ shop → staging sync Succeeded'))).toHaveLength(1);
  }, 60_000);

  it('when a Deployment turns Degraded after a Succeeded sync, then on-health-degraded fires once', async () => {
    await stack.command('api', 'C0API', 'U0PAT');
    const [entry] = await stack.finished('api', 1);
    expect(entry).toMatchObject({ phase: 'Succeeded', health: { status: 'Degraded' } });

    const notices = texts('C0DEGRADED');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      /^⚠️ api → staging is Degraded after sync · revision \S+ · requested by @U0PAT/,
    );
    expect(notices[0]).toContain('Deployment/web Degraded');
    // A local folder cannot be rolled back: no Roll back button on its notice.
    expect(JSON.stringify(stack.slack.channelMessages('C0DEGRADED')[0]?.blocks)).not.toContain(
      'wavesync_rollback',
    );
    // The app with no on-deployed subscription posted nothing there.
    expect(texts('C0DEPLOYED').some((t) => t.includes('api'))).toBe(false);
  }, 60_000);

  it('when a Deployment turns Degraded long after its Succeeded and Healthy sync, then the drift check fires on-health-degraded once', async () => {
    await stack.command('watch', 'C0WATCHAPP', 'U0PAT');
    const [entry] = await stack.finished('watch', 1);
    expect(entry).toMatchObject({ phase: 'Succeeded', health: { status: 'Healthy' } });
    expect(texts('C0WATCH')).toEqual([]);
    // Someone sets an image that cannot be pulled, and a short progress deadline: the rollout passes it. (The
    // deadline is shortened only now: a 2 s deadline from the start raced the first, healthy rollout on a loaded
    // machine, which then turned Degraded before the sync's health was taken.)
    const live = await stack.apps.readNamespacedDeployment({ name: 'web', namespace: 'watch' });
    live.spec!.progressDeadlineSeconds = 2;
    live.spec!.template.spec!.containers[0]!.image = 'registry.example/web:does-not-exist';
    await stack.apps.replaceNamespacedDeployment({ name: 'web', namespace: 'watch', body: live });
    await waitFor(
      async () => {
        const d = await stack.apps.readNamespacedDeployment({ name: 'web', namespace: 'watch' });
        return d.status?.conditions?.some((c) => c.reason === 'ProgressDeadlineExceeded');
      },
      20_000,
      'the Deployment past its progress deadline',
    );

    await stack.serve.drift!.tick();
    await stack.serve.drift!.tick();

    const notices = texts('C0WATCH');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      /^⚠️ watch → staging is Degraded after sync · revision \S+ · requested by @U0PAT/,
    );
    expect(notices[0]).toContain('Deployment/web Degraded');
    expect(notices[0]).toContain('(seen by drift detection)');
  }, 60_000);
});
