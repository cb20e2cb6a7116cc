/**
 * The build's bundle of client-node (scripts/bundle-client-node.mjs over what tsc makes of src/kube/client-node.ts)
 * leaves the generated API out and still works: its KubeConfig reads a kubeconfig and its ApiException is there. Without
 * the bundle every start of `sync`, the worker and the bot loaded ~800 generated modules. The dependencies only some
 * kubeconfigs use (proxy agents, auth providers' libraries, node-fetch) are loaded when first used, and work then.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const DIR = path.join(ROOT, 'dist', `test-client-node-bundle-${process.pid}`);

afterAll(async () => {
  await rm(DIR, { recursive: true, force: true });
});

describe('the client-node bundle of npm run build', () => {
  it('holds KubeConfig and ApiException without the generated API, its proxy agents loaded when used', async () => {
    const source = await readFile(path.join(ROOT, 'src', 'kube', 'client-node.ts'), 'utf8');
    const compiled = await transform(source, { loader: 'ts', format: 'esm' });
    await mkdir(DIR, { recursive: true });
    const file = path.join(DIR, 'client-node.js');
    await writeFile(file, compiled.code);
    const { stdout } = await promisify(execFile)(process.execPath, [
      path.join(ROOT, 'scripts', 'bundle-client-node.mjs'),
      file,
    ]);
    const modules = Number(/(\d+) modules/.exec(stdout)?.[1]);
    expect(modules).toBeGreaterThan(10);
    expect(modules).toBeLessThan(150); // the package's index alone is ~830
    const bundle = await readFile(file, 'utf8');
    expect(bundle).not.toContain('class V1PodSpec');
    expect(bundle).not.toContain('class CoreV1Api');
    for (const lazy of ['node-fetch', 'socks-proxy-agent', 'hpagent', 'openid-client', 'jsonpath-plus'])
      expect(bundle).toContain(`lazy-dependency:${lazy}`);

    const { KubeConfig, ApiException } = await import(pathToFileURL(file).href);
    const kc = new KubeConfig();
    kc.loadFromString(
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{ name: c, cluster: { server: "https://127.0.0.1:6443" } }]',
        'users: [{ name: u, user: { token: abc } }]',
        'contexts: [{ name: x, context: { cluster: c, user: u, namespace: team } }]',
        'current-context: x',
      ].join('\n'),
    );
    expect(kc.getCurrentCluster()?.server).toBe('https://127.0.0.1:6443');
    expect(kc.getContextObject(kc.getCurrentContext())?.namespace).toBe('team');
    const options: { headers?: Record<string, string> } = {};
    await kc.applyToHTTPSOptions(options);
    expect(options.headers?.Authorization).toBe('Bearer abc');
    // A proxy-url's agent comes from a dependency loaded on first use (socks-proxy-agent, hpagent).
    for (const [proxy, agent] of [
      ['socks5://127.0.0.1:1080', 'SocksProxyAgent'],
      ['http://127.0.0.1:3128', 'HttpsProxyAgent'],
    ]) {
      const proxied = new KubeConfig();
      proxied.loadFromOptions({
        clusters: [{ name: 'c', server: 'https://127.0.0.1:6443', proxyUrl: proxy, skipTLSVerify: false }],
        users: [{ name: 'u', token: 'abc' }],
        contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
        currentContext: 'x',
      });
      const withAgent: { agent?: object } = {};
      await proxied.applyToHTTPSOptions(withAgent);
      expect(withAgent.agent?.constructor.name).toMatch(new RegExp(`^${agent}\\d*$`)); // esbuild may number a class
    }
    expect(new ApiException(404, 'HTTP-Code: 404', '{}', {}).code).toBe(404);
  });
});
