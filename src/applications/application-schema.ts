/**
 * zod schema of the Argo CD Application (argoproj.io/v1alpha1) fields wavesync honours
 * (Argo CD `pkg/apis/application/v1alpha1/types.go`). Built twice: `loose` keeps unknown fields (they are carried
 * in `Application.manifest` and ignored); `strict` is used only to list them for a debug log.
 */
import { z } from 'zod';

type ObjectFactory = typeof z.looseObject;

function buildSchema(object: ObjectFactory) {
  const str = z.string();
  const source = object({
    repoURL: str.optional(),
    path: str.optional(),
    targetRevision: str.optional(),
    chart: str.optional(),
    directory: object({
      recurse: z.boolean().optional(),
      include: str.optional(),
      exclude: str.optional(),
    }).optional(),
    ref: str
      .regex(/^[A-Za-z0-9_-]+$/, 'must be letters, digits, - and _ (used as $ref/ in valueFiles)')
      .optional(),
    name: str.optional(),
    helm: object({
      releaseName: str.optional(),
      namespace: str.optional(),
      valueFiles: z.array(str).optional(),
      ignoreMissingValueFiles: z.boolean().optional(),
      values: str.optional(),
      valuesObject: z.record(str, z.unknown()).optional(),
      parameters: z
        .array(object({ name: str.min(1), value: str, forceString: z.boolean().optional() }))
        .optional(),
      fileParameters: z.array(object({ name: str.min(1), path: str.min(1) })).optional(),
      skipCrds: z.boolean().optional(),
      skipTests: z.boolean().optional(),
      skipSchemaValidation: z.boolean().optional(),
      kubeVersion: str.optional(),
      apiVersions: z.array(str).optional(),
      passCredentials: z.boolean().optional(),
      version: z.enum(['v3'], "only Helm v3 exists: use 'v3' or leave it out").optional(),
    }).optional(),
    kustomize: object({
      namePrefix: str.optional(),
      nameSuffix: str.optional(),
      images: z.array(str).optional(),
      replicas: z.array(object({ name: str.min(1), count: z.union([z.number().int(), str]) })).optional(),
      commonLabels: z.record(str, str).optional(),
      forceCommonLabels: z.boolean().optional(),
      labelWithoutSelector: z.boolean().optional(),
      labelIncludeTemplates: z.boolean().optional(),
      commonAnnotations: z.record(str, str).optional(),
      forceCommonAnnotations: z.boolean().optional(),
      commonAnnotationsEnvsubst: z.boolean().optional(),
      namespace: str.optional(),
      components: z.array(str).optional(),
      ignoreMissingComponents: z.boolean().optional(),
      patches: z
        .array(
          object({
            path: str.optional(),
            patch: str.optional(),
            target: object({
              group: str.optional(),
              version: str.optional(),
              kind: str.optional(),
              name: str.optional(),
              namespace: str.optional(),
              labelSelector: str.optional(),
              annotationSelector: str.optional(),
            }).optional(),
            options: z.record(str, z.boolean()).optional(),
          }).refine((p) => (p.path === undefined) !== (p.patch === undefined), {
            message: 'a patch needs exactly one of path or patch',
          }),
        )
        .optional(),
      version: str.optional(),
    }).optional(),
    plugin: object({
      name: str.optional(),
      env: z.array(object({ name: str.min(1), value: str })).optional(),
      parameters: z
        .array(
          object({
            name: str.min(1),
            string: str.optional(),
            array: z.array(str).optional(),
            map: z.record(str, str).optional(),
          }),
        )
        .optional(),
    }).optional(),
  });
  const destination = object({
    server: str.optional(),
    name: str.optional(),
    namespace: str.optional(),
  }).refine((d) => !(d.server && d.name), {
    message: "application destination can't have both name and server defined",
  });
  const syncPolicy = object({
    automated: object({
      enabled: z.boolean().optional(),
      prune: z.boolean().optional(),
      selfHeal: z.boolean().optional(),
      allowEmpty: z.boolean().optional(),
    }).optional(),
    syncOptions: z.array(str).optional(),
    retry: object({
      limit: z.number().int().optional(),
      refresh: z.boolean().optional(),
      backoff: object({
        duration: str.optional(),
        factor: z.number().optional(),
        maxDuration: str.optional(),
      }).optional(),
    }).optional(),
    managedNamespaceMetadata: object({
      labels: z.record(str, str).optional(),
      annotations: z.record(str, str).optional(),
    }).optional(),
  });
  const spec = object({
    project: str.optional(),
    // One of them; `sources` (multi-source, Argo CD ≥ 2.6) wins when both are given (parse-applications warns).
    source: source.optional(),
    sources: z.array(source).min(1, 'needs at least one source').superRefine(checkRefs).optional(),
    destination,
    syncPolicy: syncPolicy.optional(),
    revisionHistoryLimit: z.number().int().nonnegative().optional(),
  }).refine((s) => s.source !== undefined || s.sources !== undefined, {
    message: 'needs spec.source or spec.sources',
    path: ['source'],
  });
  return z.looseObject({
    apiVersion: z.literal('argoproj.io/v1alpha1'),
    kind: z.literal('Application'),
    metadata: z.looseObject({
      name: str
        .regex(
          /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/,
          'must be a DNS subdomain name (lower case, digits, - and .)',
        )
        // With label tracking (wavesync.yaml resourceTracking) the name is the value of app.kubernetes.io/instance
        // (Argo CD has the same limit there), and earlier wavesync labelled every object so: kept for every method.
        .max(
          63,
          'must be at most 63 characters: it is the value of the tracking label app.kubernetes.io/instance',
        ),
      namespace: str.optional(),
      labels: z.record(str, str).optional(),
      annotations: z.record(str, str).optional(),
      finalizers: z.array(str).optional(),
    }),
    spec,
  });
}

/** A `ref` names one source, and a chart source cannot be one (Argo CD: refs point into git repositories). */
function checkRefs(
  sources: { ref?: string | undefined; chart?: string | undefined }[],
  ctx: z.RefinementCtx,
) {
  const seen = new Map<string, number>();
  sources.forEach((s, i) => {
    if (s.ref === undefined) return;
    if (s.chart !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [i, 'ref'],
        message: 'a chart source cannot be a ref source; refs point into git repositories',
      });
    }
    const earlier = seen.get(s.ref);
    if (earlier !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [i, 'ref'],
        message: `ref "${s.ref}" is already the name of sources[${earlier}]`,
      });
    } else seen.set(s.ref, i);
  });
}

/** The honoured fields; unknown fields pass through. */
export const ApplicationManifestSchema = buildSchema(z.looseObject);
/** The same fields with unknown keys reported (metadata and top level stay open). */
export const StrictApplicationManifestSchema = buildSchema(z.strictObject as unknown as ObjectFactory);

export type ApplicationManifest = z.infer<typeof ApplicationManifestSchema>;
