/**
 * Resource tracking — which live objects are an Application's, as Argo CD 3.x decides it (spec §7; Argo CD
 * `util/argo/resource_tracking.go`, docs user-guide/resource_tracking). The method is argocd-cm's
 * `application.resourceTrackingMethod` (wavesync.yaml `resourceTracking`):
 *
 * - `annotation` (default): `argocd.argoproj.io/tracking-id: <app>:<group>/<kind>:<namespace>/<name>` — the core
 *   group is empty (`guestbook:/Service:default/web`); a cluster-scoped object names the destination namespace
 *   (`guestbook:rbac.authorization.k8s.io/ClusterRole:default/reader`), as Argo CD's repo server writes it;
 * - `annotation+label`: the same, plus the label (`app.kubernetes.io/instance`, 63 characters at most) for tools
 *   that read it; only the annotation tracks;
 * - `label`: only the label, value the Application name.
 *
 * CustomResourceDefinitions get no tracking (Argo CD's repo server skips them), so no sync prunes a CRD and no
 * Application deletion removes one. With an `installationID`, `argocd.argoproj.io/installation-id` is written next
 * to the annotation and a tracking id of another installation is never this one's.
 *
 * Reading accepts both markers, the configured one first: an object an earlier wavesync labelled (or an Argo CD
 * with `label` tracking) still belongs to its Application until a sync writes the annotation, so it is still
 * updated and pruned. A tracking id that names this Application but another object (copied with a manifest) does
 * not make that object this Application's (Argo CD `isSelfReferencedObj`).
 *
 * Listing: annotations are no server-side selector, so, as Argo CD's cluster cache does, every listable kind is
 * listed once (all namespaces) and filtered here — one pass, constant work per object — skipping the kinds Argo CD
 * never caches (core Event, `events.k8s.io`, `metrics.k8s.io`, Lease). Objects owned by another object
 * (ownerReferences: a Deployment's ReplicaSets and Pods, which copy its template's labels) are not top-level and
 * never candidates.
 */
import {
  Annotations,
  DEFAULT_RESOURCE_TRACKING,
  type KubeObject,
  type ResourceKey,
  type ResourceTracking,
  resourceKeyOf,
  splitApiVersion,
} from '../domain/index.js';
import type { Cluster } from './cluster.js';
import { TimeSlice } from './time-slice.js';

/** A parsed tracking id: the Application and the object it names. */
export interface TrackingId extends ResourceKey {
  application: string;
}

/** `<app>:<group>/<kind>:<namespace>/<name>`, Argo CD's format exactly. */
export function formatTrackingId(id: TrackingId): string {
  return `${id.application}:${id.group}/${id.kind}:${id.namespace}/${id.name}`;
}

/** The parts of a tracking id, or undefined when it is not in Argo CD's format (then it tracks nothing). */
export function parseTrackingId(value: string): TrackingId | undefined {
  const first = value.indexOf(':');
  const second = first < 0 ? -1 : value.indexOf(':', first + 1);
  if (second < 0) return undefined;
  const groupKind = value.slice(first + 1, second).split('/');
  const namespaceName = value.slice(second + 1).split('/');
  if (groupKind.length !== 2 || namespaceName.length !== 2) return undefined;
  return {
    application: value.slice(0, first),
    group: groupKind[0]!,
    kind: groupKind[1]!,
    namespace: namespaceName[0]!,
    name: namespaceName[1]!,
  };
}

function isCrd(obj: KubeObject): boolean {
  return (
    obj.kind === 'CustomResourceDefinition' &&
    splitApiVersion(obj.apiVersion).group === 'apiextensions.k8s.io'
  );
}

/** The label value Argo CD writes with `annotation+label`: 63 characters at most, ending alphanumeric. */
function informationalLabel(application: string): string {
  let value = application.slice(0, 63);
  while (value.length > 1 && !/[a-zA-Z0-9]$/.test(value)) value = value.slice(0, -1);
  return value;
}

/**
 * `obj` marked as `application`'s (a copy; the input is never mutated). `destinationNamespace` is the
 * Application's: it stands in the tracking id of an object without a namespace (cluster-scoped ones).
 */
export function withTracking(
  obj: KubeObject,
  application: string,
  destinationNamespace: string,
  tracking: ResourceTracking = DEFAULT_RESOURCE_TRACKING,
): KubeObject {
  if (isCrd(obj)) return obj;
  const metadata = { ...obj.metadata };
  if (tracking.method !== 'label') {
    const key = resourceKeyOf(obj);
    const id = formatTrackingId({ ...key, application, namespace: key.namespace || destinationNamespace });
    metadata.annotations = {
      ...metadata.annotations,
      [Annotations.trackingId]: id,
      ...(tracking.installationID ? { [Annotations.installationId]: tracking.installationID } : {}),
    };
  }
  if (tracking.method !== 'annotation') {
    const value = tracking.method === 'label' ? application : informationalLabel(application);
    metadata.labels = { ...metadata.labels, [tracking.labelKey]: value };
  }
  return { ...obj, metadata };
}

/** Who tracks an object, and by which marker. */
export interface TrackingOwner {
  application: string;
  via: 'annotation' | 'label';
  /** The parsed tracking id (via annotation). */
  id?: TrackingId;
  /** The installation the annotation names ('' = none). */
  installationID: string;
}

function ownerByAnnotation(obj: KubeObject): TrackingOwner | undefined {
  const annotations = obj.metadata.annotations;
  const raw = annotations?.[Annotations.trackingId];
  const id = typeof raw === 'string' ? parseTrackingId(raw) : undefined;
  if (id === undefined) return undefined;
  const installationID = annotations?.[Annotations.installationId];
  return {
    application: id.application,
    via: 'annotation',
    id,
    installationID: typeof installationID === 'string' ? installationID : '',
  };
}

function ownerByLabel(obj: KubeObject, labelKey: string): TrackingOwner | undefined {
  const value = obj.metadata.labels?.[labelKey];
  return typeof value === 'string' && value !== ''
    ? { application: value, via: 'label', installationID: '' }
    : undefined;
}

/** The Application an object says it belongs to: the configured marker first, then the other one. */
export function trackingOwnerOf(
  obj: KubeObject,
  tracking: ResourceTracking = DEFAULT_RESOURCE_TRACKING,
): TrackingOwner | undefined {
  return tracking.method === 'label'
    ? (ownerByLabel(obj, tracking.labelKey) ?? ownerByAnnotation(obj))
    : (ownerByAnnotation(obj) ?? ownerByLabel(obj, tracking.labelKey));
}

/** True when the tracking id names `obj` itself (namespace ignored for cluster-scoped objects). */
function namesItself(obj: KubeObject, id: TrackingId): boolean {
  const key = resourceKeyOf(obj);
  return (
    (key.namespace === id.namespace || key.namespace === '') &&
    key.name === id.name &&
    key.group === id.group &&
    key.kind === id.kind
  );
}

function isThisInstallation(owner: TrackingOwner, tracking: ResourceTracking): boolean {
  return owner.installationID === (tracking.installationID ?? '');
}

/** True when live object `obj` is tracked by `application` (a prune and deletion candidate when top-level). */
export function isTrackedBy(
  obj: KubeObject,
  application: string,
  tracking: ResourceTracking = DEFAULT_RESOURCE_TRACKING,
): boolean {
  const owner = trackingOwnerOf(obj, tracking);
  if (owner === undefined || owner.application !== application) return false;
  if (owner.via === 'label') return true;
  return isThisInstallation(owner, tracking) && namesItself(obj, owner.id!);
}

/**
 * Argo CD's SharedResourceWarning for a live object this Application's manifests also hold, or undefined:
 * `Deployment/web is part of applications mine and theirs`. An instance label that the manifest itself carries
 * (a Helm chart's `app.kubernetes.io/instance: <release>`) is the manifest's, not another Application's mark.
 */
export function sharedResourceMessage(
  target: KubeObject | undefined,
  live: KubeObject,
  application: string,
  tracking: ResourceTracking = DEFAULT_RESOURCE_TRACKING,
): string | undefined {
  const owner = trackingOwnerOf(live, tracking);
  if (owner === undefined) return undefined;
  const sameInstallation = isThisInstallation(owner, tracking);
  if (owner.application === application && sameInstallation) return undefined;
  if (owner.via === 'label' && target?.metadata.labels?.[tracking.labelKey] === owner.application)
    return undefined;
  const other = sameInstallation
    ? owner.application
    : `${owner.application} (installation ${owner.installationID || 'none'})`;
  return `${live.kind}/${live.metadata.name ?? ''} is part of applications ${application} and ${other}`;
}

/**
 * `live` as the diff compares it (Argo CD `resourceTracking.Normalize`): with annotation tracking, a live object
 * that still carries the tracking label (an earlier wavesync's, or Argo CD's before a change of method) gets the
 * desired tracking id, and loses the label unless `desired` has it too — moving from the label to the annotation
 * is no change worth showing. A copy; `live` itself is unchanged.
 */
export function withTrackingMoveIgnored(
  live: KubeObject,
  desired: KubeObject,
  tracking: ResourceTracking = DEFAULT_RESOURCE_TRACKING,
): KubeObject {
  const { labelKey } = tracking;
  if (tracking.method === 'label' || !live.metadata.labels?.[labelKey] || isCrd(live)) return live;
  const metadata = { ...live.metadata };
  const id = desired.metadata.annotations?.[Annotations.trackingId];
  if (typeof id === 'string')
    metadata.annotations = { ...metadata.annotations, [Annotations.trackingId]: id };
  if (desired.metadata.labels?.[labelKey] === undefined) {
    const { [labelKey]: _dropped, ...labels } = live.metadata.labels;
    metadata.labels = labels;
  }
  return { ...live, metadata };
}

/** Kinds Argo CD never caches (gitops-engine core exclusions): never listed for tracking. */
function isExcludedKind(apiVersion: string, kind: string): boolean {
  const { group } = splitApiVersion(apiVersion);
  if (group === 'events.k8s.io' || group === 'metrics.k8s.io') return true;
  return (group === '' && kind === 'Event') || (group === 'coordination.k8s.io' && kind === 'Lease');
}

/**
 * The kinds an Application's objects are looked for in: every listable kind `listKinds` gives but those Argo CD never
 * caches. A live-state cache primes these to have a first sync read memory.
 */
export function trackedKinds<K extends { apiVersion: string; kind: string }>(kinds: readonly K[]): K[] {
  return kinds.filter((k) => !isExcludedKind(k.apiVersion, k.kind));
}

/** True when `obj` is tracked by `application` and owned by no other object (top-level). */
function isTopLevelTracked(obj: KubeObject, application: string, tracking: ResourceTracking): boolean {
  return (obj.metadata.ownerReferences ?? []).length === 0 && isTrackedBy(obj, application, tracking);
}

/** A kind as listKinds gives it. */
export type ServedKind = Awaited<ReturnType<Cluster['listKinds']>>[number];

/**
 * Whole collections a caller wants from the tracked objects' lists besides the tracked objects: the engine's live
 * cache takes its targets' collections (a kind in a namespace) from the list of their kind in all namespaces that
 * the tracking reads anyway, instead of listing them again.
 */
export interface CollectionsAlongside {
  /** True for an object (apiVersion and kind set) of a wanted collection: kept from the list. */
  wants(obj: KubeObject): boolean;
  /**
   * A kind's list as the API server answered it, read at `resourceVersion`: every object of the kind that is
   * tracked or wanted. Not called when the answer did not come from the API server (a live-state cache's index
   * holds the Application's objects only, not whole collections).
   */
  listed(kind: ServedKind, objects: readonly KubeObject[], resourceVersion: string): void;
}

/**
 * Every top-level live object of `cluster` tracked by `application`, across all namespaces and listable kinds (a
 * sync's pass lists kind by kind with listTrackedOfKind; diff, drift, approvals and deletion call this). Rejects
 * with the cluster's error when a list fails.
 */
export async function listTrackedLiveObjects(
  cluster: Pick<Cluster, 'listKinds' | 'list'>,
  application: string,
  tracking: ResourceTracking = DEFAULT_RESOURCE_TRACKING,
): Promise<KubeObject[]> {
  const kinds = trackedKinds(await cluster.listKinds());
  // Filtered in time slices: reading the tracking of 20,000 objects is tens of ms of CPU.
  const slice = new TimeSlice();
  const lists = await Promise.all(
    kinds.map((k) => listTrackedOfKind(cluster, k, application, tracking, slice)),
  );
  return lists.flat();
}

/**
 * The top-level objects of one kind (all namespaces) tracked by `application`; with `alongside`, the objects of
 * the collections it wants are kept from the same list and handed to it.
 */
export async function listTrackedOfKind(
  cluster: Pick<Cluster, 'list'>,
  kind: ServedKind,
  application: string,
  tracking: ResourceTracking,
  slice: TimeSlice,
  alongside?: CollectionsAlongside,
): Promise<KubeObject[]> {
  let resourceVersion: string | undefined;
  const objects = await cluster.list({
    apiVersion: kind.apiVersion,
    kind: kind.kind,
    namespace: '',
    trackedBy: application,
    keep: alongside
      ? (obj) => isTopLevelTracked(obj, application, tracking) || alongside.wants(obj)
      : (obj) => isTopLevelTracked(obj, application, tracking),
    ...(alongside ? { listedAt: (version: string) => (resourceVersion = version) } : {}),
  });
  if (alongside && resourceVersion !== undefined) alongside.listed(kind, objects, resourceVersion);
  const tracked: KubeObject[] = [];
  for (const obj of objects) {
    if (slice.due()) await slice.pause();
    if (isTopLevelTracked(obj, application, tracking)) tracked.push(obj);
  }
  return tracked;
}
