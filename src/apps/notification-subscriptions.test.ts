import { describe, expect, it } from 'vitest';
import {
  NOTIFICATION_TRIGGERS,
  parseEnvironmentSubscriptions,
  parseSubscriptionAnnotations,
  subscribedChannels,
} from './notification-subscriptions.js';

describe('src/apps/notification-subscriptions', () => {
  it('reads notifications.argoproj.io/subscribe.<trigger>.slack as the notifications controller does', () => {
    const { subscriptions, warnings } = parseSubscriptionAnnotations({
      'notifications.argoproj.io/subscribe.on-deployed.slack': ' deploys ; C0TEAM,,C0TEAM ',
      'notifications.argoproj.io/subscribe.slack': 'C0ALL',
      'notifications.argoproj.io/subscribe.on-sync-failed.email': 'ops@example.com',
      'notifications.argoproj.io/subscribe.on-sync-status-unknown.slack': 'C0X',
      'notifications.argoproj.io/subscribe.on-sync-succeeded.slack': ' ; ',
      'wavesync.io/channel': 'C0DRIFT',
    });

    expect(subscriptions.get('on-deployed')).toEqual(['deploys', 'C0TEAM', 'C0ALL']);
    // `subscribe.slack` (no trigger): every trigger.
    expect(NOTIFICATION_TRIGGERS.filter((t) => subscriptions.get(t)?.includes('C0ALL'))).toEqual([
      ...NOTIFICATION_TRIGGERS,
    ]);
    expect(warnings).toEqual([
      'notifications.argoproj.io/subscribe.on-sync-failed.email: service "email" is not supported (wavesync posts to slack only); ignored',
      `notifications.argoproj.io/subscribe.on-sync-status-unknown.slack: unknown trigger "on-sync-status-unknown" (known: ${NOTIFICATION_TRIGGERS.join(', ')}); ignored`,
      'notifications.argoproj.io/subscribe.on-sync-succeeded.slack: no channel named; ignored',
    ]);
  });

  it("merges an environment's defaults with the annotations, each channel once; unknown triggers warn", () => {
    const env = parseEnvironmentSubscriptions('staging', {
      'on-deployed': ['C0TEAM', 'C0DEPLOYS'],
      'on-deploy': ['C0X'],
    });
    const app = parseSubscriptionAnnotations({
      'notifications.argoproj.io/subscribe.on-deployed.slack': 'C0TEAM',
    });

    expect(subscribedChannels('on-deployed', app.subscriptions, env.subscriptions)).toEqual([
      'C0TEAM',
      'C0DEPLOYS',
    ]);
    expect(subscribedChannels('on-rollback', app.subscriptions, env.subscriptions)).toEqual([]);
    expect(env.warnings).toEqual([
      `environments.staging.subscriptions.on-deploy: unknown trigger (known: ${NOTIFICATION_TRIGGERS.join(', ')}); ignored`,
    ]);
  });
});
