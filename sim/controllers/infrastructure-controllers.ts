/**
 * The cluster's infrastructure, simulated: PersistentVolumeClaims bind to a new PersistentVolume
 * (`pvc-<uid>`), Services of type LoadBalancer and Ingresses get a load-balancer ingress IP, each after
 * INFRA_SECONDS simulated seconds.
 */
import type { KubeObject } from '../store/kube-object.js';
import { type ControllerContext, onTypes, statusOf } from './controller-context.js';

const INFRA_SECONDS = 0.5;

export function infrastructureControllers(ctx: ControllerContext): void {
  let nextIp = 10;
  const later = (obj: KubeObject, fn: (live: KubeObject) => void) =>
    ctx.scheduler.after(INFRA_SECONDS, () => {
      const live = ctx.client.get(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name ?? '');
      if (live && !live.metadata.deletionTimestamp && !ctx.isPinned(live)) fn(live);
    });
  onTypes(ctx, ['/persistentvolumeclaims'], (e) => {
    if (e.type === 'ADDED') later(e.object, bind);
  });
  onTypes(ctx, ['/services'], (e) => {
    const spec = e.object.spec as { type?: string };
    const ingress = (statusOf(e.object).loadBalancer as { ingress?: unknown[] } | undefined)?.ingress;
    if (e.type !== 'DELETED' && spec.type === 'LoadBalancer' && !ingress)
      later(e.object, (live) => balance(live, { ipMode: 'VIP' }));
  });
  onTypes(ctx, ['networking.k8s.io/ingresses'], (e) => {
    const ingress = (statusOf(e.object).loadBalancer as { ingress?: unknown[] } | undefined)?.ingress;
    if (e.type !== 'DELETED' && !ingress) later(e.object, (live) => balance(live, {}));
  });

  function balance(obj: KubeObject, extra: Record<string, string>): void {
    nextIp += 1;
    ctx.client.updateStatus({
      ...obj,
      status: {
        ...statusOf(obj),
        loadBalancer: { ingress: [{ ip: `172.18.255.${nextIp % 250}`, ...extra }] },
      },
    });
  }

  function bind(pvc: KubeObject): void {
    const spec = pvc.spec as {
      accessModes?: string[];
      resources?: { requests?: { storage?: string } };
      storageClassName?: string;
      volumeMode?: string;
    };
    const pvName = `pvc-${pvc.metadata.uid}`;
    const storage = spec.resources?.requests?.storage ?? '1Gi';
    const pv = ctx.client.create({
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: pvName, annotations: { 'pv.kubernetes.io/provisioned-by': 'sim.wavesync/hostpath' } },
      spec: {
        capacity: { storage },
        accessModes: spec.accessModes ?? ['ReadWriteOnce'],
        persistentVolumeReclaimPolicy: 'Delete',
        storageClassName: spec.storageClassName ?? 'standard',
        volumeMode: spec.volumeMode ?? 'Filesystem',
        hostPath: { path: `/var/sim/${pvName}` },
        claimRef: {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          name: pvc.metadata.name,
          namespace: pvc.metadata.namespace,
          uid: pvc.metadata.uid,
        },
      },
    });
    ctx.client.updateStatus({ ...pv, status: { phase: 'Bound' } });
    const annotations = {
      ...pvc.metadata.annotations,
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
    };
    const bound = ctx.client.update({
      ...pvc,
      metadata: { ...pvc.metadata, annotations },
      spec: { ...spec, volumeName: pvName },
    });
    ctx.client.updateStatus({
      ...bound,
      status: { phase: 'Bound', accessModes: spec.accessModes ?? ['ReadWriteOnce'], capacity: { storage } },
    });
  }
}
