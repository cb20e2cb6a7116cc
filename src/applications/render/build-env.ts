/**
 * The build environment Argo CD's repo server gives a rendering (reposerver `newEnv`): `ARGOCD_APP_NAME`,
 * `ARGOCD_APP_NAMESPACE` (the destination namespace), `ARGOCD_APP_PROJECT_NAME`, `ARGOCD_APP_REVISION` (+ `_SHORT`,
 * `_SHORT_8`), `ARGOCD_APP_SOURCE_REPO_URL`, `ARGOCD_APP_SOURCE_PATH`, `ARGOCD_APP_SOURCE_TARGET_REVISION`. Config
 * Management Plugins get it as environment variables; Kustomize image and label values are substituted with it.
 */
import type { Application, ApplicationSource } from '../../domain/index.js';

export type BuildEnv = Readonly<Record<string, string>>;

/**
 * `revision`: the resolved commit SHA (git), or the content revision of a local folder (may be empty). `source`:
 * the source being rendered (each source of a multi-source Application gets its own, as in Argo CD).
 */
export function buildEnvOf(
  app: Application,
  revision: string,
  source: ApplicationSource = app.source,
): BuildEnv {
  return {
    ARGOCD_APP_NAME: app.name,
    ARGOCD_APP_NAMESPACE: app.destination.namespace ?? '',
    ARGOCD_APP_PROJECT_NAME: app.project,
    ARGOCD_APP_REVISION: revision,
    ARGOCD_APP_REVISION_SHORT: revision.slice(0, 7),
    ARGOCD_APP_REVISION_SHORT_8: revision.slice(0, 8),
    ARGOCD_APP_SOURCE_REPO_URL: source.repoURL,
    ARGOCD_APP_SOURCE_PATH: source.path ?? '',
    ARGOCD_APP_SOURCE_TARGET_REVISION: source.targetRevision ?? '',
  };
}

/**
 * `$VAR` and `${VAR}` replaced by their value in `env` (an unknown variable becomes empty, `$$` is a `$`), as Argo
 * CD's `Env.Envsubst` (Go `os.Expand`) does.
 */
export function envsubst(text: string, env: BuildEnv): string {
  return text.replace(
    /\$(\$|\{([^}]*)\}|([A-Za-z0-9_]+))/g,
    (_match, all: string, braced?: string, bare?: string) =>
      all === '$' ? '$' : (env[braced ?? bare ?? ''] ?? ''),
  );
}
