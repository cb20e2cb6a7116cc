/**
 * `wavesync cluster-sim [--port N] [--host H] [--kubeconfig-out FILE] [--speed N] [--crd-establish-seconds N]` — run the Kubernetes API
 * simulator (sim/) in the foreground until SIGINT/SIGTERM. Prints the URL (the one line on stdout), and writes a
 * kubeconfig (insecure-skip-tls-verify, plain http on loopback) when asked. Logs go to stderr: human-readable
 * lines, or pino's JSON with `--log-format json`.
 */
import { type Command, InvalidArgumentError, Option } from 'commander';

function positiveNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('must be a positive number');
  return n;
}

function nonNegativeNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError('must be a number ≥ 0');
  return n;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('must be a port number 0-65535');
  return n;
}

interface ClusterSimOptions {
  port: number;
  host: string;
  speed: number;
  crdEstablishSeconds: number;
  kubeconfigOut?: string;
  logFormat: 'text' | 'json';
}

export function registerClusterSimCommand(program: Command): void {
  program
    .command('cluster-sim')
    .description('Run the Kubernetes API simulator (a small fake cluster on loopback) until interrupted')
    .option('--port <n>', 'TCP port (0 = any free port)', port, 0)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--speed <n>', 'time factor: 10 = simulated time runs ten times faster', positiveNumber, 1)
    .option(
      '--crd-establish-seconds <n>',
      'simulated seconds before a new CRD is Established and its kind served',
      nonNegativeNumber,
      0.5,
    )
    .option('--kubeconfig-out <file>', 'write a kubeconfig for the simulator to this file')
    .addOption(
      new Option('--log-format <format>', 'logs on stderr: text for people, json for log collectors')
        .choices(['text', 'json'])
        .default('text'),
    )
    .action(async (options: ClusterSimOptions) => {
      // Loaded on use, so other subcommands do not pay for compiling the simulator at start-up.
      const [{ startSimulator }, { createLogger }] = await Promise.all([
        import('../../../sim/index.js'),
        import('../../logger.js'),
      ]);
      const logger = createLogger({ level: 'info', format: options.logFormat, destination: process.stderr });
      const sim = await startSimulator({
        port: options.port,
        host: options.host,
        speed: options.speed,
        crdEstablishSeconds: options.crdEstablishSeconds,
        logger,
      });
      if (options.kubeconfigOut) {
        await sim.writeKubeconfig(options.kubeconfigOut);
        logger.info(
          { kubeconfig: options.kubeconfigOut },
          `kubeconfig written; use: export KUBECONFIG=${options.kubeconfigOut}`,
        );
      }
      process.stdout.write(`Kubernetes API simulator listening on ${sim.url} (speed ${sim.speed})\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await sim.stop();
    });
}
