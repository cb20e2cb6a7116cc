/**
 * What a fresh cluster already holds: the namespaces default, kube-system, kube-public and kube-node-lease,
 * one Ready node `sim-node`, and the `kubernetes` Service in default.
 */
import type { ClusterClient } from './cluster-client.js';

export const NODE_NAME = 'sim-node';
const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export function bootstrapCluster(client: ClusterClient): void {
  for (const name of SYSTEM_NAMESPACES) {
    client.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
    });
  }
  const node = client.create({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: NODE_NAME,
      labels: { 'kubernetes.io/hostname': NODE_NAME, 'kubernetes.io/os': 'linux' },
    },
    spec: {},
  });
  node.status = {
    conditions: [
      { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
    ],
    addresses: [
      { type: 'InternalIP', address: '172.18.0.2' },
      { type: 'Hostname', address: NODE_NAME },
    ],
    capacity: { cpu: '8', memory: '16Gi', pods: '110' },
    allocatable: { cpu: '8', memory: '16Gi', pods: '110' },
    nodeInfo: {
      kubeletVersion: 'v1.32.0',
      operatingSystem: 'linux',
      architecture: 'amd64',
      containerRuntimeVersion: 'sim://1.0',
    },
  };
  client.updateStatus(node);
  client.create({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: 'kubernetes',
      namespace: 'default',
      labels: { component: 'apiserver', provider: 'kubernetes' },
    },
    spec: {
      type: 'ClusterIP',
      clusterIP: '10.96.0.1',
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
    },
  });
}
