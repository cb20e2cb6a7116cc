/**
 * runProcess — what `wavesync serve|bot|worker` do: load the Config from the environment, start the role, and
 * stay up until SIGTERM or SIGINT, then shut down gracefully (running syncs are saved and resumed by another
 * worker). The boundary handlers for `unhandledRejection` and `uncaughtException` log, close, and exit 1.
 * A second signal during shutdown exits at once.
 */
import { loadConfig } from '../config.js';
import { BotError } from '../domain/index.js';
import { createLogger, type Logger } from '../logger.js';
import { type ProcessRole, type RunningWavesync, startWavesync } from './start-wavesync.js';

/** Run `role` until a signal arrives. Resolves with the exit code to use. */
export async function runProcess(role: ProcessRole): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return 1;
  }
  const logger = createLogger({ level: config.logLevel }).child({ role });
  let running: RunningWavesync | undefined;
  const failed = new Promise<number>((resolve) => {
    const fatal = (kind: string) => (error: unknown) => {
      logger.fatal({ err: error, kind }, 'unexpected error; shutting down');
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

function startFailure(logger: Logger, error: unknown): number {
  if (error instanceof BotError) {
    logger.error({ code: error.code, problem: error.message }, 'cannot start');
    process.stderr.write(`error: ${error.message}\n`);
  } else {
    logger.fatal({ err: error }, 'cannot start');
  }
  return 1;
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
