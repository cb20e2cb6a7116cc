/**
 * What the batch/v1 Job strategy adds on create (pkg/registry/batch/job/strategy.go): unless
 * spec.manualSelector, the selector `batch.kubernetes.io/controller-uid: <uid>` and the template labels
 * `batch.kubernetes.io/controller-uid`, `batch.kubernetes.io/job-name`, `controller-uid`, `job-name`.
 */
import { isJsonObject, type KubeObject } from '../store/kube-object.js';

export function generateJobSelector(job: KubeObject): void {
  const spec = isJsonObject(job.spec) ? job.spec : undefined;
  if (!spec || spec.manualSelector === true) return;
  const uid = job.metadata.uid ?? '';
  const name = job.metadata.name ?? '';
  spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
  const template = isJsonObject(spec.template) ? spec.template : {};
  const meta = isJsonObject(template.metadata) ? template.metadata : {};
  meta.labels = {
    ...(isJsonObject(meta.labels) ? meta.labels : {}),
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': name,
    'controller-uid': uid,
    'job-name': name,
  };
  template.metadata = meta;
  spec.template = template;
}
