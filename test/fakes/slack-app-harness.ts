/**
 * The real Bolt app over HTTP against the fake Slack API, with an in-memory queue and catalog: what the Slack
 * tests start, and what they take apart afterwards.
 */
import { createLogger } from '../../src/logger.js';
import type { DurableWrites } from '../../src/queue/index.js';
import type { ApplicationCatalog, ApplicationSummary, ApprovalGate } from '../../src/slack/ports.js';
import { createSlackApp, httpRoute, type SlackApp, type SlackAppOptions } from '../../src/slack/slack-app.js';
import { createSlackWebClient } from '../../src/slack/slack-web-client.js';
import { ChannelPacer } from '../../src/thread/channel-pacer.js';
import { FakeSlackApi, type FakeSlackOptions } from './fake-slack-api.js';
import { InMemorySyncQueue } from './in-memory-sync-queue.js';
import { SignedSlackClient } from './slack-client.js';

export const SIGNING_SECRET = 'test-signing-secret-0123456789abcdef';
export const CHANNEL = 'C0DEPLOYS';

export const APPS: ApplicationSummary[] = [
  {
    name: 'guestbook',
    environment: 'staging',
    destination: { server: 'https://kubernetes.default.svc', namespace: 'guestbook' },
    source: {
      repoURL: 'https://github.com/argoproj/argocd-example-apps',
      path: 'pre-post-sync',
      targetRevision: 'HEAD',
    },
  },
  {
    name: 'helm-guestbook',
    destination: 'in-cluster/helm-guestbook',
    source: 'https://github.com/argoproj/argocd-example-apps#helm-guestbook',
  },
];

export function catalogOf(apps: readonly ApplicationSummary[]): ApplicationCatalog {
  return {
    names: () => apps.map((a) => a.name).sort(),
    describe: (name) => apps.find((a) => a.name === name),
  };
}

export interface Harness {
  fake: FakeSlackApi;
  queue: InMemorySyncQueue;
  catalog: ApplicationCatalog;
  slack: SignedSlackClient;
  app: SlackApp;
  botUrl: string;
  close(): Promise<void>;
}

export async function startHarness(
  fakeOptions: FakeSlackOptions = {},
  approvals?: ApprovalGate,
  /** Extra app options (e.g. the replay store and the clock of the request checks). */
  appOptions: Pick<SlackAppOptions, 'replays' | 'now'> & {
    durable?: DurableWrites;
    /** The bot's pacing of sync headers (ms between posts to a channel); default 20, the fake's pace. */
    headerIntervalMs?: number;
  } = {},
  /** More ports for the app (e.g. resource views). */
  extraDeps: Partial<SlackAppOptions['deps']> = {},
): Promise<Harness> {
  const { durable, headerIntervalMs, ...slackOptions } = appOptions;
  const fake = await FakeSlackApi.start({ postIntervalMs: 20, burst: 3, ...fakeOptions });
  const queue = new InMemorySyncQueue();
  const catalog = catalogOf(APPS);
  const app = createSlackApp({
    botToken: fake.botToken,
    signingSecret: SIGNING_SECRET,
    apiUrl: fake.apiUrl,
    port: 0,
    host: '127.0.0.1',
    clientRetries: 0,
    routes: [httpRoute('GET', '/healthz', async (_req, res) => void res.writeHead(200).end('ok'))],
    ...slackOptions,
    deps: {
      queue,
      catalog,
      logger: createLogger({ level: 'silent' }),
      ...(approvals ? { approvals } : {}),
      ...(durable ? { durable } : {}),
      // As start-bot wires it: a client that rejects rate-limited calls, and a pacer (here the process's own).
      headerDelivery: {
        client: createSlackWebClient({ botToken: fake.botToken, apiUrl: fake.apiUrl, retries: 0 }),
        pacer: new ChannelPacer(headerIntervalMs ?? 20),
      },
      ...extraDeps,
    },
  });
  const { port } = await app.start();
  const botUrl = `http://127.0.0.1:${port}`;
  return {
    fake,
    queue,
    catalog,
    app,
    botUrl,
    slack: new SignedSlackClient(botUrl, SIGNING_SECRET),
    async close() {
      await app.stop();
      await fake.close();
    },
  };
}
