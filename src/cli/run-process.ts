/**
 * runProcess — what `wavesync serve|bot|worker` do: load the Config from the environment, start the role, and
 * stay up until SIGTERM or SIGINT, then shut down gracefully (running syncs are saved and resumed by another
 * worker). The boundary handlers for `unhandledRejection` and `uncaughtException` log, close, and exit 1.
 * A second signal during shutdown exits at once.
 */

import { loadConfig, missingSettings } from '../config.js';
import { BotError } from '../domain/index.js';
import { createLogger, type Logger } from '../logger.js';
import { type ProcessRole, type RunningWavesync, startWavesync } from '../main/start-wavesync.js';
import { errorReport } from './command-io.js';

/** Run `role` until a signal arrives. Resolves with the exit code to use. */
export async function runProcess(role: ProcessRole): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
    const missing = missingSettings(role, config);
    if (missing.length > 0) {
      const variables = missing.map((m) => m.variable).join(', ');
      throw new BotError('invalid_config', `wavesync ${role} is missing ${variables} (the environment)`, {
        fix:
          `set ${missing.map((m) => m.howToSet).join(', ')} (README "Configuration"); ` +
          'to try wavesync without Slack: wavesync demo',
      });
    }
  } catch (error) {
    return printError(error);
  }
  const logger = createLogger({ level: config.logLevel }).child({ role });
  let running: RunningWavesync | undefined;
  const failed = new Promise<number>((resolve) => {
    const fatal = (kind: string) => (error: unknown) => {
      logger.fatal({ err: error, kind }, 'unexpected error; shutting down');
      printError(slackProblem(error, config) ?? error);
      resolve(1);
    };
    process.once('unhandledRejection', fatal('unhandledRejection'));
    process.once('uncaughtException', fatal('uncaughtException'));
  });
  try {
    running = await startWavesync(role, { config, logger });
  } catch (error) {
    return startFailure(logger, error);
  }
  const code = await Promise.race([signalled(logger), failed]);
  await shutdown(running, logger);
  return code;
}

/**
 * A refusal to start over bad input (a BotError: wavesync.yaml missing or invalid, Slack refusing the token) is
 * the one `error:` line only — a JSON log line before it would say the same thing less readably (debug keeps it);
 * anything unexpected is logged as fatal, then printed.
 */
function startFailure(logger: Logger, error: unknown): number {
  if (error instanceof BotError) logger.debug({ code: error.code, problem: error.message }, 'cannot start');
  else logger.fatal({ err: error }, 'cannot start');
  return printError(error);
}

/** Writes the one `error: …` line (src/cli/command-io.ts) after the logs; returns the exit code. */
function printError(error: unknown): number {
  const report = errorReport(error);
  process.stderr.write(report.text);
  return report.exitCode;
}

/**
 * A Slack Web API failure the user can act on, as a BotError: Slack cannot be reached (DNS, network, a wrong
 * SLACK_API_URL — @slack/web-api's `slack_webapi_request_error`), or Slack refused the token (`invalid_auth`,
 * `not_authed`, `account_inactive`, `token_revoked`). Bolt checks the token in the background at start, so these
 * arrive as an unhandled rejection. Undefined for anything else.
 */
export function slackProblem(
  error: unknown,
  config: { slack: { apiUrl: string | undefined } },
): BotError | undefined {
  const { code, original, data } = (error ?? {}) as {
    code?: string;
    original?: { message?: string; cause?: { message?: string } };
    data?: { error?: string };
  };
  const api = config.slack.apiUrl ?? 'https://slack.com/api/';
  if (code === 'slack_webapi_request_error') {
    const reason = original?.cause?.message ?? original?.message ?? 'request failed';
    return new BotError('slack_unreachable', `cannot reach Slack (${api}): ${reason}`, {
      cause: error,
      fix: 'check the network and proxy settings, or SLACK_API_URL if you set it',
    });
  }
  const refused = ['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked'];
  if (code === 'slack_webapi_platform_error' && refused.includes(data?.error ?? '')) {
    return new BotError('invalid_config', `Slack refused SLACK_BOT_TOKEN (${data?.error})`, {
      cause: error,
      fix: 'copy the Bot User OAuth Token (xoxb-…) from your Slack app\'s "OAuth & Permissions" page',
    });
  }
  return undefined;
}

function signalled(logger: Logger): Promise<number> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      logger.info({ signal }, 'shutting down');
      process.once(signal, () => {
        logger.warn({ signal }, 'second signal; exiting now');
        process.exit(130);
      });
      resolve(0);
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  });
}

async function shutdown(running: RunningWavesync, logger: Logger): Promise<void> {
  try {
    await running.close();
    logger.info('stopped');
  } catch (error) {
    logger.error({ err: error }, 'error during shutdown');
  }
}
