/**
 * Small manifest builders for simulator tests.
 */

interface ContainerManifest {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: Record<string, unknown>[];
  envFrom?: Record<string, unknown>[];
  ports?: Record<string, unknown>[];
}

export interface DeploymentManifest {
  apiVersion: 'apps/v1';
  kind: 'Deployment';
  metadata: { name: string; namespace: string; labels?: Record<string, string> };
  spec: {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    template: { metadata: { labels: Record<string, string> }; spec: { containers: ContainerManifest[] } };
    [key: string]: unknown;
  };
}

export interface DeploymentOptions {
  image?: string;
  replicas?: number;
  namespace?: string;
  /** Extra template labels (the selector stays `app: <name>`). */
  templateLabels?: Record<string, string>;
  spec?: Record<string, unknown>;
}

/** A Deployment `name` selecting `app: <name>` with one container `web`. */
export function deploymentManifest(name: string, options: DeploymentOptions = {}): DeploymentManifest {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: options.namespace ?? 'default' },
    spec: {
      replicas: options.replicas ?? 0,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name, ...options.templateLabels } },
        spec: { containers: [{ name: 'web', image: options.image ?? 'nginx:1' }] },
      },
      ...options.spec,
    },
  };
}
