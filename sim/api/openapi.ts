/**
 * Minimal OpenAPI documents, enough for kubectl's validation machinery (schemas are not modelled):
 * - `/openapi/v3` lists every group/version; `/openapi/v3/<gv path>` has, for each kind, a PATCH operation
 *   tagged `x-kubernetes-group-version-kind` that declares the `fieldValidation` query parameter, so kubectl
 *   1.2x+ chooses server-side field validation (it then sends `fieldValidation=Strict`).
 * - `/openapi/v2` is a document without definitions (JSON, or protobuf when asked, as kubectl 1.20 asks):
 *   kubectl's client-side validation skips kinds it has no schema for.
 */
import { apiVersionOf, type ResourceType } from './resource-type.js';

/** gnostic openapi_v2.Document with only `swagger: "2.0"` (field 1, length-delimited). */
export const OPENAPI_V2_PROTOBUF_BODY = Buffer.from([0x0a, 0x03, 0x32, 0x2e, 0x30]);

export const OPENAPI_V2_JSON = {
  swagger: '2.0',
  info: { title: 'Kubernetes', version: 'v1.32.0-wavesync-sim' },
  paths: {},
  definitions: {},
};

function gvPath(type: ResourceType): string {
  return type.group === '' ? `api/${type.version}` : `apis/${type.group}/${type.version}`;
}

export function openApiV3Root(types: ResourceType[]): object {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const t of types) {
    const path = gvPath(t);
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${apiVersionOf(t).length}` };
  }
  return { paths };
}

/** The group/version document, or undefined when no type is served under `path` (e.g. `apis/apps/v1`). */
export function openApiV3GroupVersion(path: string, types: ResourceType[]): object | undefined {
  const matching = types.filter((t) => gvPath(t) === path);
  if (matching.length === 0) return undefined;
  const paths: Record<string, object> = {};
  for (const t of matching) {
    const collection = t.namespaced ? `/${path}/namespaces/{namespace}/${t.plural}` : `/${path}/${t.plural}`;
    paths[`${collection}/{name}`] = {
      patch: {
        operationId: `patch${t.kind}`,
        'x-kubernetes-action': 'patch',
        'x-kubernetes-group-version-kind': { group: t.group, version: t.version, kind: t.kind },
        parameters: ['dryRun', 'fieldManager', 'fieldValidation', 'force'].map((name) => ({
          name,
          in: 'query',
          schema: { type: name === 'force' ? 'boolean' : 'string', uniqueItems: true },
        })),
        responses: { '200': { description: 'OK' } },
      },
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.32.0-wavesync-sim' },
    paths,
    components: {},
  };
}
