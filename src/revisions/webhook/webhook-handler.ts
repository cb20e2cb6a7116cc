/**
 * `POST /api/webhook` on the bot's HTTP port, as Argo CD serves it: a git host's push moves the Applications it
 * concerns now rather than at the next poll. In order:
 *
 * 1. a body over 1 MB → 413 (read no further);
 * 2. not a host wavesync knows (./webhook-payloads.ts) → 400;
 * 3. no secret configured for that host → 403, naming the setting. Argo CD accepts unsigned webhooks when no secret
 *    is set; wavesync does not: a webhook starts syncs, and an unauthenticated one would let anyone who can reach
 *    the port make the bot fetch and sync on demand (and post in channels);
 * 4. the proof does not match → 401, nothing done;
 * 5. a delivery id seen before (remembered 24 h after it was verified) → 200 `duplicate`, nothing done;
 * 6. `ping` and events other than pushes → 200, nothing done;
 * 7. a push: the Applications it concerns (./match-applications.ts) are resolved again at once, by the same code as
 *    the poll (RevisionWatcher.refreshRepository), in the background → 202 with their names.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Application, type RevisionTrigger, sourcesOf } from '../../domain/index.js';
import type { Logger } from '../../logger.js';
import { normalizeRepoUrl } from '../repo-url.js';
import type { PollResult } from '../revision-watcher.js';
import { pushConcerns } from './match-applications.js';
import { envelopeOf, pushesOf, secretFor, verify, type WebhookSecrets } from './webhook-payloads.js';

export const WEBHOOK_PATH = '/api/webhook';
/** Largest body accepted (bytes). */
const MAX_WEBHOOK_BYTES = 1024 * 1024;
/** How long a delivery id is remembered. */
const DELIVERY_TTL_MS = 24 * 3_600_000;

/** Delivery ids seen, shared by the replicas. */
interface DeliveryLog {
  /** True the first time `id` is seen within `ttlMs`. */
  firstTime(id: string, ttlMs: number): Promise<boolean>;
}

export interface WebhookHandlerDeps {
  secrets: WebhookSecrets;
  deliveries: DeliveryLog;
  applications(): readonly Application[];
  refresh(
    repoURL: string,
    trigger: RevisionTrigger,
    only: (app: Application) => boolean,
  ): Promise<PollResult>;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

export function createWebhookHandler(deps: WebhookHandlerDeps) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    void handle(deps, req, res).catch((error: unknown) => {
      deps.logger?.warn({ err: error }, 'webhook not handled');
      if (!res.headersSent) answer(res, 500, { error: 'internal error' });
    });
  };
}

async function handle(deps: WebhookHandlerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  if (body === 'too-large') {
    res.on('finish', () => req.destroy());
    res.setHeader('connection', 'close');
    return answer(res, 413, { error: `the body is over ${MAX_WEBHOOK_BYTES} bytes` });
  }
  const envelope = envelopeOf(req.headers);
  if (!envelope)
    return answer(res, 400, { error: 'not a webhook of GitHub, GitLab, Bitbucket, Gitea or Gogs' });
  const { provider } = envelope;
  const secret = secretFor(deps.secrets, provider);
  if (!secret) {
    deps.logger?.warn({ provider }, 'webhook refused: no secret configured');
    return answer(res, 403, {
      error: `${provider} webhooks are refused: no secret is configured (${envelope.secretName})`,
    });
  }
  if (!verify(provider, req.headers, body, secret)) {
    deps.logger?.warn({ provider, delivery: envelope.deliveryId }, 'webhook refused: verification failed');
    return answer(res, 401, { error: `${provider} webhook verification failed` });
  }
  const delivery = envelope.deliveryId ?? undefined;
  if (delivery && !(await deps.deliveries.firstTime(`${provider}:${delivery}`, DELIVERY_TTL_MS))) {
    return answer(res, 200, { status: 'duplicate', delivery });
  }
  if (envelope.event !== 'push') return answer(res, 200, { status: 'ignored', event: envelope.event });
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8'));
  } catch {
    return answer(res, 400, { error: 'the body is not JSON' });
  }
  const pushes = pushesOf(provider, payload);
  if (!Array.isArray(pushes)) return answer(res, 400, { error: pushes.problem });
  const trigger: RevisionTrigger = { kind: 'push', provider };
  const concerned = new Set<string>();
  const work: Promise<unknown>[] = [];
  for (const push of pushes) {
    const apps = deps.applications().filter((app) => pushConcerns(app, push));
    if (apps.length === 0 || push.repoURLs.length === 0) continue;
    const names = new Set(apps.map((a) => a.name));
    for (const name of names) concerned.add(name);
    const pushed = new Set(push.repoURLs.map(normalizeRepoUrl));
    const source = sourcesOf(apps[0]!).find((s) => pushed.has(normalizeRepoUrl(s.repoURL)));
    if (!source) continue;
    work.push(deps.refresh(source.repoURL, trigger, (app) => names.has(app.name)));
  }
  deps.logger?.info({ provider, delivery, applications: [...concerned] }, 'webhook push received');
  for (const w of work)
    w.catch((error: unknown) => deps.logger?.warn({ err: error, provider }, 'webhook refresh failed'));
  answer(res, 202, { status: 'accepted', provider, applications: [...concerned].sort() });
}

function answer(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** The body, or `too-large` as soon as it passes MAX_WEBHOOK_BYTES (Content-Length is believed first when given). */
function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_WEBHOOK_BYTES) return Promise.resolve('too-large');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_WEBHOOK_BYTES) return void chunks.push(chunk);
      req.off('data', onData);
      req.pause();
      resolve('too-large');
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
