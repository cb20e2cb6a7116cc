/**
 * ApplicationSource — where an Application's manifests come from (Argo CD `spec.source`), also recorded with each
 * history entry and carried by a rollback's SyncOperation. Source: Argo CD `pkg/apis/application/v1alpha1/types.go`.
 */

export interface ApplicationSourceDirectory {
  recurse?: boolean;
  include?: string;
  exclude?: string;
}

export interface ApplicationSourceHelm {
  releaseName?: string;
  valueFiles?: string[];
  values?: string;
  valuesObject?: Record<string, unknown>;
  parameters?: { name: string; value: string; forceString?: boolean }[];
}

/** A Kustomize patch (Argo CD KustomizePatch): inline `patch` or a `path`, with an optional `target`. */
export interface KustomizePatch {
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
  /** Git repository URL, or a local directory (wavesync extension: `file://` or an absolute path). */
  repoURL: string;
  path?: string;
  /** Branch, tag, SHA or HEAD; default HEAD. */
  targetRevision?: string;
  chart?: string;
  directory?: ApplicationSourceDirectory;
  helm?: ApplicationSourceHelm;
  kustomize?: ApplicationSourceKustomize;
  plugin?: ApplicationSourcePlugin;
}
