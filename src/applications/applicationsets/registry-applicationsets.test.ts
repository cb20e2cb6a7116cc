/**
 * ApplicationSets wherever Applications are read (wavesync.yaml `applications:` files, git, the cluster): their
 * Applications join the registry like written ones (listed, found by name, described with their ApplicationSet),
 * follow git when the registry is read again, and the registry's rules hold (a name twice is an error naming both
 * places; an ApplicationSet that fails is an error; a refused generator is a warning, the rest still loads).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failure } from '../../../test/support/failure.js';
import { createGitFixture, type GitFixture } from '../../../test/support/git-fixture.js';
import { BotError } from '../../domain/index.js';
import { parseSettings } from '../../settings/index.js';
import { createApplicationRegistry } from '../application-registry.js';
import { createGitRepositoryCache } from '../git/git-repository-cache.js';
import { createRegistryRefresher } from '../registry-refresh.js';

let repo: GitFixture;
beforeEach(async () => {
  repo = await createGitFixture();
});
afterEach(async () => {
  await repo.cleanup();
});

const SETTINGS = (extra = '') => `
applications:
  - file: apps.yaml
  - git: { repoURL: REPO, revision: main, path: sets }
clusters:
  - { name: dev, server: https://dev.example, context: kind-dev, labels: { env: dev } }
  - { name: prod, server: https://prod.example, context: kind-prod, labels: { env: production } }
${extra}`;

const WRITTEN = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: { name: hand-written }
spec:
  source: { repoURL: "", path: manifests }
  destination: { server: https://dev.example, namespace: x }
`;

const CLUSTER_SET = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: { name: guestbook }
spec:
  goTemplate: true
  generators:
  - clusters: { selector: { matchLabels: { env: production } } }
  template:
    metadata: { name: 'guestbook-{{.name}}', labels: { wavesync.io/environment: '{{index .metadata.labels "env"}}' } }
    spec:
      source: { repoURL: https://git.example.com/guestbook.git, path: guestbook }
      destination: { server: '{{.server}}', namespace: guestbook }
`;

const ADDONS_SET = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: { name: addons }
spec:
  generators:
  - git: { repoURL: REPO, revision: main, directories: [{ path: 'addons/*' }] }
  template:
    metadata: { name: '{{path.basename}}' }
    spec:
      source: { repoURL: REPO, targetRevision: main, path: '{{path}}' }
      destination: { server: https://dev.example, namespace: '{{path.basename}}' }
`;

async function registryFor(
  apps: string,
  logger?: { debug(): void; warn(fields: unknown, msg?: string): void },
) {
  await repo.commit({
    'sets/addons.yaml': ADDONS_SET.replaceAll('REPO', repo.url),
    'addons/metrics/k.yaml': '{}\n',
  });
  await writeFile(path.join(repo.root, 'apps.yaml'), apps);
  const settings = parseSettings(
    SETTINGS().replaceAll('REPO', repo.url),
    path.join(repo.root, 'wavesync.yaml'),
  );
  const git = createGitRepositoryCache({
    cacheDir: path.join(repo.root, 'cache'),
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
  });
  return createApplicationRegistry(settings, { git, ...(logger ? { logger } : {}) });
}

describe('ApplicationSets in the registry', () => {
  it('lists generated Applications beside written ones, each knowing its ApplicationSet; git changes reach them', async () => {
    const registry = await registryFor(`${WRITTEN}---\n${CLUSTER_SET}`);

    expect(registry.names()).toEqual(['guestbook-prod', 'hand-written', 'metrics']);
    expect(registry.describe('guestbook-prod')).toMatchObject({
      applicationSet: 'guestbook',
      environment: 'production',
      destination: { server: 'https://prod.example', namespace: 'guestbook' },
      origin: expect.stringMatching(/apps\.yaml:8 \(ApplicationSet guestbook\)$/),
    });
    expect(registry.describe('metrics')).toMatchObject({ applicationSet: 'addons' });
    expect(registry.describe('hand-written')?.applicationSet).toBeUndefined();

    // A directory pushed to the repository: the next read of the registry (the periodic refresh) generates it.
    await repo.commit({ 'addons/logging/k.yaml': '{}\n' });
    const refresher = createRegistryRefresher(registry);
    expect(await refresher.refresh()).toEqual({ added: ['logging'], removed: [] });
    expect(registry.get('logging').source.path).toBe('addons/logging');
  });

  it('a generated name that a written Application already has is an error naming both places', async () => {
    const clash = CLUSTER_SET.replace(
      "'guestbook-{{.name}}'",
      '\'hand-{{.name | replace "prod" "written"}}\'',
    );
    const error = await failure(registryFor(`${WRITTEN}---\n${clash}`));
    expect(error).toBeInstanceOf(BotError);
    expect((error as BotError).message).toMatch(
      /apps\.yaml:8 \(ApplicationSet guestbook\): Application "hand-written" is already defined at .*apps\.yaml:1/,
    );
  });

  it('an ApplicationSet that cannot generate fails the load, naming it, the field and the missing key', async () => {
    const strict = CLUSTER_SET.replace(
      'goTemplate: true',
      'goTemplate: true\n  goTemplateOptions: [missingkey=error]',
    ).replace('path: guestbook', "path: '{{.values.path}}'");
    const error = await failure(registryFor(`${WRITTEN}---\n${strict}`));
    expect((error as BotError).code).toBe('invalid_manifest');
    expect((error as BotError).message).toContain(
      // The line of the offending field (the set starts at line 8).
      'apps.yaml:19: ApplicationSet "guestbook": spec.template.spec.source.path: failed to execute go template "{{.values.path}}": executing at <.values.path>: map has no entry for key "values"',
    );
  });

  it('a git generator whose revision does not exist fails the load, naming the ApplicationSet and the revision', async () => {
    const missing = ADDONS_SET.replace('revision: main', 'revision: no-such-branch').replaceAll(
      'REPO',
      repo.url,
    );
    const error = await failure(registryFor(`${WRITTEN}---\n${missing}`));
    expect((error as BotError).code).toBe('invalid_manifest');
    expect((error as BotError).message).toMatch(
      /apps\.yaml:8: ApplicationSet "addons": revision "no-such-branch" not found in file:\/\//,
    );
  });

  it('a generator wavesync cannot run is refused with a warning; the rest of the set and the other sources load', async () => {
    const warnings: string[] = [];
    const logger = {
      debug: () => undefined,
      warn: (_fields: unknown, msg?: string) => void warnings.push(msg ?? ''),
    };
    const withPr = CLUSTER_SET.replace(
      '  - clusters:',
      '  - pullRequest: { github: { owner: o, repo: r } }\n  - clusters:',
    );
    const registry = await registryFor(`${WRITTEN}---\n${withPr}`, logger);
    expect(registry.names()).toEqual(['guestbook-prod', 'hand-written', 'metrics']);
    expect(warnings).toContain(
      "spec.generators[0].pullRequest: not supported: it needs the SCM provider's pull request API, which wavesync cannot reach; the Applications this generator would generate are missing",
    );
  });

  it('reads ApplicationSets from a cluster source through the lister, asking for kind ApplicationSet', async () => {
    await writeFile(path.join(repo.root, 'apps.yaml'), WRITTEN);
    const settings = parseSettings(
      'applications: [{ cluster: { namespace: argocd } }]\nclusters: [{ name: prod, server: https://prod.example, context: p, labels: { env: production } }]\n',
      path.join(repo.root, 'wavesync.yaml'),
    );
    const { parse } = await import('yaml');
    const registry = await createApplicationRegistry(settings, {
      clusterApplications: async ({ kind }) =>
        kind === 'ApplicationSet'
          ? [{ ...parse(CLUSTER_SET), metadata: { name: 'guestbook', namespace: 'argocd', uid: 'u-1' } }]
          : [],
    });
    expect(registry.names()).toEqual(['guestbook-prod']);
    expect(registry.get('guestbook-prod').manifest.metadata).toMatchObject({
      ownerReferences: [{ kind: 'ApplicationSet', name: 'guestbook', uid: 'u-1', controller: true }],
    });
  });
});
