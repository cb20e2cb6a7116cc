/**
 * The real @kubernetes/client-node pointed at a simulator, for tests: a KubeConfig loaded from the
 * simulator's kubeconfig YAML, KubernetesObjectApi and CoreV1Api.
 */
import { CoreV1Api, KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';
import type { Simulator } from '../simulator.js';

export interface KubeClients {
  kc: KubeConfig;
  objects: KubernetesObjectApi;
  core: CoreV1Api;
}

export function kubeClients(sim: Simulator, namespace = 'default'): KubeClients {
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig({ namespace }));
  return { kc, objects: KubernetesObjectApi.makeApiClient(kc), core: kc.makeApiClient(CoreV1Api) };
}

/** Parse the Status body of an ApiException (client-node 1.x gives it as a string). */
export function statusOf(error: unknown): {
  code?: number;
  reason?: string;
  message?: string;
  details?: Record<string, unknown>;
} {
  const body = (error as { body?: unknown }).body;
  return typeof body === 'string' ? JSON.parse(body) : ((body ?? {}) as Record<string, unknown>);
}

/** Await a request expected to fail; returns the HTTP code and the parsed Status. Throws if it succeeds. */
export async function failureOf(
  promise: Promise<unknown>,
): Promise<{ code: number | undefined; status: ReturnType<typeof statusOf> }> {
  try {
    await promise;
  } catch (error) {
    return { code: (error as { code?: number }).code, status: statusOf(error) };
  }
  throw new Error('expected the request to fail');
}
