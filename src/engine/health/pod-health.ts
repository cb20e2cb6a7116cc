/**
 * Pod (core/v1) health. Rule from Argo CD gitops-engine `pkg/health/health_pod.go`, including the
 * `argocd.argoproj.io/ignore-restart-policy` annotation (ignored on hooks). Divergence: an absent
 * `spec.restartPolicy` reads as `Always`, the value the API server defaults it to.
 */
import { Annotations, type HealthStatus, type KubeObject } from '../../domain/index.js';
import { arrayAt, fieldAt, numberAt, stringAt, toCondition } from './object-fields.js';

const IGNORE_RESTART_POLICY = 'argocd.argoproj.io/ignore-restart-policy';

function restartPolicyOf(obj: KubeObject): string {
  const annotations = obj.metadata.annotations ?? {};
  const isHook = Annotations.hook in annotations || Annotations.helmHook in annotations;
  if (annotations[IGNORE_RESTART_POLICY] === 'true' && !isHook) return 'Always';
  return stringAt(obj, 'spec.restartPolicy') || 'Always';
}

function isErrorReason(reason: string): boolean {
  return reason.startsWith('Err') || reason.endsWith('Error') || reason.endsWith('BackOff');
}

/** Degraded when a container waits for an error reason (Always pods only), else undefined. */
function waitingErrorHealth(obj: KubeObject): HealthStatus | undefined {
  const messages: string[] = [];
  for (const ctr of arrayAt(obj, 'status.containerStatuses')) {
    if (fieldAt(ctr, 'state.waiting') !== undefined && isErrorReason(stringAt(ctr, 'state.waiting.reason'))) {
      messages.push(stringAt(ctr, 'state.waiting.message'));
    }
  }
  return messages.length > 0 ? { status: 'Degraded', message: messages.join(', ') } : undefined;
}

function failMessage(ctr: unknown): string {
  if (fieldAt(ctr, 'state.terminated') === undefined) return '';
  const message = stringAt(ctr, 'state.terminated.message');
  if (message !== '') return message;
  if (stringAt(ctr, 'state.terminated.reason') === 'OOMKilled') return 'OOMKilled';
  const exitCode = numberAt(ctr, 'state.terminated.exitCode');
  return exitCode !== 0 ? `container "${stringAt(ctr, 'name')}" failed with exit code ${exitCode}` : '';
}

function failedPodHealth(obj: KubeObject, statusMessage: string): HealthStatus {
  if (statusMessage !== '') return { status: 'Degraded', message: statusMessage };
  const containers = [
    ...arrayAt(obj, 'status.initContainerStatuses'),
    ...arrayAt(obj, 'status.containerStatuses'),
  ];
  for (const ctr of containers) {
    const message = failMessage(ctr);
    if (message !== '') return { status: 'Degraded', message };
  }
  return { status: 'Degraded', message: '' };
}

function runningPodHealth(obj: KubeObject, policy: string, message: string): HealthStatus {
  if (policy !== 'Always') return { status: 'Progressing', message };
  const ready = arrayAt(obj, 'status.conditions')
    .map(toCondition)
    .some((c) => c.type === 'Ready' && c.status === 'True');
  if (ready) return { status: 'Healthy', message };
  const restarted = arrayAt(obj, 'status.containerStatuses').some(
    (ctr) => fieldAt(ctr, 'lastState.terminated') !== undefined,
  );
  return { status: restarted ? 'Degraded' : 'Progressing', message };
}

export function getPodHealth(obj: KubeObject): HealthStatus {
  const policy = restartPolicyOf(obj);
  if (policy === 'Always') {
    const degraded = waitingErrorHealth(obj);
    if (degraded !== undefined) return degraded;
  }
  const message = stringAt(obj, 'status.message');
  switch (stringAt(obj, 'status.phase')) {
    case 'Pending':
      return { status: 'Progressing', message };
    case 'Succeeded':
      return { status: 'Healthy', message };
    case 'Failed':
      return failedPodHealth(obj, message);
    case 'Running':
      return runningPodHealth(obj, policy, message);
    default:
      return { status: 'Unknown', message };
  }
}
