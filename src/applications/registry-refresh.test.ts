import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSettings } from '../settings/index.js';
import { createApplicationRegistry } from './application-registry.js';
import { createRegistryRefresher } from './registry-refresh.js';

const application = (name: string) =>
  [
    'apiVersion: argoproj.io/v1alpha1',
    'kind: Application',
    `metadata: { name: ${name} }`,
    'spec:',
    `  source: { repoURL: "", path: manifests/${name} }`,
    `  destination: { server: https://kubernetes.default.svc, namespace: ${name} }`,
  ].join('\n');

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'wavesync-refresh-'));
  await mkdir(path.join(root, 'applications'));
  await writeFile(path.join(root, 'applications/guestbook.yaml'), application('guestbook'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function registry() {
  const settings = parseSettings(
    'applications:\n  - directory: applications\n',
    path.join(root, 'wavesync.yaml'),
  );
  return createApplicationRegistry(settings);
}

describe('createRegistryRefresher: reading applications: again while running', () => {
  it('picks up an added and a removed Application and says which', async () => {
    const reg = await registry();
    const logged: unknown[] = [];
    const refresher = createRegistryRefresher(reg, {
      logger: { info: (f: unknown) => void logged.push(f), warn: () => {} },
    });
    await writeFile(path.join(root, 'applications/shop.yaml'), application('shop'));
    await rm(path.join(root, 'applications/guestbook.yaml'));

    expect(await refresher.refresh()).toEqual({ added: ['shop'], removed: ['guestbook'] });
    expect(reg.names()).toEqual(['shop']);
    expect(logged).toEqual([{ added: ['shop'], removed: ['guestbook'] }]);
  });

  it('keeps the previous Applications when a read fails, and warns', async () => {
    const reg = await registry();
    const warnings: unknown[] = [];
    const refresher = createRegistryRefresher(reg, {
      logger: { info: () => {}, warn: (f: unknown) => void warnings.push(f) },
    });
    await writeFile(
      path.join(root, 'applications/bad.yaml'),
      'apiVersion: argoproj.io/v1alpha1\nkind: Application\n',
    );

    expect(await refresher.refresh()).toEqual({ added: [], removed: [] });
    expect(reg.names()).toEqual(['guestbook']);
    expect(JSON.stringify(warnings)).toContain('bad.yaml');
  });

  it('refreshIfStale reads for an unknown name at most once per minIntervalMs, and joins a read in progress', async () => {
    const reg = await registry();
    let reads = 0;
    const counting = {
      names: () => reg.names(),
      reload: async () => {
        reads++;
        await reg.reload();
      },
    };
    let clock = 0;
    const refresher = createRegistryRefresher(counting, { minIntervalMs: 5000, now: () => clock });
    await writeFile(path.join(root, 'applications/shop.yaml'), application('shop'));

    await Promise.all([refresher.refreshIfStale(), refresher.refreshIfStale()]);
    expect(reads).toBe(1);
    expect(reg.names()).toContain('shop');
    clock = 4000;
    await refresher.refreshIfStale();
    expect(reads).toBe(1);
    clock = 5000;
    await refresher.refreshIfStale();
    expect(reads).toBe(2);
  });

  it('refreshIfStale answers within waitMs even when the read is slow (Slack wants its ack within 3 s)', async () => {
    let release: () => void = () => {};
    const slow = { names: () => [], reload: () => new Promise<void>((resolve) => (release = resolve)) };
    const refresher = createRegistryRefresher(slow, { waitMs: 50 });
    const started = Date.now();
    await refresher.refreshIfStale();
    expect(Date.now() - started).toBeLessThan(5000);
    release();
    await refresher.stop();
  });
});
