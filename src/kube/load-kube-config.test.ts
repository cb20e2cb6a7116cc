import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { errorReport } from '../cli/command-io.js';
import { loadKubeConfig } from './load-kube-config.js';

describe('loadKubeConfig with no kubeconfig anywhere', () => {
  let home: string;

  beforeEach(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'wavesync-home-'));
    vi.stubEnv('HOME', home);
    vi.stubEnv('KUBECONFIG', '');
  });

  afterEach(async () => {
    vi.unstubAllEnvs();
    await rm(home, { recursive: true, force: true });
  });

  it("says so and how to point at a cluster, instead of client-node's localhost:8080 fallback", () => {
    let thrown: unknown;
    try {
      loadKubeConfig();
    } catch (error) {
      thrown = error;
    }
    expect(errorReport(thrown, false)).toEqual({
      text:
        'error: no kubeconfig found ($KUBECONFIG is not set, ~/.kube/config does not exist, not running in a cluster): ' +
        'pass --kubeconfig <file> or set KUBECONFIG; to try wavesync without a cluster, start one with ' +
        '`wavesync cluster-sim --kubeconfig-out ./kubeconfig` and pass --kubeconfig ./kubeconfig\n',
      exitCode: 2,
    });
  });
});
