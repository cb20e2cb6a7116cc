/**
 * Every field of Argo CD's Application spec (pkg/apis/application/v1alpha1/types.go, v3.x) and what wavesync does
 * with it: honoured as Argo CD does, honoured differently (how), or refused (why). Nothing is silent: a field set
 * that wavesync treats differently is named in a warning (application-warnings.ts: at load, in `wavesync plan --app`
 * and in the `/sync` thread), a refused one refuses the Application naming the field, and a key that is no field of
 * Argo CD's Application (a typo) is named with the closest field. docs/applications.md has this table; a test keeps
 * the two (and the zod schema) in step.
 */
import { closestNames } from '../engine/index.js';

type FieldStatus = 'honoured' | 'differently' | 'refused';

export interface ApplicationField {
  /** Key path below the Application; list items take their list's path (`spec.source.helm.parameters.name`). */
  path: string;
  status: FieldStatus;
  /** How (differently), why (refused), or a short note (honoured); shown in docs/applications.md. */
  note: string;
  /** Its content is not walked here (free-form maps, lists checked by their own parser). */
  opaque?: boolean;
  /** Differently: the warning for this value, or undefined when the value changes nothing. */
  warn?: (value: unknown) => string | undefined;
  /** Refused: the reason for this value, or undefined when the value asks for nothing (`jsonnet: {}`). */
  refuse?: (value: unknown) => string | undefined;
}

const honoured = (path: string, note = 'as Argo CD', opaque = false): ApplicationField => ({
  path,
  status: 'honoured',
  note,
  ...(opaque ? { opaque } : {}),
});

const isSet = (value: unknown): boolean =>
  value !== undefined &&
  value !== null &&
  value !== false &&
  value !== '' &&
  !(Array.isArray(value) && value.length === 0) &&
  !(typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);

/** A field wavesync does not act on: warned (with `how`) whenever it is set to something. */
const ignoredWhenSet = (path: string, how: string): ApplicationField => ({
  path,
  status: 'differently',
  note: how,
  opaque: true,
  warn: (value) => (isSet(value) ? how : undefined),
});

/** The fields of an ApplicationSource, below `spec.source` (and each `spec.sources` entry). */
const SOURCE_FIELDS: ApplicationField[] = [
  honoured(
    'repoURL',
    'git (https, ssh, `file://`), a Helm chart repository (https, `oci://`); empty: a local folder',
  ),
  honoured('path'),
  honoured('targetRevision'),
  honoured('chart', 'a chart of the Helm repository in repoURL'),
  honoured('ref', 'a `$ref/…` value file source of a multi-source Application'),
  {
    path: 'name',
    status: 'differently',
    note: "the source's name in Argo CD's UI and CLI; wavesync names a source by its repoURL and path",
  },
  honoured('helm', '`helm template`'),
  honoured('helm.releaseName'),
  honoured('helm.namespace'),
  honoured('helm.valueFiles'),
  honoured('helm.ignoreMissingValueFiles'),
  honoured('helm.values'),
  honoured('helm.valuesObject', 'as Argo CD', true),
  honoured('helm.parameters', 'as Argo CD', true),
  honoured('helm.fileParameters', 'as Argo CD', true),
  honoured('helm.skipCrds'),
  honoured('helm.kubeVersion'),
  honoured('helm.apiVersions'),
  honoured('helm.passCredentials'),
  honoured('helm.version'),
  honoured('helm.skipTests', '`--skip-tests`'),
  honoured('helm.skipSchemaValidation', '`--skip-schema-validation`'),
  honoured('kustomize', 'the kustomization is edited as `kustomize edit` would, in a copy'),
  honoured('kustomize.namePrefix'),
  honoured('kustomize.nameSuffix'),
  honoured('kustomize.images', 'as Argo CD (values substituted with the `ARGOCD_APP_*` build environment)'),
  honoured('kustomize.replicas', 'as Argo CD', true),
  honoured(
    'kustomize.commonLabels',
    'as Argo CD (values substituted with the `ARGOCD_APP_*` build environment)',
    true,
  ),
  honoured('kustomize.forceCommonLabels'),
  honoured('kustomize.labelWithoutSelector'),
  honoured('kustomize.labelIncludeTemplates'),
  honoured('kustomize.commonAnnotations', 'as Argo CD', true),
  honoured('kustomize.forceCommonAnnotations'),
  honoured('kustomize.commonAnnotationsEnvsubst'),
  honoured('kustomize.namespace'),
  honoured('kustomize.components'),
  honoured('kustomize.ignoreMissingComponents'),
  honoured('kustomize.patches', 'appended to the kustomization’s `patches`', true),
  honoured('kustomize.version', 'the binary declared under `kustomize.versions` in wavesync.yaml'),
  ignoredWhenSet(
    'kustomize.kubeVersion',
    'not honoured: it only feeds `helmCharts` inflation, which wavesync does not enable (no `--enable-helm`)',
  ),
  ignoredWhenSet(
    'kustomize.apiVersions',
    'not honoured: it only feeds `helmCharts` inflation, which wavesync does not enable (no `--enable-helm`)',
  ),
  honoured('directory', 'plain YAML/JSON files'),
  honoured('directory.recurse'),
  honoured('directory.include'),
  honoured('directory.exclude'),
  {
    path: 'directory.jsonnet',
    status: 'refused',
    note: 'wavesync has no Jsonnet runtime (an empty `jsonnet: {}` is accepted; `*.jsonnet` files are skipped with a warning)',
    opaque: true,
    refuse: (value) =>
      isSet(value) && Object.values(value as object).some(isSet)
        ? 'wavesync has no Jsonnet runtime to evaluate extVars, tlas or libs; render the Jsonnet to YAML ' +
          'before committing'
        : undefined,
  },
  honoured(
    'plugin',
    'a Config Management Plugin declared under `plugins:` in wavesync.yaml (as `plugin.yaml`)',
  ),
  honoured(
    'plugin.name',
    '`<name>` or `<name>-<version>`; absent: the first plugin whose `discover` matches',
  ),
  honoured('plugin.env', 'as Argo CD (`ARGOCD_ENV_<name>`)', true),
  honoured('plugin.parameters', 'as Argo CD (`ARGOCD_APP_PARAMETERS`, `PARAM_<NAME>`)', true),
];

/** The table, in the order of docs/applications.md. */
export const APPLICATION_FIELDS: readonly ApplicationField[] = [
  {
    path: 'spec.project',
    status: 'differently',
    note:
      'shown, not enforced: AppProject rules (source repos, destinations, roles, sync windows) do not apply; ' +
      "wavesync's environments do (docs/approvals.md)",
    warn: (value) =>
      value === undefined || value === 'default'
        ? undefined
        : `AppProject ${String(value)} is not enforced (source repos, destinations, roles, sync windows); ` +
          "wavesync's environments apply instead",
  },
  honoured('spec.source'),
  ...SOURCE_FIELDS.map((f) => ({ ...f, path: `spec.source.${f.path}` })),
  honoured('spec.sources', 'every source rendered and combined; each entry has the fields of `spec.source`'),
  honoured('spec.destination'),
  honoured('spec.destination.server', 'mapped to a kubeconfig context by `clusters:` in wavesync.yaml'),
  honoured('spec.destination.name', 'mapped to a kubeconfig context by `clusters:` in wavesync.yaml'),
  honoured('spec.destination.namespace'),
  honoured('spec.syncPolicy'),
  honoured(
    'spec.syncPolicy.automated',
    'drift detection every 3 minutes; self-heal where the environment allows',
  ),
  honoured(
    'spec.syncPolicy.automated.enabled',
    '`false` turns automated sync off, as if `automated` were absent',
  ),
  honoured('spec.syncPolicy.automated.prune'),
  honoured('spec.syncPolicy.automated.selfHeal'),
  honoured('spec.syncPolicy.automated.allowEmpty'),
  honoured('spec.syncPolicy.syncOptions', 'as Argo CD; an unknown option is warned about', true),
  honoured('spec.syncPolicy.retry', 'a failed operation is synced again (a durable delayed job); see below'),
  honoured('spec.syncPolicy.retry.limit'),
  honoured('spec.syncPolicy.retry.refresh', 'the retry resolves `targetRevision` again'),
  honoured('spec.syncPolicy.retry.backoff'),
  honoured('spec.syncPolicy.retry.backoff.duration'),
  honoured('spec.syncPolicy.retry.backoff.factor'),
  honoured('spec.syncPolicy.retry.backoff.maxDuration'),
  {
    path: 'spec.syncPolicy.managedNamespaceMetadata',
    status: 'differently',
    note:
      'labels and annotations of the Namespace a `CreateNamespace=true` sync creates; a namespace that already ' +
      'exists is not updated (Argo CD also updates one it created earlier)',
    opaque: true,
    warn: (value) =>
      isSet(value)
        ? 'set only when a CreateNamespace=true sync creates the namespace; an existing namespace keeps its ' +
          'labels and annotations'
        : undefined,
  },
  honoured(
    'spec.ignoreDifferences',
    'in drift detection, `/sync diff` and with `RespectIgnoreDifferences=true` (docs/diff.md)',
    true,
  ),
  {
    path: 'spec.info',
    status: 'differently',
    note: "informational lines of Argo CD's UI; wavesync shows them nowhere (they change nothing)",
    opaque: true,
  },
  honoured(
    'spec.revisionHistoryLimit',
    'finished operations kept for `/sync history` (default `defaults.historyLimit`)',
  ),
  {
    path: 'spec.sourceHydrator',
    status: 'refused',
    note: 'source hydration (Argo CD 3.0, alpha) is not supported',
    opaque: true,
    refuse: (value) =>
      isSet(value)
        ? 'source hydration (Argo CD 3.0, alpha) is not supported; point spec.source at the hydrated branch'
        : undefined,
  },
];

const BY_PATH = new Map(APPLICATION_FIELDS.map((f) => [f.path, f]));
const KNOWN_PATHS = [...BY_PATH.keys()];

export interface FieldFinding {
  /** Key path as written (`spec.sources[1].helm.skipTests`). */
  path: string;
  message: string;
}

/** What the spec of a raw Application asks for that wavesync does differently (`warnings`) or refuses. */
export function checkApplicationFields(raw: unknown): { warnings: FieldFinding[]; refused: FieldFinding[] } {
  const found = { warnings: [] as FieldFinding[], refused: [] as FieldFinding[] };
  const spec = (raw as { spec?: unknown } | null)?.spec;
  if (isObject(spec)) walk(spec, 'spec', 'spec', found);
  return found;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `shown`: the path as written (indexes kept); `key`: the table's path (indexes dropped, sources → source). */
function walk(
  value: Record<string, unknown>,
  shown: string,
  key: string,
  found: { warnings: FieldFinding[]; refused: FieldFinding[] },
): void {
  for (const [name, child] of Object.entries(value)) {
    const childShown = `${shown}.${name}`;
    const childKey = `${key}.${name}`;
    const field = BY_PATH.get(childKey);
    if (!field) {
      const close = closestNames(childKey, KNOWN_PATHS, 1)[0];
      found.warnings.push({
        path: childShown,
        message: `not a field of Argo CD's Application${close ? ` (did you mean ${close}?)` : ''}; ignored`,
      });
      continue;
    }
    const refused = field.refuse?.(child);
    if (refused !== undefined) found.refused.push({ path: childShown, message: refused });
    const warned = field.warn?.(child);
    if (warned !== undefined) found.warnings.push({ path: childShown, message: warned });
    if (field.opaque) continue;
    const itemKey = childKey === 'spec.sources' ? 'spec.source' : childKey;
    if (isObject(child)) walk(child, childShown, itemKey, found);
    else if (Array.isArray(child)) {
      child.forEach((item, i) => {
        if (isObject(item)) walk(item, `${childShown}[${i}]`, itemKey, found);
      });
    }
  }
}
