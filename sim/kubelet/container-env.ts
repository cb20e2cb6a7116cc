/**
 * Resolving a container's environment as kubelet does before it creates the container: `env[].value`,
 * `env[].valueFrom.configMapKeyRef|secretKeyRef|fieldRef` and `envFrom[].configMapRef|secretRef`. A missing,
 * non-optional ConfigMap or Secret (or key) is kubelet's CreateContainerConfigError, with its exact message.
 */
import type { ClusterClient } from '../controllers/cluster-client.js';
import { isJsonObject, type JsonObject, type KubeObject } from '../store/kube-object.js';

export type EnvResult = { env: Record<string, string> } | { error: string };

interface Source {
  kind: 'ConfigMap' | 'Secret';
  name: string;
  optional: boolean;
}

function read(client: ClusterClient, namespace: string, source: Source): Record<string, string> | undefined {
  const obj = client.get('v1', source.kind, namespace, source.name);
  if (!obj) return undefined;
  const data = (isJsonObject(obj.data) ? obj.data : {}) as Record<string, string>;
  if (source.kind === 'ConfigMap') return { ...data };
  return Object.fromEntries(
    Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
  );
}

function missing(source: Source): string {
  return `${source.kind.toLowerCase()} "${source.name}" not found`;
}

function fieldRef(pod: KubeObject, path: string): string {
  let node: unknown = pod;
  for (const part of path.replace(/\['([^']+)'\]/g, '.$1').split('.'))
    node = isJsonObject(node) ? node[part] : undefined;
  return node === undefined ? '' : String(node);
}

export function resolveEnv(client: ClusterClient, pod: KubeObject, container: JsonObject): EnvResult {
  const namespace = pod.metadata.namespace ?? 'default';
  const env: Record<string, string> = {};
  for (const from of (container.envFrom ?? []) as JsonObject[]) {
    const ref = (from.configMapRef ?? from.secretRef) as { name?: string; optional?: boolean } | undefined;
    if (!ref?.name) continue;
    const source: Source = {
      kind: from.configMapRef ? 'ConfigMap' : 'Secret',
      name: ref.name,
      optional: ref.optional === true,
    };
    const data = read(client, namespace, source);
    if (!data && !source.optional) return { error: missing(source) };
    for (const [k, v] of Object.entries(data ?? {})) env[`${String(from.prefix ?? '')}${k}`] = v;
  }
  for (const item of (container.env ?? []) as JsonObject[]) {
    const name = String(item.name ?? '');
    if (item.value !== undefined) env[name] = String(item.value);
    const valueFrom = isJsonObject(item.valueFrom) ? item.valueFrom : undefined;
    if (!valueFrom) continue;
    if (isJsonObject(valueFrom.fieldRef))
      env[name] = fieldRef(pod, String(valueFrom.fieldRef.fieldPath ?? ''));
    const ref = (valueFrom.configMapKeyRef ?? valueFrom.secretKeyRef) as
      | { name?: string; key?: string; optional?: boolean }
      | undefined;
    if (!ref?.name) continue;
    const source: Source = {
      kind: valueFrom.configMapKeyRef ? 'ConfigMap' : 'Secret',
      name: ref.name,
      optional: ref.optional === true,
    };
    const data = read(client, namespace, source);
    if (!data) {
      if (source.optional) continue;
      return { error: missing(source) };
    }
    const key = ref.key ?? '';
    if (!(key in data)) {
      if (source.optional) continue;
      return { error: `couldn't find key ${key} in ${source.kind} ${namespace}/${source.name}` };
    }
    env[name] = data[key] ?? '';
  }
  return { env };
}

/**
 * The first volume whose non-optional ConfigMap or Secret (plain or projected) does not exist, as kubelet's
 * volume manager finds it before any container is created: the containers stay ContainerCreating and the Pod gets
 * a FailedMount Event `MountVolume.SetUp failed for volume "cfg" : configmap "cfg" not found`. Retried when a
 * ConfigMap or Secret of the namespace changes.
 */
export function unmountableVolume(client: ClusterClient, pod: KubeObject): string | undefined {
  const namespace = pod.metadata.namespace ?? 'default';
  const volumes = ((pod.spec as JsonObject | undefined)?.volumes ?? []) as JsonObject[];
  for (const volume of volumes) {
    const sources: Source[] = [];
    const configMap = isJsonObject(volume.configMap) ? volume.configMap : undefined;
    if (configMap?.name)
      sources.push({
        kind: 'ConfigMap',
        name: String(configMap.name),
        optional: configMap.optional === true,
      });
    const secret = isJsonObject(volume.secret) ? volume.secret : undefined;
    if (secret?.secretName)
      sources.push({ kind: 'Secret', name: String(secret.secretName), optional: secret.optional === true });
    const projected = isJsonObject(volume.projected) ? volume.projected : undefined;
    for (const source of (projected?.sources ?? []) as JsonObject[]) {
      for (const kind of ['ConfigMap', 'Secret'] as const) {
        const ref = source[kind === 'ConfigMap' ? 'configMap' : 'secret'];
        if (isJsonObject(ref) && ref.name)
          sources.push({ kind, name: String(ref.name), optional: ref.optional === true });
      }
    }
    const absent = sources.find((src) => !src.optional && !client.get('v1', src.kind, namespace, src.name));
    if (absent)
      return `MountVolume.SetUp failed for volume "${String(volume.name ?? '')}" : ${missing(absent)}`;
  }
  return undefined;
}
