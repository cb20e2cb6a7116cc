/**
 * createKubeCluster — the Cluster port over @kubernetes/client-node 1.4.0: KubernetesObjectApi (positional
 * signatures) for every kind incl. CRDs, server-side apply with field manager `wavesync` and `force=true`,
 * server-side dry run (`dryRun=All`), JSON-patch finalizer removal, Watch with bounded `timeoutSeconds` and
 * restart (see kube-watch.ts), and CoreV1Api for Pod logs. Every failure becomes a ClusterError.
 */
import { ApisApi, CoreV1Api, type KubeConfig, PatchStrategy } from '@kubernetes/client-node';
import type { KubeObject } from '../domain/index.js';
import {
  type ApplyOptions,
  type Cluster,
  FIELD_MANAGER,
  isConflict,
  isNotFound,
  type ObjectRef,
  type WriteOptions,
} from '../engine/cluster.js';
import { toClusterError } from './cluster-errors.js';
import { watchCollections } from './kube-watch.js';
import { RawObjectApi, type RawRequest, toPlainJson } from './raw-object-api.js';

export interface KubeClusterOptions {
  /** Server-side `timeoutSeconds` of each watch request (the watch is then restarted); default 30. */
  watchTimeoutSeconds?: number;
}

function header(ref: ObjectRef) {
  const metadata = ref.namespace === '' ? { name: ref.name } : { name: ref.name, namespace: ref.namespace };
  return { apiVersion: ref.apiVersion, kind: ref.kind, metadata };
}

function describe(verb: string, ref: ObjectRef): string {
  return `${verb} ${ref.apiVersion} ${ref.kind} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name}`;
}

function writeQuery(options: WriteOptions): Record<string, string> {
  return options.validate === false ? { fieldValidation: 'Ignore' } : {};
}

async function call<T>(action: string, run: () => Promise<unknown>): Promise<T> {
  try {
    return toPlainJson<T>(await run());
  } catch (error) {
    throw toClusterError(error, action);
  }
}

function refOfObject(obj: KubeObject): ObjectRef {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    namespace: obj.metadata.namespace ?? '',
    name: obj.metadata.name ?? '',
  };
}

/** Builds the Cluster adapter for the current context of `kc`. */
export function createKubeCluster(kc: KubeConfig, options: KubeClusterOptions = {}): Cluster {
  const api = RawObjectApi.forConfig(kc);
  const core = kc.makeApiClient(CoreV1Api);
  const raw = (request: RawRequest) => api.rawOptions(request);
  const dryRun = (options: WriteOptions) => (options.dryRun ? 'All' : undefined);

  const apis = kc.makeApiClient(ApisApi);

  const cluster: Cluster = {
    async listKinds() {
      const groups = await call<{ groups?: { preferredVersion?: { groupVersion?: string } }[] }>(
        'discover API groups',
        () => apis.getAPIVersions(),
      );
      const versions = [
        'v1',
        ...(groups.groups ?? []).flatMap((g) => g.preferredVersion?.groupVersion ?? []),
      ];
      const lists = await Promise.all(
        versions.map(async (apiVersion) => {
          const resources = await call<
            { name: string; kind: string; namespaced: boolean; verbs: string[] }[]
          >(`discover ${apiVersion}`, () => api.resourceList(apiVersion));
          return resources
            .filter((r) => !r.name.includes('/') && r.verbs.includes('list') && r.verbs.includes('delete'))
            .map((r) => ({ apiVersion, kind: r.kind, namespaced: r.namespaced }));
        }),
      );
      return lists.flat();
    },

    async discover(apiVersion, kind) {
      try {
        const resource = await api.discover(apiVersion, kind);
        return resource === undefined ? undefined : { name: resource.name, namespaced: resource.namespaced };
      } catch (error) {
        const mapped = toClusterError(error, `discover ${apiVersion} ${kind}`);
        if (isNotFound(mapped)) return undefined;
        throw mapped;
      }
    },

    async get(ref) {
      try {
        return await call<KubeObject>(describe('get', ref), () => api.read(header(ref)));
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async list({ apiVersion, kind, namespace, labelSelector }) {
      const action = `list ${apiVersion} ${kind}`;
      const ns = namespace === '' ? undefined : namespace;
      const result = await call<{ items?: KubeObject[] }>(action, () =>
        api.list(apiVersion, kind, ns, undefined, undefined, undefined, undefined, labelSelector),
      );
      return (result.items ?? []).map((item) => ({ ...item, apiVersion, kind }));
    },

    apply(obj, options: ApplyOptions) {
      const request = { body: obj, query: writeQuery(options) };
      return call(describe('apply', refOfObject(obj)), () =>
        api.patch(
          header(refOfObject(obj)),
          undefined,
          dryRun(options),
          FIELD_MANAGER,
          options.force,
          PatchStrategy.ServerSideApply,
          raw(request),
        ),
      );
    },

    create(obj, options) {
      const request = { body: obj, query: writeQuery(options) };
      return call(describe('create', refOfObject(obj)), () =>
        api.create(header(refOfObject(obj)), undefined, dryRun(options), FIELD_MANAGER, raw(request)),
      );
    },

    replace(obj, options) {
      const request = { body: obj, query: writeQuery(options) };
      return call(describe('replace', refOfObject(obj)), () =>
        api.replace(header(refOfObject(obj)), undefined, dryRun(options), FIELD_MANAGER, raw(request)),
      );
    },

    async delete(ref, { propagationPolicy, dryRun: isDryRun }) {
      try {
        const mode = isDryRun ? 'All' : undefined;
        await call(describe('delete', ref), () =>
          api.delete(header(ref), undefined, mode, undefined, undefined, propagationPolicy),
        );
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },

    async removeFinalizer(ref, finalizer) {
      for (let attempt = 0; ; attempt++) {
        const live = await cluster.get(ref);
        const index = live?.metadata.finalizers?.indexOf(finalizer) ?? -1;
        if (live === undefined || index < 0) return;
        const path = `/metadata/finalizers/${index}`;
        const body = [
          { op: 'test', path, value: finalizer },
          { op: 'remove', path },
        ];
        try {
          await call(describe('remove finalizer from', ref), () =>
            api.patch(
              header(ref),
              undefined,
              undefined,
              FIELD_MANAGER,
              undefined,
              PatchStrategy.JsonPatch,
              raw({ body }),
            ),
          );
          return;
        } catch (error) {
          if (isNotFound(error)) return;
          const retryable = isConflict(error) || (error as { statusCode?: number }).statusCode === 422;
          if (!retryable || attempt >= 4) throw error;
        }
      }
    },

    watch(targets, onChange) {
      return watchCollections(kc, api, targets, onChange, options.watchTimeoutSeconds ?? 30);
    },

    async podLogs(namespace, name, { tailLines, container }) {
      try {
        const text = await core.readNamespacedPodLog({ name, namespace, tailLines, container });
        const lines = String(text).split('\n');
        if (lines.at(-1) === '') lines.pop();
        return lines.slice(-tailLines);
      } catch (error) {
        const mapped = toClusterError(error, `logs of Pod ${namespace}/${name}`);
        if (isNotFound(mapped) || mapped.statusCode === 400) return [];
        throw mapped;
      }
    },
  };
  return cluster;
}
