/**
 * What a Pod needs before it can start: the ConfigMaps, Secrets, ServiceAccount and PersistentVolumeClaims its
 * spec names — from a Pod, or from the pod template of a Job, Deployment, StatefulSet, DaemonSet, ReplicaSet or
 * CronJob. Sources, as the kubelet reads them: `env[].valueFrom.{configMapKeyRef,secretKeyRef}`,
 * `envFrom[].{configMapRef,secretRef}` (containers, initContainers, ephemeralContainers), `volumes[].{configMap,
 * secret,persistentVolumeClaim}`, `volumes[].projected.sources[].{configMap,secret}`, `serviceAccountName`
 * (or the deprecated `serviceAccount`) and `imagePullSecrets`. Pure: reads only the object.
 */
import type { KubeObject } from '../../domain/index.js';

type ReferencedKind = 'ConfigMap' | 'Secret' | 'ServiceAccount' | 'PersistentVolumeClaim';

export interface PodReference {
  kind: ReferencedKind;
  name: string;
  /** `optional: true` on the reference: a missing object never stops the Pod from starting. */
  optional: boolean;
  /** The container that reads it, or undefined for Pod-level references (volumes, service account, pull secrets). */
  container?: string;
  /** Where the reference is, e.g. `envFrom`, `env DB_URL`, `volume config`, `imagePullSecrets`. */
  via: string;
}

type Json = Record<string, unknown>;

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(record).filter((v): v is Json => v !== undefined) : [];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The pod spec of `obj`: its own for a Pod, its template's for the workload kinds; undefined otherwise. */
export function podSpecOf(obj: KubeObject): Json | undefined {
  const spec = record(obj.spec);
  switch (obj.kind) {
    case 'Pod':
      return spec;
    case 'Job':
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
      return record(record(spec?.template)?.spec);
    case 'CronJob':
      return record(record(record(record(spec?.jobTemplate)?.spec)?.template)?.spec);
    default:
      return undefined;
  }
}

function containerReferences(container: Json): PodReference[] {
  const name = text(container.name);
  const refs: PodReference[] = [];
  const add = (kind: ReferencedKind, ref: Json | undefined, via: string) => {
    const refName = text(ref?.name);
    if (refName)
      refs.push({
        kind,
        name: refName,
        optional: ref?.optional === true,
        via,
        ...(name ? { container: name } : {}),
      });
  };
  for (const env of list(container.env)) {
    const from = record(env.valueFrom);
    const via = `env ${text(env.name) ?? ''}`.trimEnd();
    add('ConfigMap', record(from?.configMapKeyRef), via);
    add('Secret', record(from?.secretKeyRef), via);
  }
  for (const from of list(container.envFrom)) {
    add('ConfigMap', record(from.configMapRef), 'envFrom');
    add('Secret', record(from.secretRef), 'envFrom');
  }
  return refs;
}

function volumeReferences(volume: Json): PodReference[] {
  const via = `volume ${text(volume.name) ?? ''}`.trimEnd();
  const refs: PodReference[] = [];
  const configMap = record(volume.configMap);
  const configMapName = text(configMap?.name);
  if (configMapName)
    refs.push({ kind: 'ConfigMap', name: configMapName, optional: configMap?.optional === true, via });
  const secret = record(volume.secret);
  const secretName = text(secret?.secretName);
  if (secretName) refs.push({ kind: 'Secret', name: secretName, optional: secret?.optional === true, via });
  const claim = text(record(volume.persistentVolumeClaim)?.claimName);
  if (claim) refs.push({ kind: 'PersistentVolumeClaim', name: claim, optional: false, via });
  for (const source of list(record(volume.projected)?.sources)) {
    for (const kind of ['ConfigMap', 'Secret'] as const) {
      const ref = record(source[kind === 'ConfigMap' ? 'configMap' : 'secret']);
      const name = text(ref?.name);
      if (name) refs.push({ kind, name, optional: ref?.optional === true, via });
    }
  }
  return refs;
}

/** Every reference in the pod spec of `obj` (none for kinds without one), in spec order. */
export function podReferencesOf(obj: KubeObject): PodReference[] {
  const spec = podSpecOf(obj);
  if (spec === undefined) return [];
  const containers = [
    ...list(spec.initContainers),
    ...list(spec.containers),
    ...list(spec.ephemeralContainers),
  ];
  const refs = containers.flatMap(containerReferences);
  refs.push(...list(spec.volumes).flatMap(volumeReferences));
  const serviceAccount = text(spec.serviceAccountName) ?? text(spec.serviceAccount);
  if (serviceAccount)
    refs.push({ kind: 'ServiceAccount', name: serviceAccount, optional: false, via: 'serviceAccountName' });
  for (const secret of list(spec.imagePullSecrets)) {
    const name = text(secret.name);
    if (name) refs.push({ kind: 'Secret', name, optional: false, via: 'imagePullSecrets' });
  }
  return refs;
}
