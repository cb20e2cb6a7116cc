import { describe, expect, it } from 'vitest';
import {
  NOTIFICATION_TRIGGERS,
  parseEnvironmentSubscriptions,
  parseSubscriptionAnnotations,
  subscribedChannels,
} from './notification-subscriptions.js';

describe('src/applications/notification-subscriptions', () => {
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

  it("reads the notifications.argoproj.io/subscriptions YAML annotation: Argo CD's trigger/destinations form and the recipients/triggers form", () => {
    const { subscriptions, warnings } = parseSubscriptionAnnotations({
      'notifications.argoproj.io/subscriptions': `
- trigger: [on-sync-succeeded, on-deployed]
  destinations:
    - service: slack
      recipients: [C0ONE, C0TWO]
    - service: email
      recipients: [ops@example.com]
- recipients: [slack:C0THREE, email:ops@example.com, C0BARE]
  triggers: [on-sync-failed, on-sync-status-unknown]
- destinations: [{ service: slack, recipients: [C0EVERY] }]
`,
    });

    expect(subscriptions.get('on-sync-succeeded')).toEqual(['C0ONE', 'C0TWO', 'C0EVERY']);
    expect(subscriptions.get('on-deployed')).toEqual(['C0ONE', 'C0TWO', 'C0EVERY']);
    expect(subscriptions.get('on-sync-failed')).toEqual(['C0THREE', 'C0EVERY']);
    expect(subscriptions.get('on-rollback')).toEqual(['C0EVERY']);
    const key = 'notifications.argoproj.io/subscriptions';
    expect(warnings).toEqual([
      `${key}[0]: service "email" is not supported (wavesync posts to slack only); ignored`,
      `${key}[1]: recipient "email:ops@example.com" is not supported (wavesync posts to slack only); ignored`,
      `${key}[1]: recipient "C0BARE" names no service (write slack:C0BARE); ignored`,
      `${key}[1]: unknown trigger "on-sync-status-unknown" (known: ${NOTIFICATION_TRIGGERS.join(', ')}); ignored`,
    ]);
  });

  it('warns about a malformed notifications.argoproj.io/subscriptions annotation and keeps the other subscriptions', () => {
    const key = 'notifications.argoproj.io/subscriptions';
    const cases: [string, RegExp][] = [
      [
        '- trigger: [on-deployed\n  destinations: x',
        /^notifications\.argoproj\.io\/subscriptions: not valid YAML \(.+\); ignored$/,
      ],
      [
        'trigger: on-deployed',
        /^notifications\.argoproj\.io\/subscriptions: expected a list of subscriptions; ignored$/,
      ],
      [
        '- trigger: on-deployed\n  destinations: slack',
        /^notifications\.argoproj\.io\/subscriptions\[0\]: .*destinations.*; ignored$/,
      ],
      ['- 42', /^notifications\.argoproj\.io\/subscriptions\[0\]: .+; ignored$/],
    ];
    for (const [value, warning] of cases) {
      const { subscriptions, warnings } = parseSubscriptionAnnotations({
        [key]: value,
        'notifications.argoproj.io/subscribe.on-deployed.slack': 'C0KEPT',
      });
      expect(subscriptions.get('on-deployed')).toEqual(['C0KEPT']);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(warning);
    }
  });
});
