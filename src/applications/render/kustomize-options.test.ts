import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../../../test/support/failure.js';
import { testApplication } from '../../../test/support/test-application.js';
import type { ApplicationSourceKustomize, KubeObject } from '../../domain/index.js';
import { createApplicationRenderer } from './render-application.js';

/** `${ARGOCD_APP_NAME}` as Argo CD users write it (not a template literal). */
const APP_NAME = '$' + '{ARGOCD_APP_NAME}';

const HAS_KUBECTL = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v kustomize || command -v kubectl'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const KUSTOMIZATION = `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
commonLabels:
  team: web
resources:
  - deployment.yaml
`;
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
        - name: web
          image: nginx:1.25
          ports:
            - containerPort: 80
`;
const COMPONENT = `apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
resources:
  - configmap.yaml
`;
const CONFIGMAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\ndata: { a: "1" }\n';

let base: string;
beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'wavesync-kustomize-options-'));
  await mkdir(path.join(base, 'app/components/extra'), { recursive: true });
  await writeFile(path.join(base, 'app/kustomization.yaml'), KUSTOMIZATION);
  await writeFile(path.join(base, 'app/deployment.yaml'), DEPLOYMENT);
  await writeFile(path.join(base, 'app/components/extra/kustomization.yaml'), COMPONENT);
  await writeFile(path.join(base, 'app/components/extra/configmap.yaml'), CONFIGMAP);
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

type Deployment = KubeObject & {
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec: {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
      spec: { containers: { image: string; ports: { containerPort: number }[] }[] };
    };
  };
};

async function render(kustomize: ApplicationSourceKustomize, versions?: Record<string, string>) {
  const renderer = createApplicationRenderer({
    baseDir: base,
    ...(versions === undefined ? {} : { kustomizeVersions: versions }),
  });
  const app = testApplication({ name: 'shop', source: { repoURL: '', path: 'app', kustomize } });
  const rendered = await renderer.renderApplication(app);
  const objects = rendered.targets.map((t) => t.object);
  return { objects, deployment: objects.find((o) => o.kind === 'Deployment') as Deployment };
}

describe.skipIf(!HAS_KUBECTL)(
  'kustomize options as Argo CD applies them (needs kustomize or kubectl)',
  () => {
    it('applies inline patches (JSON 6902 with a target, and strategic merge), after the kustomization’s own', async () => {
      const { deployment } = await render({
        patches: [
          {
            target: { kind: 'Deployment', name: 'web' },
            patch:
              '- op: replace\n  path: /spec/template/spec/containers/0/ports/0/containerPort\n  value: 443',
          },
          {
            patch:
              'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    metadata:\n      annotations: { patched: "yes" }',
          },
        ],
      });

      expect(deployment.spec.template.spec.containers[0]?.ports[0]?.containerPort).toBe(443);
      expect(deployment.spec.template.metadata.annotations).toEqual({ patched: 'yes' });
      const source = await readFile(path.join(base, 'app/kustomization.yaml'), 'utf8');
      expect(source).toBe(KUSTOMIZATION);
    });

    it('sets replicas, namespace, nameSuffix and images (substituted with the build environment)', async () => {
      const { deployment } = await render({
        replicas: [{ name: 'web', count: 3 }],
        namespace: 'shop-ns',
        nameSuffix: '-v2',
        images: [`nginx=registry.example.com/${APP_NAME}:1.27`],
      });

      expect(deployment.metadata.name).toBe('web-v2');
      expect(deployment.metadata.namespace).toBe('shop-ns');
      expect(deployment.spec.replicas).toBe(3);
      expect(deployment.spec.template.spec.containers[0]?.image).toBe('registry.example.com/shop:1.27');
    });

    it('adds commonLabels to metadata, selectors and templates, substituting ARGOCD_APP_*', async () => {
      const { deployment } = await render({ commonLabels: { owner: `${APP_NAME}-team` } });

      expect(deployment.metadata.labels).toMatchObject({ owner: 'shop-team', team: 'web' });
      expect(deployment.spec.selector.matchLabels).toMatchObject({ owner: 'shop-team' });
      expect(deployment.spec.template.metadata.labels).toMatchObject({ owner: 'shop-team' });
    });

    it('refuses a commonLabel the kustomization already sets unless forceCommonLabels, as kustomize edit add label', async () => {
      const error = await failure(render({ commonLabels: { team: 'payments' } }));
      expect(error.message).toBe(
        'kustomize.commonLabels: label team is already in app/kustomization.yaml; ' +
          'set kustomize.forceCommonLabels: true to override it',
      );

      const { deployment } = await render({ commonLabels: { team: 'payments' }, forceCommonLabels: true });
      expect(deployment.metadata.labels).toMatchObject({ team: 'payments' });
    });

    it('labelWithoutSelector leaves selectors (and templates, unless labelIncludeTemplates) alone', async () => {
      const without = await render({ commonLabels: { tier: 'front' }, labelWithoutSelector: true });
      expect(without.deployment.metadata.labels).toMatchObject({ tier: 'front' });
      expect(without.deployment.spec.selector.matchLabels).not.toHaveProperty('tier');
      expect(without.deployment.spec.template.metadata.labels).not.toHaveProperty('tier');

      const templates = await render({
        commonLabels: { tier: 'front' },
        labelWithoutSelector: true,
        labelIncludeTemplates: true,
      });
      expect(templates.deployment.spec.selector.matchLabels).not.toHaveProperty('tier');
      expect(templates.deployment.spec.template.metadata.labels).toMatchObject({ tier: 'front' });
    });

    it('adds commonAnnotations, substituted only with commonAnnotationsEnvsubst', async () => {
      const plain = await render({ commonAnnotations: { by: APP_NAME } });
      expect(plain.deployment.metadata).toMatchObject({ annotations: { by: APP_NAME } });

      const substituted = await render({
        commonAnnotations: { by: APP_NAME },
        commonAnnotationsEnvsubst: true,
      });
      expect(substituted.deployment.metadata).toMatchObject({ annotations: { by: 'shop' } });
    });

    it('adds components; a missing one is an error naming it, or left out with ignoreMissingComponents', async () => {
      const { objects } = await render({ components: ['components/extra'] });
      expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
        'ConfigMap/extra',
        'Deployment/web',
      ]);

      const error = await failure(render({ components: ['components/extra', 'components/gone'] }));
      expect(error.message).toContain('kustomize.components: components/gone not found in app');

      const ignored = await render({
        components: ['components/extra', 'components/gone'],
        ignoreMissingComponents: true,
      });
      expect(ignored.objects).toHaveLength(2);
    });

    it('renders with the binary wavesync.yaml declares for kustomize.version, and refuses an undeclared one', async () => {
      const error = await failure(render({ version: 'v4.5.7' }, {}));
      expect(error.message).toBe(
        'spec.source.kustomize.version v4.5.7 is not declared in wavesync.yaml ' +
          '(kustomize.versions: {v4.5.7: /path/to/kustomize}; declared: none)',
      );

      const marker = path.join(base, 'ran-v4');
      const wrapper = path.join(base, 'kustomize-v4');
      await writeFile(
        wrapper,
        `#!/bin/sh\ntouch ${marker}\nshift\nif command -v kustomize >/dev/null; then exec kustomize build "$@"; fi\nexec kubectl kustomize "$@"\n`,
      );
      await chmod(wrapper, 0o755);
      const { deployment } = await render({ version: 'v4.5.7' }, { 'v4.5.7': wrapper });
      expect(deployment.metadata.name).toBe('web');
      await expect(readFile(marker, 'utf8')).resolves.toBe('');
    });
  },
);
