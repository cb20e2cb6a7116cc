import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../index.js';

const run = promisify(execFile);
const KUBECTL = process.env.KUBECTL ?? 'kubectl';
const available = await run(KUBECTL, ['version', '--client']).then(
  () => true,
  () => false,
);

const MANIFESTS = `apiVersion: v1
kind: ConfigMap
metadata:
  name: compat-settings
data:
  GREETING: hello
---
apiVersion: batch/v1
kind: Job
metadata:
  name: compat-job
spec:
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: main
          image: alpine:3
          command: ["sh", "-c", "echo $GREETING from kubectl; sleep 3"]
          envFrom:
            - configMapRef:
                name: compat-settings
`;

let sim: Simulator;
let dir: string;
let kubeconfig: string;
let manifest: string;

async function kubectl(...args: string[]) {
  return run(KUBECTL, ['--kubeconfig', kubeconfig, ...args], { timeout: 60_000 });
}

/** The rows of a kubectl table, each cell cut at its header's column and trimmed, joined by '|'. */
function tableRows(table: string): string[] {
  const [header = '', ...lines] = table.trimEnd().split('\n');
  const starts = [...header.matchAll(/\S+/g)].map((m) => m.index ?? 0);
  return lines.map((line) =>
    starts.map((start, i) => line.slice(start, starts[i + 1] ?? line.length).trim()).join('|'),
  );
}

/**
 * `kubectl api-resources -o wide` as the legacy documents say it (NAME, SHORTNAMES, APIVERSION, NAMESPACED, KIND,
 * VERBS, CATEGORIES): every resource of /api/v1 and of each group's preferred version, subresources left out.
 */
async function legacyApiResources(url: string): Promise<string[]> {
  const json = async <T>(p: string) => (await (await fetch(`${url}${p}`)).json()) as T;
  const groups = await json<{ groups: { preferredVersion: { groupVersion: string } }[] }>('/apis');
  const versions = ['v1', ...groups.groups.map((g) => g.preferredVersion.groupVersion)];
  const rows: string[] = [];
  for (const groupVersion of versions) {
    type Entry = {
      name: string;
      namespaced: boolean;
      kind: string;
      verbs: string[];
      shortNames?: string[];
      categories?: string[];
    };
    const list = await json<{ resources: Entry[] }>(
      groupVersion === 'v1' ? '/api/v1' : `/apis/${groupVersion}`,
    );
    for (const r of list.resources.filter((e) => !e.name.includes('/')))
      rows.push(
        [
          r.name,
          (r.shortNames ?? []).join(','),
          groupVersion,
          String(r.namespaced),
          r.kind,
          r.verbs.join(','),
          (r.categories ?? []).join(','),
        ].join('|'),
      );
  }
  return rows;
}

// Debian's kubectl (1.32 here; CI installs the kubernetes-client package, kubectl 1.20, when missing).
describe.skipIf(!available)('kubectl against the simulator', () => {
  beforeAll(async () => {
    sim = await startSimulator({ speed: 10 });
    dir = await mkdtemp(path.join(tmpdir(), 'wavesync-kubectl-'));
    kubeconfig = path.join(dir, 'kubeconfig');
    manifest = path.join(dir, 'manifests.yaml');
    await sim.writeKubeconfig(kubeconfig, { namespace: 'default' });
    await writeFile(manifest, MANIFESTS);
  });
  afterAll(async () => {
    await sim?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('apply --server-side creates both objects with kubectl as field manager', async () => {
    const { stdout } = await kubectl('apply', '--server-side', '-f', manifest);
    expect(stdout).toContain('configmap/compat-settings serverside-applied');
    expect(stdout).toContain('job.batch/compat-job serverside-applied');
    const managers = sim.get({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      name: 'compat-settings',
      namespace: 'default',
    })?.metadata.managedFields;
    expect(managers?.[0]).toMatchObject({ manager: 'kubectl', operation: 'Apply' });
  });

  it('get -o json returns the stored object', async () => {
    const { stdout } = await kubectl('get', 'configmap', 'compat-settings', '-o', 'json');
    const obj = JSON.parse(stdout);
    expect(obj).toMatchObject({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'compat-settings', namespace: 'default' },
      data: { GREETING: 'hello' },
    });
    expect(obj.metadata.uid).toBe(
      sim.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'compat-settings', namespace: 'default' })
        ?.metadata.uid,
    );
  });

  it('wait --for=condition=complete returns once the Job completed', async () => {
    const { stdout } = await kubectl('wait', '--for=condition=complete', 'job/compat-job', '--timeout=60s');
    expect(stdout.trim()).toBe('job.batch/compat-job condition met');
    const pod = sim
      .list('v1', 'Pod', 'default')
      .find((p) => p.metadata.labels?.['job-name'] === 'compat-job');
    expect(sim.podLog('default', pod?.metadata.name ?? '')).toBe('hello from kubectl\n');
  });

  it('rejects an unknown field on server-side apply', async () => {
    const bad = path.join(dir, 'bad.yaml');
    await writeFile(
      bad,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: compat-bad\ninvalidKey: nope\n',
    );
    const error = await kubectl('apply', '--server-side', '-f', bad).catch((e: { stderr: string }) => e);
    expect((error as { stderr: string }).stderr).toMatch(/invalidKey/);
    expect(
      sim.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'compat-bad', namespace: 'default' }),
    ).toBeUndefined();
  });

  it('apply --server-side of a Secret with stringData stores it as base64 data, never stringData', async () => {
    const secret = path.join(dir, 'secret.yaml');
    await writeFile(
      secret,
      'apiVersion: v1\nkind: Secret\nmetadata:\n  name: compat-secret\nstringData:\n  password: hunter2\n',
    );
    await kubectl('apply', '--server-side', '-f', secret);
    const { stdout } = await kubectl('get', 'secret', 'compat-secret', '-o', 'json');
    const obj = JSON.parse(stdout);
    expect(obj.data).toEqual({ password: Buffer.from('hunter2').toString('base64') });
    expect(obj.stringData).toBeUndefined();
    const { stdout: decoded } = await kubectl(
      'get',
      'secret',
      'compat-secret',
      '-o',
      'jsonpath={.data.password}',
    );
    expect(Buffer.from(decoded, 'base64').toString()).toBe('hunter2');
  });

  it('get events --field-selector: involvedObject.kind and type select; an unknown field is refused as the API server does', async () => {
    const { stdout } = await kubectl(
      'get',
      'events',
      '--field-selector',
      'involvedObject.kind=Pod,type=Normal',
      '-o',
      'jsonpath={range .items[*]}{.involvedObject.kind}{"\\n"}{end}',
    );
    const kinds = stdout.trim().split('\n');
    expect(kinds.length).toBeGreaterThan(0);
    expect(new Set(kinds)).toEqual(new Set(['Pod']));
    const error = await kubectl('get', 'events', '--field-selector', 'message=x').catch(
      (e: { stderr: string }) => e,
    );
    // kubectl puts its own words ("Unable to find … that match …") before the server's message.
    expect((error as { stderr: string }).stderr).toMatch(
      /^Error from server \(BadRequest\): .*field selector "message=x": field label not supported: message$/m,
    );
  });

  it('api-resources reads the aggregated discovery (kubectl ≥ 1.26) and lists what the legacy documents list', async () => {
    const client = JSON.parse((await run(KUBECTL, ['version', '--client', '-o', 'json'])).stdout) as {
      clientVersion: { minor: string };
    };
    const before = sim.requests.length;
    const cacheDir = path.join(dir, 'discovery-cache');
    const { stdout } = await kubectl('api-resources', '-o', 'wide', '--cache-dir', cacheDir);
    const asked = sim.requests.slice(before).map((r) => r.path.split('?')[0]);
    if (Number.parseInt(client.clientVersion.minor, 10) >= 26) {
      // Two documents hold everything: no APIResourceList of a group version is asked for.
      expect(asked.filter((p) => p === '/api' || p === '/apis')).toEqual(['/api', '/apis']);
      expect(asked.filter((p) => /^\/apis?\/[^/]+(\/[^/]+)?$/.test(p ?? '') && p !== '/apis')).toEqual([]);
    }
    // kubectl 1.20 prints the verbs as `[create delete …]`, 1.32 as `create,delete,…`.
    const rows = tableRows(stdout).map((row) =>
      row.replace(/\[([^\]]*)\]/, (_, verbs: string) => verbs.split(' ').join(',')),
    );
    expect(rows.sort()).toEqual((await legacyApiResources(sim.url)).sort());
  });

  it('delete -f removes the objects', async () => {
    const { stdout } = await kubectl('delete', '-f', manifest);
    expect(stdout).toContain('configmap "compat-settings" deleted');
    expect(stdout).toContain('job.batch "compat-job" deleted');
    expect(
      sim.get({ apiVersion: 'v1', kind: 'ConfigMap', name: 'compat-settings', namespace: 'default' }),
    ).toBeUndefined();
    expect(
      sim.get({ apiVersion: 'batch/v1', kind: 'Job', name: 'compat-job', namespace: 'default' }),
    ).toBeUndefined();
  });
});
