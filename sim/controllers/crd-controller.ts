/**
 * CustomResourceDefinitions become NamesAccepted and Established after a short delay (`crdEstablishSeconds`,
 * default 0.5 s simulated), which is when the type registry starts serving them, as kube-apiserver's
 * apiextensions controllers do: until then the CRD's kind answers 404 and its custom resources are refused.
 * APIServices become Available.
 */
import { CRD_TYPE_KEY, isEstablished } from '../api/type-registry.js';
import type { KubeObject } from '../store/kube-object.js';
import {
  type Condition,
  type ControllerContext,
  onTypes,
  setCondition,
  statusOf,
} from './controller-context.js';

/** Default simulated seconds before a new CRD is Established. */
export const CRD_ESTABLISH_SECONDS = 0.5;

export function crdController(ctx: ControllerContext): void {
  onTypes(ctx, [CRD_TYPE_KEY], (event) => {
    if (event.type === 'DELETED' || isEstablished(event.object)) return;
    const { name } = event.object.metadata;
    ctx.scheduler.after(ctx.crdEstablishSeconds, () => establish(ctx, name ?? ''));
  });
  onTypes(ctx, ['apiregistration.k8s.io/apiservices'], (event) => {
    if (event.type === 'DELETED') return;
    const conditions = (statusOf(event.object).conditions ?? []) as Condition[];
    if (conditions.some((c) => c.type === 'Available')) return;
    ctx.scheduler.after(0.2, () => markAvailable(ctx, event.object.metadata.name ?? ''));
  });
}

function establish(ctx: ControllerContext, name: string): void {
  const crd = ctx.client.get('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, name);
  if (!crd || isEstablished(crd) || ctx.isPinned(crd)) return;
  const spec = crd.spec as { names: object; versions: { name: string; storage?: boolean }[] };
  let conditions = (statusOf(crd).conditions ?? []) as Condition[];
  conditions = setCondition(conditions, {
    type: 'NamesAccepted',
    status: 'True',
    reason: 'NoConflicts',
    message: 'no conflicts found',
  });
  conditions = setCondition(conditions, {
    type: 'Established',
    status: 'True',
    reason: 'InitialNamesAccepted',
    message: 'the initial names have been accepted',
  });
  const stored = spec.versions.filter((v) => v.storage).map((v) => v.name);
  crd.status = { conditions, acceptedNames: spec.names, storedVersions: stored };
  ctx.client.updateStatus(crd);
}

function markAvailable(ctx: ControllerContext, name: string): void {
  const service: KubeObject | undefined = ctx.client.get(
    'apiregistration.k8s.io/v1',
    'APIService',
    undefined,
    name,
  );
  if (!service || ctx.isPinned(service)) return;
  const conditions = setCondition((statusOf(service).conditions ?? []) as Condition[], {
    type: 'Available',
    status: 'True',
    reason: 'Local',
    message: 'Local APIServices are always available',
  });
  service.status = { conditions };
  ctx.client.updateStatus(service);
}
