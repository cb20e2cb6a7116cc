/**
 * A bot process for kill -9 tests, run by `spawnBotProcess` through tsx: the real Bolt app over HTTP with the real
 * sync queue's producer and command journal on Redis, against a fake Slack API. Environment: REDIS_URL, PREFIX,
 * SLACK_API_URL, SIGNING_SECRET, LEASE_MS (journal lease), APPS (comma-separated Application names). Prints
 * `ready <port>` once it listens (it has swept the journal once by then: recovery starts with the app).
 */
import { createLogger } from '../../../src/logger.js';
import { createSyncQueue } from '../../../src/queue/sync-queue.js';
import { createSlackApp } from '../../../src/slack/slack-app.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
};

const apps = env('APPS').split(',');
const queue = createSyncQueue({ connection: { url: env('REDIS_URL') }, prefix: env('PREFIX') });
const slack = createSlackApp({
  botToken: 'xoxb-test-token',
  signingSecret: env('SIGNING_SECRET'),
  apiUrl: env('SLACK_API_URL'),
  port: 0,
  host: '127.0.0.1',
  clientRetries: 0,
  commandRecoveryMs: 200,
  deps: {
    queue,
    journal: queue.commands,
    commandLeaseMs: Number(env('LEASE_MS')),
    catalog: {
      names: () => apps,
      describe: (name) =>
        apps.includes(name) ? { name, destination: 'in-cluster/x', source: 'git' } : undefined,
    },
    logger: createLogger({ level: 'silent' }),
  },
});
const { port } = await slack.start();
process.stdout.write(`ready ${port}\n`);
