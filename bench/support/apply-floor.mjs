/**
 * The least a Node.js process can do to server-side apply N objects — the floor under `wavesync sync` in
 * bench/small-sync.bench.ts (FLOOR=1). It reads the objects already parsed (a JSON array: no YAML, no discovery, no
 * kubeconfig, no tracked-object listing, no watch, no health) and sends each one as kubectl's server-side apply
 * does (`PATCH …?fieldManager=…&force=true`, `application/apply-patch+yaml`), 32 at a time over one keep-alive
 * agent: PASSES=1 sends one request per object, as kubectl does; PASSES=2 sends a server-side dry run of every
 * object first, then the applies, as wavesync's engine does. The first object (the Namespace) goes alone, first.
 * Only the core kinds the bench's objects use are mapped to paths; anything else is an error.
 *
 * Run: node bench/support/apply-floor.mjs OBJECTS.json SERVER_URL TOKEN PASSES
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';

const [file, server, token, passesArg] = process.argv.slice(2);
const passes = Number(passesArg ?? 1);
const objects = JSON.parse(readFileSync(file, 'utf8'));
const { hostname, port } = new URL(server);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const PLURAL = {
  ConfigMap: 'configmaps',
  Secret: 'secrets',
  Service: 'services',
  ServiceAccount: 'serviceaccounts',
};

function pathOf(object) {
  const { kind, metadata } = object;
  if (kind === 'Namespace') return `/api/v1/namespaces/${metadata.name}`;
  if (!(kind in PLURAL))
    throw new Error(`apply-floor maps only Namespace and ${Object.keys(PLURAL)}, not ${kind}`);
  return `/api/v1/namespaces/${metadata.namespace}/${PLURAL[kind]}/${metadata.name}`;
}

function apply(object, dryRun) {
  const body = JSON.stringify(object);
  const query = `${dryRun ? 'dryRun=All&' : ''}fieldManager=apply-floor&force=true`;
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        hostname,
        port,
        agent,
        method: 'PATCH',
        path: `${pathOf(object)}?${query}`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/apply-patch+yaml',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          if (response.statusCode >= 300) reject(new Error(`${response.statusCode} ${text}`));
          else resolve(JSON.parse(text));
        });
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function all(items, dryRun) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await apply(items[next++], dryRun);
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}

const [first, ...rest] = objects;
await apply(first, false);
for (let pass = 0; pass < passes; pass++) await all(rest, passes === 2 && pass === 0);
agent.destroy();
