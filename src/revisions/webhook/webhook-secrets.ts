/**
 * The webhook secrets in force: the environment (WAVESYNC_WEBHOOK_GITHUB_SECRET, WAVESYNC_WEBHOOK_GITLAB_SECRET,
 * WAVESYNC_WEBHOOK_BITBUCKET_UUID, WAVESYNC_WEBHOOK_BITBUCKET_SERVER_SECRET, WAVESYNC_WEBHOOK_GITEA_SECRET) over
 * wavesync.yaml `webhook:`. An empty variable counts as unset.
 */
import type { WebhookSettings } from '../../settings/index.js';
import type { WebhookSecrets } from './webhook-payloads.js';

export function webhookSecretsOf(
  settings: WebhookSettings,
  env: Readonly<Record<string, string | undefined>>,
): WebhookSecrets {
  const pick = (name: string, fallback: string | undefined) => {
    const value = env[name];
    return value !== undefined && value !== '' ? value : fallback;
  };
  const entries: [keyof WebhookSecrets, string | undefined][] = [
    ['github', pick('WAVESYNC_WEBHOOK_GITHUB_SECRET', settings.github?.secret)],
    ['gitlab', pick('WAVESYNC_WEBHOOK_GITLAB_SECRET', settings.gitlab?.secret)],
    ['bitbucketUuid', pick('WAVESYNC_WEBHOOK_BITBUCKET_UUID', settings.bitbucket?.uuid)],
    ['bitbucketServer', pick('WAVESYNC_WEBHOOK_BITBUCKET_SERVER_SECRET', settings.bitbucketServer?.secret)],
    ['gitea', pick('WAVESYNC_WEBHOOK_GITEA_SECRET', settings.gitea?.secret)],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined)) as WebhookSecrets;
}
