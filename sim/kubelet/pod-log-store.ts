/**
 * Container logs as kubelet serves them through `/api/v1/namespaces/NS/pods/NAME/log`: lines per pod and
 * container, `container` required when the pod has several, `tailLines` honoured, `previous` giving the log of the
 * container's last terminated instance (kept when the kubelet restarts it; one instance back, as the kubelet keeps),
 * and the apiserver's errors for missing pods, unknown containers, containers that have not started and a
 * `previous` with no terminated instance.
 */
import { badRequest, StatusError } from '../api/status-error.js';
import type { KubeObject } from '../store/kube-object.js';

interface ContainerStatusView {
  name: string;
  state?: { waiting?: { reason?: string }; running?: unknown; terminated?: unknown };
}

export class PodLogStore {
  private readonly lines = new Map<string, string[]>();
  private readonly previousLines = new Map<string, string[]>();

  /**
   * The container ended and waits in its back-off: it is the pod's last terminated instance now (lastState), which
   * is what `previous` reads from this moment, as kubelet does (a container in CrashLoopBackOff answers `--previous`
   * with the crashed instance; without it, with the same instance until the next one starts).
   */
  terminated(pod: KubeObject, container: string): void {
    const key = `${pod.metadata.uid}/${container}`;
    this.previousLines.set(key, [...(this.lines.get(key) ?? [])]);
  }

  /** The container is started again: its log so far becomes the previous instance's. */
  restarted(pod: KubeObject, container: string): void {
    const key = `${pod.metadata.uid}/${container}`;
    this.previousLines.set(key, this.lines.get(key) ?? []);
    this.lines.set(key, []);
  }

  append(pod: KubeObject, container: string, text: string): void {
    const key = `${pod.metadata.uid}/${container}`;
    const lines = this.lines.get(key) ?? [];
    lines.push(...text.split('\n'));
    this.lines.set(key, lines);
  }

  /** @param pod the pod looked up by name (undefined → 404). */
  read(
    pod: KubeObject | undefined,
    name: string,
    container: string | undefined,
    tailLines: number | undefined,
    previous = false,
  ): string {
    if (!pod) throw new StatusError(404, 'NotFound', `pods "${name}" not found`, { name, kind: 'pods' });
    const spec = pod.spec as { containers?: { name: string }[] };
    const names = (spec.containers ?? []).map((c) => c.name);
    const chosen = container ?? (names.length === 1 ? names[0] : undefined);
    if (!chosen)
      throw badRequest(
        `a container name must be specified for pod ${name}, choose one of: [${names.join(' ')}]`,
      );
    if (!names.includes(chosen)) throw badRequest(`container ${chosen} is not valid for pod ${name}`);
    const statuses =
      (pod.status as { containerStatuses?: ContainerStatusView[] } | undefined)?.containerStatuses ?? [];
    const state = statuses.find((s) => s.name === chosen)?.state;
    if (!previous && (!state || (state.waiting && !this.lines.has(`${pod.metadata.uid}/${chosen}`)))) {
      const reason = state?.waiting?.reason ?? 'ContainerCreating';
      throw badRequest(`container "${chosen}" in pod "${name}" is waiting to start: ${reason}`);
    }
    const key = `${pod.metadata.uid}/${chosen}`;
    if (previous && !this.previousLines.has(key)) {
      throw badRequest(`previous terminated container "${chosen}" in pod "${name}" not found`);
    }
    const all = (previous ? this.previousLines.get(key) : this.lines.get(key)) ?? [];
    const picked = tailLines === undefined ? all : tailLines <= 0 ? [] : all.slice(-tailLines);
    return picked.length === 0 ? '' : `${picked.join('\n')}\n`;
  }
}
