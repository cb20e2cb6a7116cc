/**
 * `wavesync demo [--keep] [--app NAME]` — the main job on the embedded default, with no Slack or cluster credentials: the
 * Kubernetes API simulator, a fake Slack, the real bot and worker on the Redis the REDIS_* variables name (REDIS_URL,
 * Sentinel or Cluster: docs/deploy.md), a signed `/sync` per
 * example Application, and each Slack thread printed live. Exit code 0 only when every expected outcome happened.
 */
import type { Command } from 'commander';

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description(
      'run the main job on the embedded default: simulator + fake Slack + example apps, threads printed live',
    )
    .option('--keep', 'keep the temporary folder (kubeconfig, wavesync log) and print its path')
    .option('--app <name>', 'run only this scenario (guestbook, sync-waves, payments, …)')
    .option(
      '--socket-mode',
      'the bot in Socket Mode: commands and clicks over a WebSocket, as without a public URL',
    )
    .action(async (options: { keep?: boolean; app?: string; socketMode?: boolean }) => {
      // Loaded on use, so other commands do not pay for the simulator, Bolt and BullMQ.
      const [{ redisVariables }, { runDemo }] = await Promise.all([
        import('../../config.js'),
        import('../../demo/run-demo.js'),
      ]);
      const code = await runDemo({
        redisEnv: redisVariables(),
        write: (text) => process.stdout.write(text),
        ansi: process.stdout.isTTY === true,
        keep: options.keep === true,
        socketMode: options.socketMode === true,
        ...(options.app === undefined ? {} : { app: options.app }),
      });
      // The demo's servers are closed; a sync still winding down must not keep the terminal waiting.
      process.exit(code);
    });
}
