/**
 * zod schema of the ApplicationSet (argoproj.io/v1alpha1) fields wavesync reads (Argo CD
 * `pkg/apis/application/v1alpha1/applicationset_types.go`). Strict: a key wavesync does not know is an error naming
 * its path, never dropped. The generators that need a service wavesync cannot reach (pullRequest, scmProvider,
 * clusterDecisionResource, plugin) pass the schema and are refused by name when the set is generated, so the rest
 * of the ApplicationSet still generates and the refusal says which Applications are missing. The template's
 * Application fields are checked after rendering, as the generated Application (parse-applications.ts).
 */
import { z } from 'zod';

const str = z.string();

const LabelSelectorSchema = z.strictObject({
  matchLabels: z.record(str, str).optional(),
  matchExpressions: z
    .array(
      z.strictObject({
        key: str.min(1),
        operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']),
        values: z.array(str).optional(),
      }),
    )
    .optional(),
});

/** An Application template: metadata and spec; rendered, then checked as an Application. */
const ApplicationTemplateSchema = z.strictObject({
  metadata: z
    .strictObject({
      name: str.optional(),
      namespace: str.optional(),
      labels: z.record(str, str).optional(),
      annotations: z.record(str, str).optional(),
      finalizers: z.array(str).optional(),
    })
    .optional(),
  spec: z.record(str, z.unknown()).optional(),
});

const pathItem = z.strictObject({ path: str.min(1), exclude: z.boolean().optional() });

const valuesSchema = z.record(str, str);

const listGenerator = z.strictObject({
  elements: z.array(z.record(str, z.unknown())).optional(),
  elementsYaml: str.optional(),
  template: ApplicationTemplateSchema.optional(),
});

const clustersGenerator = z.strictObject({
  selector: LabelSelectorSchema.optional(),
  values: valuesSchema.optional(),
  flatList: z.boolean().optional(),
  template: ApplicationTemplateSchema.optional(),
});

const gitGenerator = z
  .strictObject({
    repoURL: str.min(1),
    revision: str.optional(),
    directories: z.array(pathItem).optional(),
    files: z.array(pathItem).optional(),
    values: valuesSchema.optional(),
    pathParamPrefix: str.optional(),
    /** How often Argo CD re-reads the repository; wavesync re-reads with the registry (defaults.registryRefreshSeconds). */
    requeueAfterSeconds: z.number().int().nonnegative().optional(),
    template: ApplicationTemplateSchema.optional(),
  })
  .refine((g) => (g.directories === undefined) !== (g.files === undefined), {
    message: 'a git generator takes either directories or files',
  });

/** Generators that need a service wavesync cannot reach: accepted by the schema, refused at generation. */
export const UNREACHABLE_GENERATORS = {
  pullRequest: "the SCM provider's pull request API",
  scmProvider: "the SCM provider's repository API",
  clusterDecisionResource:
    'a cluster decision resource (OCM Placement) read by the ApplicationSet controller',
  plugin: 'a generator plugin service',
} as const;

const unreachable = {
  pullRequest: z.unknown().optional(),
  scmProvider: z.unknown().optional(),
  clusterDecisionResource: z.unknown().optional(),
  plugin: z.unknown().optional(),
};

const terminalGenerators = {
  list: listGenerator.optional(),
  clusters: clustersGenerator.optional(),
  git: gitGenerator.optional(),
  ...unreachable,
  selector: LabelSelectorSchema.optional(),
};

/** A generator inside a nested matrix/merge: no further matrix or merge (Argo CD allows one level). */
const terminalGenerator = z.strictObject(terminalGenerators);

const nestedGenerator = z.strictObject({
  ...terminalGenerators,
  matrix: z
    .strictObject({ generators: z.array(terminalGenerator), template: ApplicationTemplateSchema.optional() })
    .optional(),
  merge: z
    .strictObject({
      generators: z.array(terminalGenerator),
      mergeKeys: z.array(str),
      template: ApplicationTemplateSchema.optional(),
    })
    .optional(),
});

const GeneratorSchema = z.strictObject({
  ...terminalGenerators,
  matrix: z
    .strictObject({ generators: z.array(nestedGenerator), template: ApplicationTemplateSchema.optional() })
    .optional(),
  merge: z
    .strictObject({
      generators: z.array(nestedGenerator),
      mergeKeys: z.array(str),
      template: ApplicationTemplateSchema.optional(),
    })
    .optional(),
});

const rollingStep = z.strictObject({
  matchExpressions: z
    .array(z.strictObject({ key: str.min(1), operator: str, values: z.array(str).optional() }))
    .optional(),
  maxUpdate: z.union([z.number().int(), str]).optional(),
});

export const ApplicationSetSchema = z.looseObject({
  apiVersion: z.literal('argoproj.io/v1alpha1'),
  kind: z.literal('ApplicationSet'),
  metadata: z.looseObject({
    name: str.min(1),
    namespace: str.optional(),
    uid: str.optional(),
  }),
  spec: z.strictObject({
    goTemplate: z.boolean().optional(),
    goTemplateOptions: z.array(str).optional(),
    generators: z.array(GeneratorSchema).min(1, 'needs at least one generator'),
    template: ApplicationTemplateSchema,
    templatePatch: str.optional(),
    syncPolicy: z
      .strictObject({
        preserveResourcesOnDeletion: z.boolean().optional(),
        applicationsSync: z.enum(['create-only', 'create-update', 'create-delete', 'sync']).optional(),
      })
      .optional(),
    strategy: z
      .strictObject({
        type: z.enum(['AllAtOnce', 'RollingSync']).optional(),
        rollingSync: z.strictObject({ steps: z.array(rollingStep).optional() }).optional(),
        deletionOrder: z.enum(['AllAtOnce', 'Reverse']).optional(),
      })
      .optional(),
    /** Fields of live Application objects the controller leaves alone: wavesync writes no Application objects. */
    preservedFields: z
      .strictObject({ annotations: z.array(str).optional(), labels: z.array(str).optional() })
      .optional(),
    /** Differences the controller ignores when it updates Application objects: wavesync writes none. */
    ignoreApplicationDifferences: z
      .array(
        z.strictObject({
          name: str.optional(),
          jsonPointers: z.array(str).optional(),
          jqPathExpressions: z.array(str).optional(),
        }),
      )
      .optional(),
  }),
});

export type ApplicationSetManifest = z.infer<typeof ApplicationSetSchema>;
export type Generator = z.infer<typeof GeneratorSchema>;
