/**
 * Application — the Argo CD `Application` (argoproj.io/v1alpha1) fields wavesync honours.
 * Source: Argo CD `pkg/apis/application/v1alpha1/types.go`; docs operator-manual/declarative-setup.
 */
import type { ApplicationSource } from './application-source.js';
import type { SyncOperation } from './operation.js';
import type { KubeObject } from './resource.js';

export type {
  ApplicationSource,
  ApplicationSourceDirectory,
  ApplicationSourceHelm,
  ApplicationSourceKustomize,
  ApplicationSourcePlugin,
} from './application-source.js';

export interface ApplicationDestination {
  server?: string;
  name?: string;
  namespace?: string;
}

/** Argo CD `RetryStrategy`: how a failed sync operation is synced again. */
export interface RetryStrategy {
  /** Retries after the first attempt; 0 none, negative without end (Argo CD). */
  limit?: number;
  /** Resolve `targetRevision` again on a retry instead of reusing the failed attempt's revision. */
  refresh?: boolean;
  backoff?: { duration?: string; factor?: number; maxDuration?: string };
}

interface SyncPolicy {
  /** Absent when the manifest has none or says `enabled: false` (Argo CD 3.x IsAutomatedSyncEnabled). */
  automated?: { prune?: boolean; selfHeal?: boolean; allowEmpty?: boolean; enabled?: boolean };
  syncOptions?: string[];
  retry?: RetryStrategy;
  /** Labels and annotations of the namespace a `CreateNamespace=true` sync creates (and keeps in step). */
  managedNamespaceMetadata?: NamespaceMetadata;
}

/** Argo CD `ManagedNamespaceMetadata`. */
export interface NamespaceMetadata {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** An Application as wavesync knows it: the Argo CD fields plus where it was read from. */
export interface Application {
  name: string;
  /** Namespace of the Application object itself (usually `argocd`). */
  namespace: string;
  project: string;
  /** `spec.source`; for a multi-source Application its first source (what single-source views show). */
  source: ApplicationSource;
  /**
   * `spec.sources` of a multi-source Application (Argo CD ≥ 2.6), in order; it wins over `spec.source`. Undefined for
   * a single-source Application.
   */
  sources?: ApplicationSource[];
  destination: ApplicationDestination;
  syncPolicy?: SyncPolicy;
  /** `spec.revisionHistoryLimit`: finished operations kept in its history (default `defaults.historyLimit`). */
  revisionHistoryLimit?: number;
  finalizers: string[];
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** The object as read, unknown fields included. */
  manifest: KubeObject;
  /**
   * Where it was loaded from (file path or git URL#path, with `:line`), for error messages; a generated
   * Application's is its ApplicationSet's, followed by ` (ApplicationSet <name>)` (originLocation reads it).
   */
  origin: string;
}

/**
 * The file and line an Application's `origin` names (line 1 when it has none), and the ApplicationSet that
 * generated it, if any: `appset.yaml:3 (ApplicationSet shop)` → appset.yaml, 3, shop.
 */
export function originLocation(origin: string): { file: string; line: number; generatedBy?: string } {
  const match = /^(.*?):(\d+)(?: \(ApplicationSet (.+)\))?$/.exec(origin);
  if (!match) return { file: origin, line: 1 };
  return { file: match[1]!, line: Number(match[2]), ...(match[3] ? { generatedBy: match[3] } : {}) };
}

/**
 * The operation with the Application's `spec.syncPolicy.syncOptions` copied in (Argo CD copies app-level options
 * into each operation, spec §7); the request's own options come last and duplicates are dropped.
 */
export function withApplicationSyncOptions(app: Application, operation: SyncOperation): SyncOperation {
  const appOptions = app.syncPolicy?.syncOptions ?? [];
  if (appOptions.length === 0) return operation;
  return { ...operation, syncOptions: [...new Set([...appOptions, ...operation.syncOptions])] };
}

/** Every source of `app`, in order: `spec.sources`, or `[spec.source]`. */
export function sourcesOf(app: Pick<Application, 'source' | 'sources'>): ApplicationSource[] {
  return app.sources ?? [app.source];
}

/** True when every source of `app` is a local folder (no revisions to ask for or roll back to). */
export function hasOnlyLocalSources(app: Pick<Application, 'source' | 'sources'>): boolean {
  return sourcesOf(app).every((s) => s.repoURL === '');
}

/**
 * `app` with the operation's sources (multi-source) or source in place of its own (Argo CD's
 * `operation.sync.source(s)`: a rollback to a recorded source), else `app`.
 */
export function withOperationSource(app: Application, operation: SyncOperation): Application {
  if (operation.sources?.[0]) return { ...app, source: operation.sources[0], sources: operation.sources };
  return operation.source ? { ...app, source: operation.source } : app;
}
