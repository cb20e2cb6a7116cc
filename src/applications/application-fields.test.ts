import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { APPLICATION_FIELDS, checkApplicationFields } from './application-fields.js';
import { StrictApplicationManifestSchema } from './application-schema.js';
import { applicationWarnings } from './application-warnings.js';
import { parseApplicationFile } from './parse-applications.js';

const DOCS = path.resolve(import.meta.dirname, '../../docs/applications.md');
const LABEL = { honoured: 'honoured', differently: 'honoured differently', refused: 'refused' } as const;

interface ZodLike {
  _zod: { def: { type: string; shape?: Record<string, ZodLike>; innerType?: ZodLike; element?: ZodLike } };
}

/** Every key path the zod schema of `spec` knows (list items take their list's path, as the table does). */
function schemaPaths(schema: ZodLike, at: string): string[] {
  const def = schema._zod.def;
  if (def.type === 'optional' && def.innerType) return schemaPaths(def.innerType, at);
  if (def.type === 'array' && def.element) return schemaPaths(def.element, at);
  if (def.type !== 'object' || !def.shape) return [];
  return Object.entries(def.shape).flatMap(([key, child]) => [
    `${at}.${key}`,
    ...schemaPaths(child, `${at}.${key}`),
  ]);
}

describe('the field table of the Application spec', () => {
  it('names every field the zod schema reads (a field added to the schema must be added to the table)', () => {
    const spec = (StrictApplicationManifestSchema as unknown as ZodLike)._zod.def.shape?.spec as ZodLike;
    const known = new Set(APPLICATION_FIELDS.map((f) => f.path));
    const opaque = APPLICATION_FIELDS.filter((f) => f.opaque).map((f) => `${f.path}.`);
    // Each `spec.sources` entry has the fields of `spec.source` (the table lists them once).
    const missing = schemaPaths(spec, 'spec')
      .map((p) => p.replace(/^spec\.sources\./, 'spec.source.'))
      .filter((p) => !known.has(p) && !opaque.some((o) => p.startsWith(o)));
    expect(missing).toEqual([]);
  });

  it('is the table of docs/applications.md, row for row (field, status, how or why)', async () => {
    const docs = await readFile(DOCS, 'utf8');
    const start = docs.indexOf('### Every field of the spec');
    const section = docs.slice(start, docs.indexOf('\n### ', start + 1));
    const rows = [...section.matchAll(/^\|\s*`([^`]+)`\s*\|\s*([^|]+?)\s*\|\s*(.*?)\s*\|$/gm)].map((m) => ({
      path: m[1],
      status: m[2],
      note: m[3],
    }));
    expect(rows).toEqual(
      APPLICATION_FIELDS.map((f) => ({ path: f.path, status: LABEL[f.status], note: f.note })),
    );
  });
});

describe('checkApplicationFields', () => {
  it('names a typo with the closest field, a field honoured differently, in sources too; honoured fields say nothing', () => {
    const found = checkApplicationFields({
      spec: {
        project: 'default',
        source: { repoURL: 'https://git.example.com/a.git', kustomise: { namePrefix: 'x-' } },
        sources: [
          { repoURL: 'https://git.example.com/b.git', path: 'k', kustomize: { kubeVersion: '1.29' } },
        ],
        destination: { namespace: 'shop' },
        syncPolicy: { retry: { limit: 2, backoff: { duration: '5s' } } },
        info: [{ name: 'team', value: 'web' }],
      },
    });

    expect(found).toEqual({
      warnings: [
        {
          path: 'spec.source.kustomise',
          message: "not a field of Argo CD's Application (did you mean spec.source.kustomize?); ignored",
        },
        {
          path: 'spec.sources[0].kustomize.kubeVersion',
          message:
            'not honoured: it only feeds `helmCharts` inflation, which wavesync does not enable (no `--enable-helm`)',
        },
      ],
      refused: [],
    });
  });

  it('warns about a project other than default, and accepts an empty jsonnet block', () => {
    const found = checkApplicationFields({
      spec: { project: 'team-a', source: { directory: { jsonnet: {} } }, destination: {} },
    });
    expect(found.refused).toEqual([]);
    expect(found.warnings.map((w) => w.path)).toEqual(['spec.project']);
  });
});

describe('refused and warned fields at load', () => {
  const app = (spec: string) =>
    [
      'apiVersion: argoproj.io/v1alpha1',
      'kind: Application',
      'metadata: { name: shop }',
      'spec:',
      '  destination: { namespace: shop }',
      spec,
    ].join('\n');

  it('refuses an Application with Jsonnet parameters or a source hydrator, naming the field and why', () => {
    const parsed = parseApplicationFile(
      app(
        '  source: { repoURL: "", path: j, directory: { jsonnet: { tlas: [{ name: a, value: b }] } } }\n' +
          '  sourceHydrator: { drySource: { repoURL: x } }',
      ),
      'apps/shop.yaml',
    );

    expect(parsed.applications).toEqual([]);
    expect(parsed.problems).toEqual([
      'apps/shop.yaml:1: spec.source.directory.jsonnet: wavesync has no Jsonnet runtime to evaluate extVars, ' +
        'tlas or libs; render the Jsonnet to YAML before committing; spec.sourceHydrator: source hydration (Argo CD 3.0, alpha) is not supported; ' +
        'point spec.source at the hydrated branch',
    ]);
  });

  it('gives the warnings of a loaded Application at its file and line, ignoreDifferences options included', () => {
    const parsed = parseApplicationFile(
      app(
        '  source: { repoURL: "", path: a, kustomize: { apiVersions: [v1] } }\n' +
          '  ignoreDifferences: [{ kind: Deployment, jsonPointers: [/spec/replicas], color: red }]',
      ),
      'apps/shop.yaml',
    );
    const [loaded] = parsed.applications;
    if (!loaded) throw new Error(parsed.problems.join('\n'));

    expect(applicationWarnings(loaded).map((w) => `${w.file}:${w.line}: ${w.message}`)).toEqual([
      'apps/shop.yaml:1: Application shop: spec.source.kustomize.apiVersions: not honoured: it only feeds `helmCharts` inflation, which wavesync does not enable (no `--enable-helm`)',
      'apps/shop.yaml:1: Application shop: spec.ignoreDifferences[0].color is not supported by wavesync: ignored',
    ]);
  });
});
