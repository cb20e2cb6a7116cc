import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { BotError } from '../../../src/domain/index.js';
import { createLogger } from '../../../src/logger.js';
import { startWavesync } from '../../../src/main/start-wavesync.js';
import { failure } from '../../support/failure.js';
import { REDIS_URL } from '../support/queue-test-env.js';

let dir: string;

const application = (environment: string) =>
  [
    'apiVersion: argoproj.io/v1alpha1',
    'kind: Application',
    'metadata:',
    '  name: payments',
    '  namespace: argocd',
    `  labels: { wavesync.io/environment: ${environment} }`,
    'spec:',
    '  project: default',
    '  source: { repoURL: "", path: manifests }',
    '  destination: { server: https://kubernetes.default.svc, namespace: payments }',
  ].join('\n');

async function start(settings: string, environment = 'production'): Promise<BotError> {
  await writeFile(path.join(dir, 'wavesync.yaml'), settings);
  await writeFile(path.join(dir, 'applications', 'payments.yaml'), application(environment));
  const config = loadConfig({ WAVESYNC_CONFIG: path.join(dir, 'wavesync.yaml'), REDIS_URL, PORT: '0' });
  return failure<BotError>(
    startWavesync('worker', { config, logger: createLogger({ level: 'silent' }), host: '127.0.0.1' }),
  );
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'wavesync-refuse-'));
  await mkdir(path.join(dir, 'applications'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('test/integration/approvals/refuse-to-start', () => {
  it('when an Application names an environment wavesync.yaml does not define, then the process refuses to start', async () => {
    const error = await start(
      'applications: [{ directory: applications }]\nenvironments: { production: {} }\n',
      'prod',
    );

    expect(error).toBeInstanceOf(BotError);
    expect(error.code).toBe('invalid_config');
    expect(error.message).toContain(
      'Application payments: wavesync.io/environment: unknown environment "prod" (wavesync.yaml environments: production)',
    );
  });

  it('when an environment has an unknown key or a bad cron, then the error names each key', async () => {
    const error = await start(
      [
        'applications: [{ directory: applications }]',
        'environments:',
        '  production:',
        '    requireApprovals: true',
        '    freezeWindows: [{ name: q, cron: "0 25 * * *", durationMinutes: 60 }]',
      ].join('\n'),
    );

    expect(error.code).toBe('invalid_config');
    expect(error.message).toContain('wavesync.yaml:4: environments.production.requireApprovals: unknown key');
    expect(error.message).toContain(
      'wavesync.yaml:5: environments.production.freezeWindows[0].cron: invalid cron expression',
    );
  });
});
