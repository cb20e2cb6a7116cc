/**
 * Real Redis topologies for tests, from Debian's `redis-server` on free loopback ports, each in its own temporary
 * directory, removed (with every process) by `stop()`:
 * - Sentinel: a master, `replicas` replicas (`--replicaof`) and three sentinels (`redis-server <conf> --sentinel`,
 *   quorum 2) watching master group `wavesync`; `killMaster()` SIGKILLs the master and resolves with the time
 *   until a sentinel names the promoted replica.
 * - Cluster: `masters` cluster-enabled servers joined by `redis-cli --cluster create` (no replicas).
 * Nothing here touches the shared Redis at 6379.
 */
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';

const run = promisify(execFile);

/**
 * Why tests that start Redis processes cannot run here, or undefined when they can: `redis-server` (and
 * `redis-cli`) must be on PATH. Off CI such tests skip with this reason printed; on CI (`CI` set; `.ci/run`
 * installs redis) a missing `redis-server` is an error, so they never skip silently there.
 */
export function redisServerMissing(): string | undefined {
  const present = (bin: string) => spawnSync(bin, ['--version'], { stdio: 'ignore' }).status === 0;
  if (present('redis-server') && present('redis-cli')) return undefined;
  const reason = 'redis-server or redis-cli is not installed (apt-get install redis-server redis-sentinel)';
  if (process.env.CI) throw new Error(`${reason}: CI must run the Redis topology tests`);
  console.warn(`skipped: ${reason}`);
  return reason;
}
const SENTINEL_MASTER = 'wavesync';

interface Proc {
  port: number;
  child: ChildProcess;
}

/** A free TCP port on 127.0.0.1 (bound and released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** True when a Redis on 127.0.0.1:`port` answers PING now. */
export async function answers(port: number): Promise<boolean> {
  const probe = new Redis(port, '127.0.0.1', {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/**
 * Every redis-server this test process started and has not seen exit, and every temporary directory not yet
 * removed: killed (SIGKILL) and removed when the process exits, however the test ended (a failed hook, a timeout,
 * a crash), so no Redis outlives its test run.
 */
const live = new Set<ChildProcess>();
const dirs = new Set<string>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Start `redis-server args…`, tracked for the exit clean-up above; a spawn error (no binary) is thrown by the caller's wait. */
export function spawnTracked(args: string[]): ChildProcess {
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  live.add(child);
  child.on('error', () => live.delete(child));
  child.once('exit', () => live.delete(child));
  return child;
}

/** A temporary directory removed by `removeTempDir` or, at the latest, when the process exits. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  dirs.add(dir);
  return dir;
}

export async function removeTempDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  dirs.delete(dir);
}

/** True once `child` has exited (by code or by signal) or could not be spawned. */
export function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null || !live.has(child);
}

/** SIGKILL `child` (also when it is SIGSTOPped) and wait for its exit. */
export async function killHard(child: ChildProcess): Promise<void> {
  if (exited(child)) return;
  const gone = once(child, 'exit');
  child.kill('SIGKILL');
  await gone;
}

/** Spawn `redis-server args…` on `port` and wait (≤ 5 s) until it answers PING. */
async function spawnRedis(port: number, args: string[]): Promise<Proc> {
  const child = spawnTracked(args);
  for (let i = 0; i < 100 && !(await answers(port)); i++) await new Promise((r) => setTimeout(r, 50));
  if (!(await answers(port))) {
    await killHard(child);
    throw new Error(`redis-server ${args.join(' ')} did not answer on ${port}`);
  }
  return { port, child };
}

function serverArgs(port: number, dir: string): string[] {
  return ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
}

async function stopAll(procs: Proc[], dir: string): Promise<void> {
  await Promise.all(procs.map(({ child }) => killHard(child)));
  await removeTempDir(dir);
}

/** Wait (≤ 10 s) until the master on `port` has `count` replicas online (INFO replication). */
async function replicasOnline(port: number, count: number): Promise<void> {
  const master = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 });
  try {
    for (const deadline = Date.now() + 10_000; ; ) {
      const info = await master.info('replication');
      if ((info.match(/^slave\d+:.*state=online/gm) ?? []).length >= count) return;
      if (Date.now() > deadline) throw new Error(`replicas of ${port} not online: ${info}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    master.disconnect();
  }
}

export interface SentinelSet {
  /** REDIS_SENTINELS and REDIS_SENTINEL_MASTER for wavesync. */
  env: Record<string, string>;
  masterPort: number;
  /** Where the sentinels say the master is now. */
  currentMaster(): Promise<number>;
  /** SIGKILL the master; resolves with ms until a sentinel names another master (the promotion). */
  killMaster(): Promise<number>;
  /** SIGKILL every replica (the master stays up alone). */
  killReplicas(): Promise<void>;
  /**
   * SIGSTOP every replica: it neither applies nor acknowledges the replication stream (a replica lagging behind),
   * until `resumeReplicas` (SIGCONT). `stop()` resumes them too.
   */
  pauseReplicas(): void;
  resumeReplicas(): void;
  stop(): Promise<void>;
}

export async function startSentinelSet(
  options: { replicas?: number; downAfterMs?: number } = {},
): Promise<SentinelSet> {
  const dir = await tempDir('wavesync-sentinel-');
  const procs: Proc[] = [];
  try {
    const masterPort = await freePort();
    const master = await spawnRedis(masterPort, serverArgs(masterPort, dir));
    procs.push(master);
    const replicas: Proc[] = [];
    for (let i = 0; i < (options.replicas ?? 2); i++) {
      const port = await freePort();
      replicas.push(
        await spawnRedis(port, [...serverArgs(port, dir), '--replicaof', '127.0.0.1', String(masterPort)]),
      );
    }
    procs.push(...replicas);
    await replicasOnline(masterPort, replicas.length);
    const sentinelPorts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const port = await freePort();
      const conf = path.join(dir, `sentinel-${port}.conf`);
      await writeFile(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${SENTINEL_MASTER} 127.0.0.1 ${masterPort} 2`,
          `sentinel down-after-milliseconds ${SENTINEL_MASTER} ${options.downAfterMs ?? 1000}`,
          `sentinel failover-timeout ${SENTINEL_MASTER} 5000`,
          `sentinel parallel-syncs ${SENTINEL_MASTER} 1`,
          '',
        ].join('\n'),
      );
      procs.push(await spawnRedis(port, [conf, '--sentinel']));
      sentinelPorts.push(port);
    }
    const currentMaster = async () => {
      const sentinel = new Redis(sentinelPorts[0]!, '127.0.0.1', { maxRetriesPerRequest: 1 });
      try {
        const [, port] = (await sentinel.call(
          'SENTINEL',
          'get-master-addr-by-name',
          SENTINEL_MASTER,
        )) as string[];
        return Number(port);
      } finally {
        sentinel.disconnect();
      }
    };
    return {
      env: {
        REDIS_SENTINELS: sentinelPorts.map((p) => `127.0.0.1:${p}`).join(','),
        REDIS_SENTINEL_MASTER: SENTINEL_MASTER,
      },
      masterPort,
      currentMaster,
      async killMaster() {
        const killedAt = performance.now();
        await killHard(master.child);
        while ((await currentMaster()) === masterPort) {
          if (performance.now() - killedAt > 60_000) throw new Error('no promotion within 60 s');
          await new Promise((r) => setTimeout(r, 20));
        }
        return performance.now() - killedAt;
      },
      async killReplicas() {
        for (const { child } of replicas) await killHard(child);
      },
      pauseReplicas: () => signalLive(replicas, 'SIGSTOP'),
      resumeReplicas: () => signalLive(replicas, 'SIGCONT'),
      stop: () => stopAll(procs, dir),
    };
  } catch (error) {
    await stopAll(procs, dir);
    throw error;
  }
}

function signalLive(procs: Proc[], signal: NodeJS.Signals): void {
  for (const { child } of procs) if (!exited(child)) child.kill(signal);
}

export interface LocalCluster {
  /** REDIS_CLUSTER_NODES for wavesync. */
  env: Record<string, string>;
  ports: number[];
  stop(): Promise<void>;
}

export async function startLocalCluster(masters = 3): Promise<LocalCluster> {
  const dir = await tempDir('wavesync-cluster-');
  const procs: Proc[] = [];
  try {
    for (let i = 0; i < masters; i++) {
      const port = await freePort();
      const args = [
        ...serverArgs(port, dir),
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        path.join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        '2000',
      ];
      procs.push(await spawnRedis(port, args));
    }
    const ports = procs.map((p) => p.port);
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((p) => `127.0.0.1:${p}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    // Wait until every node agrees the cluster is up (all 16384 slots served).
    const deadline = Date.now() + 20_000;
    for (const port of ports) {
      for (;;) {
        const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info']);
        if (stdout.includes('cluster_state:ok')) break;
        if (Date.now() > deadline) throw new Error(`cluster on ${port} not ok: ${stdout}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    return {
      env: { REDIS_CLUSTER_NODES: ports.map((p) => `127.0.0.1:${p}`).join(',') },
      ports,
      stop: () => stopAll(procs, dir),
    };
  } catch (error) {
    await stopAll(procs, dir);
    throw error;
  }
}
