import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { errorReport } from './command-io.js';
import { slackProblem } from './run-process.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/wavesync.js');

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('wavesync serve|bot|worker refuse to start with a plain error line', () => {
  it('without settings: names every missing one before starting anything, exit 2', async () => {
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, REDIS_URL: 'redis://127.0.0.1:1' };
    const run = (role: string) =>
      promisify(execFile)(process.execPath, [BIN, role], { env }).catch(
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
    const [serve, worker] = await Promise.all([run('serve'), run('worker')]);
    expect(serve).toMatchObject({ code: 2, stdout: '' });
    expect(serve.stderr).toBe(
      'error: wavesync serve is missing WAVESYNC_CONFIG, SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET (the environment): ' +
        'set WAVESYNC_CONFIG=<path of wavesync.yaml>, ' +
        'SLACK_BOT_TOKEN=xoxb-… (your Slack app\'s "OAuth & Permissions" page), ' +
        'SLACK_SIGNING_SECRET=<Signing Secret of your Slack app\'s "Basic Information" page> ' +
        '(or SLACK_APP_TOKEN=xapp-… for Socket Mode) (README "Configuration"); to try wavesync without Slack: wavesync demo\n',
    );
    expect(worker).toMatchObject({ code: 2, stdout: '' });
    expect(worker.stderr).toMatch(
      /^error: wavesync worker is missing WAVESYNC_CONFIG \(the environment\): set WAVESYNC_CONFIG=<path of wavesync\.yaml> /,
    );
  }, 90_000);

  it('with a WAVESYNC_CONFIG that does not exist: only the error line, no JSON log line before it, exit 2', async () => {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      REDIS_URL: 'redis://127.0.0.1:1',
      SLACK_BOT_TOKEN: 'xoxb-test',
      SLACK_SIGNING_SECRET: 'secret',
      WAVESYNC_CONFIG: '/nonexistent/wavesync.yaml',
    };
    const bot = await promisify(execFile)(process.execPath, [BIN, 'bot'], { env }).catch(
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(bot).toMatchObject({ code: 2, stdout: '' });
    expect(bot.stderr).toMatch(
      /^error: settings file not found \(\/nonexistent\/wavesync\.yaml\): [^\n]+\n$/,
    );
  }, 90_000);

  it('when Slack cannot be reached: "cannot reach Slack (<api url>): <reason>: <fix>", exit 1', async () => {
    const apiUrl = `http://127.0.0.1:${await closedPort()}/api/`;
    const client = new WebClient('xoxb-test', { slackApiUrl: apiUrl, retryConfig: { retries: 0 } });
    const failure = await client.auth.test().catch((error: unknown) => error);
    const report = errorReport(slackProblem(failure, { slack: { apiUrl } }), false);
    expect(report).toEqual({
      text: `error: cannot reach Slack (${apiUrl}): connect ECONNREFUSED ${apiUrl.slice(7, -5)}: check the network and proxy settings, or SLACK_API_URL if you set it\n`,
      exitCode: 1,
    });
  });

  it('when Slack refuses the token: names SLACK_BOT_TOKEN and where to find the right one, exit 2', () => {
    const refused = Object.assign(new Error('An API error occurred: invalid_auth'), {
      code: 'slack_webapi_platform_error',
      data: { ok: false, error: 'invalid_auth' },
    });
    expect(errorReport(slackProblem(refused, { slack: { apiUrl: undefined } }), false)).toEqual({
      text: 'error: Slack refused SLACK_BOT_TOKEN (invalid_auth): copy the Bot User OAuth Token (xoxb-…) from your Slack app\'s "OAuth & Permissions" page\n',
      exitCode: 2,
    });
    expect(slackProblem(new TypeError('x'), { slack: { apiUrl: undefined } })).toBeUndefined();
  });
});
