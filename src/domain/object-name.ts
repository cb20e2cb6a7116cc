/**
 * Kubernetes object-name rules, with kube-apiserver's exact messages (k8s.io/apimachinery/pkg/util/validation,
 * `IsDNS1123Subdomain`, `IsDNS1123Label`, `IsDNS1035Label`, and apimachinery `path.IsValidPathSegmentName` for
 * RBAC). Shared by the simulator (which answers as the API server does) and the engine (which checks what it
 * cannot dry-run on the server, e.g. objects in a Namespace the sync has not created yet).
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

export const NAME_MESSAGES = {
  subdomain:
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  label:
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
  dns1035:
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
};

export type NameRule = 'subdomain' | 'label' | 'dns1035' | 'path';

/** Which name rule a kind uses: Namespace → RFC 1123 label, Service → DNS-1035 label, RBAC → path segment. */
export function nameRuleOf(kind: string): NameRule {
  if (kind === 'Namespace') return 'label';
  if (kind === 'Service') return 'dns1035';
  if (['Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'].includes(kind)) return 'path';
  return 'subdomain';
}

/** The API server's details for an invalid `name` under `rule` (empty when valid), without the field prefix. */
export function nameProblems(name: string, rule: NameRule): string[] {
  if (rule === 'path') {
    const bad = name === '.' || name === '..' || name.includes('/') || name.includes('%');
    return bad ? [`may not contain '/'`] : [];
  }
  const limit = rule === 'subdomain' ? 253 : 63;
  const pattern = rule === 'subdomain' ? DNS1123_SUBDOMAIN : rule === 'label' ? DNS1123_LABEL : DNS1035_LABEL;
  const problems: string[] = [];
  if (name.length > limit) problems.push(`must be no more than ${limit} characters`);
  if (!pattern.test(name)) problems.push(NAME_MESSAGES[rule]);
  return problems;
}
