/**
 * The cluster's own argocd-cm: a team that already runs Argo CD keeps its health checks in the ConfigMap
 * `argocd-cm` of Argo CD's namespace (wavesync.yaml `health.clusterArgocdCm.namespace`, default `argocd`).
 * scriptedHealthForCluster reads it from the destination cluster once per operation and adds its
 * `resource.customizations` health overrides below wavesync.yaml's `argocdCm` (a key written in both: wavesync.yaml's
 * wins; within each, Argo CD's own precedence: split keys over the block). The ConfigMap's other keys are Argo CD's
 * settings, not wavesync's, and are left alone. No ConfigMap, or no right to read it: wavesync.yaml's alone, with
 * a note for the log. scriptedHealthSource is that chain as every part of wavesync uses it: the worker (syncs and
 * deletions), `wavesync sync` (a path or --app) and drift detection's degraded-health notices.
 */
import type { KubeObject } from '../domain/index.js';
import type { ScriptedHealth } from '../engine/index.js';
import { type HealthSettings, parseResourceCustomizations } from '../settings/index.js';
import { argocdCmHealthData, argocdCmRef, type ConfigMapReader } from './argocd-cm-health-keys.js';
import type { HealthOverride } from './health-script-catalog.js';
import { type BuiltInScriptsGit, scriptedHealthFromSettings } from './scripted-health-from-settings.js';

export type { ConfigMapReader } from './argocd-cm-health-keys.js';

/** The health overrides of the cluster's argocd-cm; none when it has none (or cannot be read: `note` says why). */
async function clusterHealthOverrides(
  cluster: ConfigMapReader,
  namespace: string,
): Promise<{ overrides: HealthOverride[]; note?: string }> {
  const read = await clusterHealthKeys(cluster, namespace);
  if (read.note !== undefined) return { overrides: [], note: read.note };
  return { overrides: parseResourceCustomizations(read.health).overrides };
}

/** The health keys of the cluster's argocd-cm as written (none when it has none), or why it was not read. */
async function clusterHealthKeys(
  cluster: ConfigMapReader,
  namespace: string,
): Promise<{ health: Record<string, string>; note?: undefined } | { note: string }> {
  let configMap: KubeObject | undefined;
  try {
    configMap = await cluster.get(argocdCmRef(namespace));
  } catch (error) {
    return { note: `argocd-cm in ${namespace} not read: ${(error as Error).message}` };
  }
  return { health: argocdCmHealthData(configMap) };
}

/**
 * The scripts for an operation on `cluster`: wavesync.yaml's `health:` and, unless `clusterArgocdCm: false`, the
 * cluster's argocd-cm overrides below them. Undefined when neither configures any script.
 */
export async function scriptedHealthForCluster(
  health: HealthSettings,
  settingsFile: string,
  cluster: ConfigMapReader,
  options: { git?: BuiltInScriptsGit; onNote?: (note: string) => void } = {},
): Promise<ScriptedHealth | undefined> {
  const fromCluster =
    health.clusterArgocdCm === false
      ? { overrides: [] }
      : await clusterHealthOverrides(cluster, health.clusterArgocdCm.namespace);
  if (fromCluster.note !== undefined) options.onNote?.(fromCluster.note);
  return scriptedHealthFromSettings(health, settingsFile, options.git, fromCluster.overrides);
}

export interface ScriptedHealthSourceOptions {
  git?: BuiltInScriptsGit;
  onNote?: (note: string) => void;
  /**
   * Reuse a cluster's scripts (its argocd-cm read) for this long, ms (default 0: read at every forCluster, and the
   * scripts built again only when its health keys changed). For callers that ask often, such as drift detection
   * (every Application at every check).
   */
  reuseMs?: number;
  now?: () => number;
}

/**
 * How long a long-running caller reuses a cluster's argocd-cm scripts (ms): drift detection, the resource tree and
 * the promotion verifier ask for every Application again and again; a sync reads them afresh.
 */
export const ARGOCD_CM_REUSE_MS = 60_000;

/** The health scripts of one wavesync.yaml `health:`, per destination cluster. */
export interface ScriptedHealthSource {
  /** wavesync.yaml's scripts and `cluster`'s argocd-cm below them; undefined when neither has any. */
  forCluster(cluster: ConfigMapReader): Promise<ScriptedHealth | undefined>;
}

/**
 * The one script source chain (wavesync.yaml's `health:`, then the destination cluster's argocd-cm). Throws at once
 * (BotError invalid_config) when the built-in scripts folder is no folder, before anything is applied.
 */
export function scriptedHealthSource(
  health: HealthSettings,
  settingsFile: string,
  options: ScriptedHealthSourceOptions = {},
): ScriptedHealthSource {
  scriptedHealthFromSettings(health, settingsFile, options.git);
  const { reuseMs = 0, now = Date.now } = options;
  const read = (cluster: ConfigMapReader) =>
    scriptedHealthForCluster(health, settingsFile, cluster, {
      ...(options.git ? { git: options.git } : {}),
      ...(options.onNote ? { onNote: options.onNote } : {}),
    });
  const reused = new WeakMap<
    ConfigMapReader,
    { at: number; scripted: Promise<ScriptedHealth | undefined> }
  >();
  /** Per cluster: the scripts built from its argocd-cm health keys as last read (key: those keys as JSON). */
  const built = new WeakMap<
    ConfigMapReader,
    { keys: string; scripted: Promise<ScriptedHealth | undefined> }
  >();
  /**
   * Read at every call (a sync sees an edited argocd-cm at once; through the worker's live-state cache the read is
   * memory), but the scripts are built again only when the health keys changed: a sync does not re-read the
   * built-in scripts folder or rebuild the catalog of an unchanged argocd-cm.
   */
  const readUnlessUnchanged = async (cluster: ConfigMapReader): Promise<ScriptedHealth | undefined> => {
    const keys =
      health.clusterArgocdCm === false
        ? { health: {} }
        : await clusterHealthKeys(cluster, health.clusterArgocdCm.namespace);
    if (keys.note !== undefined) {
      options.onNote?.(keys.note);
      return scriptedHealthFromSettings(health, settingsFile, options.git, []);
    }
    const key = JSON.stringify(keys.health);
    const hit = built.get(cluster);
    if (hit?.keys === key) return hit.scripted;
    const overrides = parseResourceCustomizations(keys.health).overrides;
    const scripted = (async () => scriptedHealthFromSettings(health, settingsFile, options.git, overrides))();
    built.set(cluster, { keys: key, scripted });
    scripted.catch(() => {
      if (built.get(cluster)?.scripted === scripted) built.delete(cluster);
    });
    return scripted;
  };
  return {
    forCluster(cluster) {
      if (reuseMs <= 0) return readUnlessUnchanged(cluster);
      const hit = reused.get(cluster);
      if (hit && now() - hit.at < reuseMs) return hit.scripted;
      const scripted = read(cluster);
      reused.set(cluster, { at: now(), scripted });
      scripted.catch(() => reused.delete(cluster));
      return scripted;
    },
  };
}
