/**
 * A sync whose git source cannot be resolved ends in Error with git's reason in its thread and in the alerts
 * channel, and nothing of it stays queued: a repository that does not exist, one whose server refuses the
 * connection, and one that accepts the connection and never answers (bounded by defaults.gitRequestTimeoutSeconds).
 * Through `wavesync serve`: signed commands, the fake Slack Web API, the real queue on the real Redis, real git.
 */
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServeStack, stagingApplicationYaml, startServeStack } from '../support/serve-stack.js';

const USERS = { U0PAT: 'pat' } as const;
let stack: ServeStack;
let silent: Server;
const sockets: Socket[] = [];

const gitApp = (name: string, repoURL: string) =>
  stagingApplicationYaml(name, `{ repoURL: "${repoURL}", path: web, targetRevision: main }`);

beforeAll(async () => {
  // Accepts connections and never answers: a host behind a firewall that drops the replies.
  silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as AddressInfo;
  stack = await startServeStack({
    settings: `
applications:
  - directory: applications
defaults:
  gitRequestTimeoutSeconds: 1
  driftDetection: { enabled: false }
environments:
  staging:
    notifications: { channel: C0ALERTS }
`,
    users: USERS,
    files: {
      'applications/gone.yaml': gitApp('gone', 'file:///nonexistent/wavesync/repo.git'),
      'applications/refused.yaml': gitApp('refused', 'http://127.0.0.1:9/repo.git'),
      'applications/silent.yaml': gitApp('silent', `http://127.0.0.1:${port}/repo.git`),
    },
  });
}, 60_000);

afterAll(async () => {
  await stack?.close();
  for (const socket of sockets) socket.destroy();
  silent?.close();
});

const texts = (channel: string) => stack.slack.channelMessages(channel).map((m) => stack.text(channel, m.ts));

describe('test/e2e/chatops/source-failure', () => {
  it.each([
    [
      'gone',
      /git ls-remote of file:\/\/\/nonexistent\/wavesync\/repo\.git failed: fatal: .*does not appear to be a git repository/,
    ],
    ['refused', /git ls-remote of http:\/\/127\.0\.0\.1:9\/repo\.git failed: fatal: unable to access/],
    [
      'silent',
      /git ls-remote of http:\/\/127\.0\.0\.1:\d+\/repo\.git failed: no answer from the repository within 1 s \(defaults\.gitRequestTimeoutSeconds\)/,
    ],
  ])(
    'when git cannot resolve the source of %s, then the operation ends in Error, its thread says why and the failure is announced',
    async (app, reason) => {
      const channel = `C0${app.toUpperCase()}`;
      await stack.command(app, channel, 'U0PAT');
      const [entry] = await stack.finished(app, 1);
      expect(entry?.phase).toBe('Error');
      expect(entry?.message).toMatch(reason);
      const [header, ...replies] = texts(channel);
      expect(header).toMatch(new RegExp(`^❌ ${app} → staging {2}· {2}Error {2}· {2}git ls-remote`));
      expect(replies.at(-1)).toMatch(/^❌ Error in \d+ s · git ls-remote/);
      expect(replies.at(-1)).toMatch(reason);
      const alerts = texts('C0ALERTS').filter((t) => t.startsWith(`❌ ${app} → staging errored`));
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatch(reason);
    },
  );
});
