/**
 * Defaulting the apiserver applies on every write (a subset of pkg/apis/<group>/v1/defaults.go): enough that
 * controllers and diffs see the fields real clusters add (replicas, strategies, restartPolicy, Service type,
 * clusterIP, Secret type, Namespace finalizers/phase, Job backoffLimit/completions/parallelism).
 */
import { isJsonObject, type JsonObject, type KubeObject } from '../store/kube-object.js';

export function applyDefaults(obj: KubeObject, allocateClusterIP: () => string): void {
  const spec = isJsonObject(obj.spec) ? obj.spec : undefined;
  switch (obj.kind) {
    case 'Deployment':
      defaultDeployment(spec);
      return;
    case 'ReplicaSet':
    case 'StatefulSet':
      if (spec) spec.replicas ??= 1;
      defaultTemplate(spec?.template);
      return;
    case 'DaemonSet':
      defaultTemplate(spec?.template);
      return;
    case 'Job':
      defaultJob(spec);
      return;
    case 'Pod':
      defaultPodSpec(spec);
      return;
    case 'Service':
      defaultService(spec, allocateClusterIP);
      return;
    case 'Secret':
      obj.type ??= 'Opaque';
      return;
    case 'Namespace':
      obj.spec = { finalizers: ['kubernetes'], ...(spec ?? {}) };
      obj.status = { phase: 'Active', ...(isJsonObject(obj.status) ? obj.status : {}) };
      return;
  }
}

function defaultDeployment(spec: JsonObject | undefined): void {
  if (!spec) return;
  spec.replicas ??= 1;
  spec.revisionHistoryLimit ??= 10;
  spec.progressDeadlineSeconds ??= 600;
  spec.strategy ??= { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } };
  defaultTemplate(spec.template);
}

function defaultJob(spec: JsonObject | undefined): void {
  if (!spec) return;
  spec.backoffLimit ??= 6;
  spec.completions ??= 1;
  spec.parallelism ??= 1;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  defaultTemplate(spec.template);
}

function defaultTemplate(template: unknown): void {
  if (isJsonObject(template) && isJsonObject(template.spec)) defaultPodSpec(template.spec);
}

function defaultPodSpec(spec: JsonObject | undefined): void {
  if (!spec) return;
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  for (const c of Array.isArray(spec.containers) ? spec.containers : []) {
    if (!isJsonObject(c)) continue;
    c.terminationMessagePath ??= '/dev/termination-log';
    c.terminationMessagePolicy ??= 'File';
    const tag =
      String(c.image ?? '')
        .split('/')
        .pop() ?? '';
    c.imagePullPolicy ??= !tag.includes(':') || tag.endsWith(':latest') ? 'Always' : 'IfNotPresent';
    for (const p of Array.isArray(c.ports) ? c.ports : []) if (isJsonObject(p)) p.protocol ??= 'TCP';
  }
}

function defaultService(spec: JsonObject | undefined, allocate: () => string): void {
  if (!spec) return;
  spec.type ??= 'ClusterIP';
  spec.sessionAffinity ??= 'None';
  if (spec.type !== 'ExternalName' && spec.clusterIP === undefined) spec.clusterIP = allocate();
  if (spec.clusterIP !== undefined) spec.clusterIPs ??= [spec.clusterIP];
  for (const p of Array.isArray(spec.ports) ? spec.ports : []) {
    if (!isJsonObject(p)) continue;
    p.protocol ??= 'TCP';
    p.targetPort ??= p.port;
  }
}
