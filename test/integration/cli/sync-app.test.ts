/**
 * `wavesync sync --app NAME`: the Application of wavesync.yaml synced as `/sync NAME` runs it (the worker's
 * runner), minus Slack, against the simulator; and `--app` refusing what does not fit it, in the error style.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../../sim/index.js';
import { registerSyncCommand } from '../../../src/cli/commands/sync.js';
import { createGitFixture, writeGitApplication } from '../../support/git-fixture.js';
import { runCommand } from '../../support/run-command.js';

const CONFIG = path.resolve(import.meta.dirname, '../../../examples/wavesync.yaml');

describe('wavesync sync --app', () => {
  let sim: Simulator;
  let dir: string;
  let kubeconfig: string;

  beforeAll(async () => {
    sim = await startSimulator({ speed: 20 });
    dir = await mkdtemp(path.join(tmpdir(), 'wavesync-sync-app-'));
    kubeconfig = path.join(dir, 'kubeconfig');
    await sim.writeKubeconfig(kubeconfig);
  });

  afterAll(async () => {
    await sim.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const sync = (...args: string[]) => runCommand(registerSyncCommand, ['sync', ...args]);

  it('syncs the Application from wavesync.yaml into its destination namespace, hooks and all', async () => {
    const result = await sync('--app', 'rails', '--config', CONFIG, '--kubeconfig', kubeconfig, '-o', 'json');

    expect({ stderr: result.stderr, exitCode: result.exitCode }).toEqual({ stderr: '', exitCode: 0 });
    const state = JSON.parse(result.stdout) as {
      phase: string;
      revision: string;
      resources: { kind: string; namespace: string; name: string; hookPhase?: string }[];
    };
    expect(state.phase).toBe('Succeeded');
    expect(state.revision).toMatch(/^[0-9a-f]{12}$/);
    expect(state.resources.map((r) => `${r.kind}/${r.name}`)).toEqual(
      expect.arrayContaining(['Namespace/rails', 'Job/db-migrate', 'Deployment/web', 'Job/smoke-test']),
    );
    expect(state.resources.filter((r) => r.kind === 'Deployment').map((r) => r.namespace)).toEqual(['rails']);
  }, 60_000);

  it.each([
    [
      ['--app', 'raills'],
      /^error: no Application named "raills" \(\S+wavesync\.yaml\): did you mean rails\? \(known: /,
    ],
    [
      ['--app', 'rails', '--revision', 'main'],
      /^error: --revision main: rails has a local folder as its source/,
    ],
    [['examples/rails', '--app', 'rails'], /^error: give a path or --app, not both/],
    [['--app', 'rails', '-n', 'other'], /^error: --namespace cannot be used with --app: /],
    [[], /^error: name what to sync: a manifest path, or --app <name> with wavesync\.yaml\n$/],
  ])('%j → exit 2, one error line, nothing synced', async (args, error) => {
    const result = await sync(...args, '--config', CONFIG, '--kubeconfig', kubeconfig);
    expect(result).toMatchObject({ stdout: '', exitCode: 2 });
    expect(result.stderr).toMatch(error);
  });

  it('shows a git revision as displayRevision with its ref, and keeps the full SHA and the ref in the JSON', async () => {
    const git = await createGitFixture();
    try {
      const sha = await git.commit({
        'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gapp-cm\n',
      });
      const config = await writeGitApplication(git, { name: 'gapp', namespace: 'default' });

      const text = await sync('--app', 'gapp', '--config', config, '--kubeconfig', kubeconfig, '--dry-run');
      expect(text.stderr).toBe('');
      expect(text.stdout.split('\n')[0]).toBe(`Syncing gapp at ${sha.slice(0, 7)} (main) (dry run): 1 step`);
      const json = await sync(
        '--app',
        'gapp',
        '--config',
        config,
        '--kubeconfig',
        kubeconfig,
        '--dry-run',
        '-o',
        'json',
      );
      expect(JSON.parse(json.stdout)).toMatchObject({ phase: 'Succeeded', revision: sha, ref: 'main' });
    } finally {
      await git.cleanup();
    }
  }, 60_000);
});
