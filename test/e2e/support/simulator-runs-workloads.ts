/**
 * Does the Kubernetes API simulator run workloads yet (a Job's Pod runs and the Job completes)? The end-to-end
 * syncs need it: a hook Job must finish and a Deployment must become Healthy. Probed, not assumed, so these tests
 * start running by themselves once the simulator's controllers land (issue 3).
 */
import { startSimulator } from '../../../sim/index.js';

export async function simulatorRunsWorkloads(timeoutMs = 5000): Promise<boolean> {
  const sim = await startSimulator({ speed: 50 });
  try {
    const job = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'probe', namespace: 'default' },
      spec: {
        backoffLimit: 0,
        template: {
          spec: {
            restartPolicy: 'Never',
            containers: [{ name: 'probe', image: 'busybox', command: ['sh', '-c', 'exit 0'] }],
          },
        },
      },
    };
    const headers = { 'content-type': 'application/json', authorization: 'Bearer probe' };
    const created = await fetch(`${sim.url}/apis/batch/v1/namespaces/default/jobs`, {
      method: 'POST',
      headers,
      body: JSON.stringify(job),
    });
    if (!created.ok) return false;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const res = await fetch(`${sim.url}/apis/batch/v1/namespaces/default/jobs/probe`, { headers });
      const body = (await res.json()) as { status?: { succeeded?: number } };
      if ((body.status?.succeeded ?? 0) > 0) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  } finally {
    await sim.stop();
  }
}
