import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorReport } from '../cli/command-io.js';
import { BotError } from '../domain/index.js';
import { defaultSettings, loadSettings, parseSettings, resolveSettingsPath } from './load-settings.js';

const FILE = '/etc/wavesync/wavesync.yaml';

function problemsOf(text: string): string {
  try {
    parseSettings(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(BotError);
    expect((error as BotError).code).toBe('invalid_config');
    return (error as BotError).message;
  }
  throw new Error('expected invalid settings');
}

describe('parseSettings', () => {
  it('reads every section and fills defaults', () => {
    const settings = parseSettings(
      [
        'applications:',
        '  - directory: applications',
        '  - file: more/payments.yaml',
        '  - git: { repoURL: "https://git.example.com/apps.git", path: apps }',
        '  - cluster: {}',
        'clusters:',
        '  - { server: "https://kubernetes.default.svc", name: in-cluster, context: kind-dev }',
        'gitCredentials:',
        '  - { url: "https://git.example.com/", tokenEnv: GIT_TOKEN }',
        'defaults: { healthTimeoutSeconds: 60 }',
      ].join('\n'),
      FILE,
    );

    expect(settings.baseDir).toBe('/etc/wavesync');
    expect(settings.applications).toEqual([
      { directory: 'applications' },
      { file: 'more/payments.yaml' },
      { git: { repoURL: 'https://git.example.com/apps.git', revision: 'HEAD', path: 'apps' } },
      { cluster: { namespace: 'argocd' } },
    ]);
    expect(settings.gitCredentials[0]).toEqual({
      url: 'https://git.example.com/',
      username: 'x-access-token',
      tokenEnv: 'GIT_TOKEN',
    });
    expect(settings.defaults).toEqual({
      healthTimeoutSeconds: 60,
      applyConcurrency: 32,
      startGraceSeconds: 60,
      gitCacheDir: '~/.cache/wavesync/git',
      helmCacheDir: '~/.cache/wavesync/helm',
      commandTimeoutSeconds: 120,
      gitRequestTimeoutSeconds: 15,
      registryRefreshSeconds: 180,
      historyLimit: 50,
      applicationLimits: { maxObjects: 10_000, maxManifestBytes: 16 * 1024 * 1024 },
      appOfApps: { gateOnChildHealth: true },
      driftDetection: { intervalSeconds: 180, enabled: true },
      reconciliation: { timeoutSeconds: 180, jitterSeconds: 60 },
    });
    expect(settings.environments).toEqual({});
    expect(settings.webhook).toEqual({});
  });

  it('reads the revision polling interval (argocd-cm timeout.reconciliation) and the webhook secrets, refusing unknown hosts by name', () => {
    const settings = parseSettings(
      [
        'defaults: { reconciliation: { timeoutSeconds: 0, jitterSeconds: 5 } }',
        'webhook: { github: { secretEnv: A }, bitbucket: { secretFile: b.txt }, gitea: { secretEnv: C } }',
      ].join('\n'),
      FILE,
    );
    expect(settings.defaults.reconciliation).toEqual({ timeoutSeconds: 0, jitterSeconds: 5 });
    expect(settings.webhook).toEqual({
      github: { secretEnv: 'A' },
      bitbucket: { secretFile: 'b.txt' },
      gitea: { secretEnv: 'C' },
    });
    // Never inline, like every secret in wavesync.yaml.
    expect(() => parseSettings('webhook: { github: { secret: s3cret } }', FILE)).toThrow(/secret/);
    expect(() => parseSettings('webhook: { gitee: { secretEnv: X } }', FILE)).toThrow(/gitee/);
    expect(() => parseSettings('defaults: { reconciliation: { timeoutSeconds: -1 } }', FILE)).toThrow(
      /timeoutSeconds/,
    );
  });

  it('treats an empty file as all defaults', () => {
    const settings = parseSettings('# nothing yet\n', FILE);

    expect(settings.applications).toEqual([]);
    expect(settings.defaults.healthTimeoutSeconds).toBe(300);
    expect(defaultSettings('/srv').defaults).toEqual(settings.defaults);
  });

  it("reads resourceTracking with argocd-cm's values (annotation tracking by default) and refuses an unknown method by name", () => {
    expect(parseSettings('', FILE).resourceTracking).toEqual({
      method: 'annotation',
      labelKey: 'app.kubernetes.io/instance',
    });
    const custom = parseSettings(
      'resourceTracking: { method: annotation+label, labelKey: argocd.argoproj.io/instance, installationID: east }\n',
      FILE,
    );
    expect(custom.resourceTracking).toEqual({
      method: 'annotation+label',
      labelKey: 'argocd.argoproj.io/instance',
      installationID: 'east',
    });
    expect(problemsOf('resourceTracking:\n  method: annotations\n')).toMatch(
      /wavesync\.yaml:2: resourceTracking\.method: .*"annotation"/,
    );
  });

  it('names an unknown key with its path and line', () => {
    const message = problemsOf(['applications:', '  - directory: apps', '    recurse: true'].join('\n'));

    expect(message).toContain(`${FILE}:3: applications[0].recurse: unknown key`);
  });

  it('names an unknown top-level key', () => {
    expect(problemsOf('applications: []\napprovers: [U1]\n')).toContain(`${FILE}:2: approvers: unknown key`);
  });

  it('reports every problem at once, each with its line', () => {
    const message = problemsOf(
      [
        'clusters:',
        '  - server: https://a',
        '    context: 7',
        'defaults:',
        '  healthTimeoutSeconds: -1',
      ].join('\n'),
    );

    expect(message).toMatch(new RegExp(`${FILE}:3: clusters\\[0\\]\\.context: .*string`));
    expect(message).toMatch(new RegExp(`${FILE}:5: defaults\\.healthTimeoutSeconds: .*`));
  });

  it('requires exactly one kind per applications entry', () => {
    expect(problemsOf('applications:\n  - {}\n')).toContain(
      `${FILE}:2: applications[0]: needs one of directory, file, git, cluster`,
    );
    expect(problemsOf('applications:\n  - { directory: a, file: b }\n')).toContain(
      'takes only one of directory, file, git, cluster (found directory, file)',
    );
  });

  it('requires a secret reference for git credentials and refuses inline tokens', () => {
    const message = problemsOf('gitCredentials:\n  - url: https://x/\n    token: ghp_secret\n');

    expect(message).toContain(`${FILE}:3: gitCredentials[0].token: unknown key`);
    expect(message).not.toContain('ghp_secret');
  });

  it('reads helm credentials by reference, and refuses inline passwords and half-given pairs', () => {
    const settings = parseSettings(
      'helmCredentials:\n  - { url: oci://r.example/charts, username: robot, passwordEnv: P, caFile: ca.pem }\n',
      FILE,
    );
    expect(settings.helmCredentials).toEqual([
      {
        url: 'oci://r.example/charts',
        username: 'robot',
        passwordEnv: 'P',
        caFile: 'ca.pem',
        insecure: false,
        insecureOCIForceHttp: false,
      },
    ]);
    expect(settings.defaults.helmCacheDir).toBe('~/.cache/wavesync/helm');
    const inline = problemsOf('helmCredentials:\n  - { url: https://c/, username: u, password: hunter2 }\n');
    expect(inline).toContain(`${FILE}:2: helmCredentials[0].password: unknown key`);
    expect(inline).not.toContain('hunter2');
    expect(problemsOf('helmCredentials:\n  - { url: https://c/, username: u }\n')).toContain(
      'username needs passwordEnv or passwordFile, and they need username',
    );
    expect(problemsOf('helmCredentials:\n  - { url: https://c/, certFile: c.pem }\n')).toContain(
      'certFile and keyFile go together',
    );
  });

  it('reports YAML syntax errors with their line', () => {
    expect(problemsOf('applications:\n  - directory: a\n bad: [\n')).toMatch(new RegExp(`${FILE}:\\d+: `));
  });
});

describe('loadSettings', () => {
  it('reads a file and roots relative paths at its directory', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'wavesync-settings-'));
    const file = path.join(dir, 'wavesync.yaml');
    await writeFile(file, 'applications:\n  - directory: applications\n');

    const settings = await loadSettings(file);

    expect(settings.file).toBe(file);
    expect(resolveSettingsPath(settings, 'applications')).toBe(path.join(dir, 'applications'));
  });

  it('names the file when it does not exist, in the error format, with the fix', async () => {
    const error = await loadSettings('/nonexistent/wavesync.yaml').catch((e: unknown) => e);

    expect(errorReport(error, false)).toEqual({
      text:
        'error: settings file not found (/nonexistent/wavesync.yaml): check the path given to --config or ' +
        'WAVESYNC_CONFIG; docs/applications.md shows a wavesync.yaml to start from\n',
      exitCode: 2,
    });
  });
});
