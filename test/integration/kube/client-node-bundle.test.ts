/**
 * The build's bundle of client-node (scripts/bundle-client-node.mjs over what tsc makes of src/kube/client-node.ts)
 * leaves the generated API out and still works: its KubeConfig reads a kubeconfig and its ApiException is there. Without
 * the bundle every start of `sync`, the worker and the bot loaded ~800 generated modules. The dependencies only some
 * kubeconfigs use (proxy agents, auth providers' libraries, node-fetch) are not in the bundle: they are loaded from
 * node_modules when first used, and work then as client-node's own files do.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const DIR = path.join(ROOT, 'dist', `test-client-node-bundle-${process.pid}`);
const file = path.join(DIR, 'client-node.js');
/** What scripts/bundle-client-node.mjs printed. */
let stdout = '';

// The bundle as the build makes it, of src/kube/client-node.ts compiled.
beforeAll(async () => {
  const source = await readFile(path.join(ROOT, 'src', 'kube', 'client-node.ts'), 'utf8');
  const compiled = await transform(source, { loader: 'ts', format: 'esm' });
  await mkdir(DIR, { recursive: true });
  await writeFile(file, compiled.code);
  ({ stdout } = await promisify(execFile)(process.execPath, [
    path.join(ROOT, 'scripts', 'bundle-client-node.mjs'),
    file,
  ]));
});

afterAll(async () => {
  await rm(DIR, { recursive: true, force: true });
});

describe('the client-node bundle of npm run build', () => {
  it('holds KubeConfig and ApiException without the generated API, its proxy agents loaded when used', async () => {
    const modules = Number(/(\d+) modules/.exec(stdout)?.[1]);
    expect(modules).toBeGreaterThan(10);
    expect(modules).toBeLessThan(40); // the package's index alone is ~830; with the lazy dependencies 77
    const bundle = await readFile(file, 'utf8');
    expect(bundle).not.toContain('class V1PodSpec');
    expect(bundle).not.toContain('class CoreV1Api');
    for (const lazy of ['node-fetch', 'socks-proxy-agent', 'hpagent', 'openid-client', 'jsonpath-plus'])
      expect(bundle).toContain(`lazy-dependency:${lazy}`);
    // Not compiled at start: none of their code (nor of what they import) is in the bundle.
    expect(bundle).not.toMatch(
      /node_modules\/(node-fetch|whatwg-url|tr46|socks|socks-proxy-agent|smart-buffer|ip-address|hpagent|openid-client|oauth4webapi|jose|jsonpath-plus)\//,
    );
    expect(bundle.length).toBeLessThan(250_000);

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

  it("runs the auth providers' libraries and node-fetch from node_modules when a kubeconfig uses them, as client-node's own files do", async () => {
    const { KubeConfig: Bundled } = await import(pathToFileURL(file).href);
    const { KubeConfig: Unbundled } = await import('@kubernetes/client-node/dist/config.js');
    // gcp's cmd-path: its output is read with jsonpath-plus.
    const helper = path.join(DIR, 'gcp-token.sh');
    await writeFile(
      helper,
      `#!/bin/sh\necho '{"credential":{"access_token":"from-gcp","token_expiry":"${new Date(Date.now() + 3_600_000).toISOString()}"}}'\n`,
    );
    await chmod(helper, 0o755);
    const gcp = {
      name: 'gcp',
      config: {
        'cmd-path': helper,
        'token-key': '{.credential.access_token}',
        'expiry-key': '{.credential.token_expiry}',
      },
    };
    // oidc with an expired id-token: its refresh goes through openid-client (which refuses the issuer given).
    const expired = [{ alg: 'none' }, { exp: Math.floor(Date.now() / 1000) - 3600 }, {}]
      .map((part) => Buffer.from(JSON.stringify(part)).toString('base64url'))
      .join('.');
    const oidc = {
      name: 'oidc',
      config: {
        'id-token': expired,
        'refresh-token': 'r',
        'client-id': 'wavesync',
        'idp-issuer-url': 'http://127.0.0.1:1',
      },
    };
    const outcome = async (KubeConfigClass: typeof Unbundled, authProvider: object) => {
      const kc = new KubeConfigClass();
      kc.loadFromOptions({
        clusters: [{ name: 'c', server: 'https://127.0.0.1:6443', skipTLSVerify: false }],
        users: [{ name: 'u', authProvider: structuredClone(authProvider) }],
        contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
        currentContext: 'x',
      });
      // applyToFetchOptions: node-fetch's Headers.
      return kc.applyToFetchOptions({}).then(
        (options) =>
          `Authorization: ${(options.headers as { get(name: string): string | null }).get('Authorization')}`,
        (error: Error) => `${error.name}: ${error.message}`,
      );
    };
    for (const provider of [gcp, oidc]) {
      const expected = await outcome(Unbundled, provider);
      expect(await outcome(Bundled, provider), provider.name).toBe(expected);
    }
    expect(await outcome(Bundled, gcp)).toBe('Authorization: Bearer from-gcp');
    expect(await outcome(Bundled, oidc)).not.toMatch(/Cannot find module|is not a function|undefined/);
    // openid-client is an ES module `require`d (Node ≥ 20.19): in a process of its own, nothing is said on stderr.
    const script = [
      `const { KubeConfig } = await import(${JSON.stringify(pathToFileURL(file).href)});`,
      'const kc = new KubeConfig();',
      `kc.loadFromOptions(${JSON.stringify({
        clusters: [{ name: 'c', server: 'https://127.0.0.1:6443' }],
        users: [{ name: 'u', authProvider: oidc }],
        contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
        currentContext: 'x',
      })});`,
      'await kc.applyToHTTPSOptions({ headers: {} }).catch((error) => console.log(error.message));',
    ].join('\n');
    const run = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    expect(run.stdout.trim()).toBe((await outcome(Unbundled, oidc)).replace(/^\w+: /, ''));
    expect(run.stderr).toBe('');
  });
});
