/**
 * ApplicationSource — where an Application's manifests come from (Argo CD `spec.source`), also recorded with each
 * history entry and carried by a rollback's SyncOperation. Source: Argo CD `pkg/apis/application/v1alpha1/types.go`.
 */

export interface ApplicationSourceDirectory {
  recurse?: boolean;
  include?: string;
  exclude?: string;
}

/** `spec.source.helm`, every key Argo CD documents (docs/applications.md, "Helm"). */
export interface ApplicationSourceHelm {
  releaseName?: string;
  /** Namespace passed to `helm template --namespace` (default: the destination namespace). */
  namespace?: string;
  /** Relative to the chart folder, `$ref/path` into a ref source (multi-source), or an http(s) URL. */
  valueFiles?: string[];
  /** Skip value files that do not exist instead of failing. */
  ignoreMissingValueFiles?: boolean;
  values?: string;
  valuesObject?: Record<string, unknown>;
  parameters?: { name: string; value: string; forceString?: boolean }[];
  /** `--set-file name=path`, path relative to the chart folder. */
  fileParameters?: { name: string; path: string }[];
  skipCrds?: boolean;
  skipTests?: boolean;
  skipSchemaValidation?: boolean;
  kubeVersion?: string;
  apiVersions?: string[];
  /** Send a chart repository's credentials to the host a chart is downloaded from even when it is another one. */
  passCredentials?: boolean;
  /** Helm major version: only `v3` exists (Argo CD dropped v2). */
  version?: string;
}

/** A Kustomize patch (Argo CD KustomizePatch): inline `patch` or a `path`, with an optional `target`. */
interface KustomizePatch {
  path?: string;
  patch?: string;
  target?: {
    group?: string;
    version?: string;
    kind?: string;
    name?: string;
    namespace?: string;
    labelSelector?: string;
    annotationSelector?: string;
  };
  options?: Record<string, boolean>;
}

export interface ApplicationSourceKustomize {
  namePrefix?: string;
  nameSuffix?: string;
  images?: string[];
  replicas?: { name: string; count: number | string }[];
  commonLabels?: Record<string, string>;
  forceCommonLabels?: boolean;
  labelWithoutSelector?: boolean;
  labelIncludeTemplates?: boolean;
  commonAnnotations?: Record<string, string>;
  forceCommonAnnotations?: boolean;
  commonAnnotationsEnvsubst?: boolean;
  namespace?: string;
  components?: string[];
  ignoreMissingComponents?: boolean;
  patches?: KustomizePatch[];
  /** A kustomize version declared in wavesync.yaml (`kustomize.versions`). */
  version?: string;
}

/** A Config Management Plugin source (Argo CD ApplicationSourcePlugin). */
export interface ApplicationSourcePlugin {
  /** `<name>` or `<name>-<version>` of a plugin declared in wavesync.yaml; absent: the first whose discover matches. */
  name?: string;
  env?: { name: string; value: string }[];
  parameters?: { name: string; string?: string; array?: string[]; map?: Record<string, string> }[];
}

export interface ApplicationSource {
  /**
   * Git repository URL; a Helm chart repository (https) or OCI registry (`oci://`) when `chart` is set; empty for a
   * local folder (wavesync extension).
   */
  repoURL: string;
  path?: string;
  /** Branch, tag, SHA or HEAD; default HEAD. */
  targetRevision?: string;
  /** Chart name in the Helm repository at `repoURL`; `targetRevision` is then the version or a semver range. */
  chart?: string;
  /** Multi-source: the name other sources use as `$<ref>/path` in `helm.valueFiles` (Argo CD ≥ 2.6). */
  ref?: string;
  /** Multi-source: the source's name (Argo CD ≥ 2.14), shown in messages. */
  name?: string;
  directory?: ApplicationSourceDirectory;
  helm?: ApplicationSourceHelm;
  kustomize?: ApplicationSourceKustomize;
  plugin?: ApplicationSourcePlugin;
}
