/**
 * The webhook secrets in force: the environment (WAVESYNC_WEBHOOK_GITHUB_SECRET, WAVESYNC_WEBHOOK_GITLAB_SECRET,
 * WAVESYNC_WEBHOOK_BITBUCKET_UUID, WAVESYNC_WEBHOOK_BITBUCKET_SERVER_SECRET, WAVESYNC_WEBHOOK_GITEA_SECRET) over
 * wavesync.yaml `webhook:` (each host's `secretEnv` variable or `secretFile`, trimmed). An empty value counts as
 * unset. @throws BotError('invalid_config') naming a `secretEnv` variable that is unset or a `secretFile` that
 * cannot be read (at start, before anything listens).
 */
import { readFileSync } from 'node:fs';
import { BotError } from '../../domain/index.js';
import type { WebhookSettings } from '../../settings/index.js';
import type { WebhookSecrets } from './webhook-payloads.js';

type Source = { secretEnv?: string | undefined; secretFile?: string | undefined } | undefined;

export function webhookSecretsOf(
  settings: WebhookSettings,
  env: Readonly<Record<string, string | undefined>>,
  resolvePath: (file: string) => string = (file) => file,
): WebhookSecrets {
  const fromSettings = (host: string, source: Source): string | undefined => {
    if (!source) return undefined;
    if (source.secretEnv !== undefined) {
      const value = env[source.secretEnv]?.trim();
      if (!value)
        throw new BotError(
          'invalid_config',
          `webhook.${host}.secretEnv: variable ${source.secretEnv} is empty or unset`,
        );
      return value;
    }
    const file = resolvePath(source.secretFile!);
    try {
      const value = readFileSync(file, 'utf8').trim();
      if (value) return value;
    } catch (error) {
      throw new BotError(
        'invalid_config',
        `webhook.${host}.secretFile: cannot read ${file}: ${(error as Error).message}`,
      );
    }
    throw new BotError('invalid_config', `webhook.${host}.secretFile: ${file} is empty`);
  };
  const pick = (name: string, host: string, source: Source) => {
    const value = env[name]?.trim();
    return value ? value : fromSettings(host, source);
  };
  const entries: [keyof WebhookSecrets, string | undefined][] = [
    ['github', pick('WAVESYNC_WEBHOOK_GITHUB_SECRET', 'github', settings.github)],
    ['gitlab', pick('WAVESYNC_WEBHOOK_GITLAB_SECRET', 'gitlab', settings.gitlab)],
    ['bitbucketUuid', pick('WAVESYNC_WEBHOOK_BITBUCKET_UUID', 'bitbucket', settings.bitbucket)],
    [
      'bitbucketServer',
      pick('WAVESYNC_WEBHOOK_BITBUCKET_SERVER_SECRET', 'bitbucketServer', settings.bitbucketServer),
    ],
    ['gitea', pick('WAVESYNC_WEBHOOK_GITEA_SECRET', 'gitea', settings.gitea)],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined)) as WebhookSecrets;
}
