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

export interface ApplicationSourceKustomize {
  namePrefix?: string;
  nameSuffix?: string;
  images?: string[];
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
}
