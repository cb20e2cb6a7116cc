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
    helm: object({
      releaseName: str.optional(),
      valueFiles: z.array(str).optional(),
      values: str.optional(),
      valuesObject: z.record(str, z.unknown()).optional(),
      parameters: z
        .array(object({ name: str.min(1), value: str, forceString: z.boolean().optional() }))
        .optional(),
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
    source,
    destination,
    syncPolicy: syncPolicy.optional(),
    revisionHistoryLimit: z.number().int().nonnegative().optional(),
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
        // wavesync tracks resources with the label app.kubernetes.io/instance=<name> (Argo CD's label tracking has
        // the same limit): a longer name would fail every sync on the label's value.
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

/** The honoured fields; unknown fields pass through. */
export const ApplicationManifestSchema = buildSchema(z.looseObject);
/** The same fields with unknown keys reported (metadata and top level stay open). */
export const StrictApplicationManifestSchema = buildSchema(z.strictObject as unknown as ObjectFactory);

export type ApplicationManifest = z.infer<typeof ApplicationManifestSchema>;
