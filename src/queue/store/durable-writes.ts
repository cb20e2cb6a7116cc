/**
 * Acknowledge only what is durable. Redis replication is asynchronous: a write the master answered can still die
 * with it. `WAIT n timeout` (https://redis.io/docs/latest/commands/wait/) blocks the connection that issued it until
 * `n` replicas acknowledged every write **that connection** made, so it must run on the connection that wrote.
 * The command journal WAITs before `/sync` is acknowledged; `DurableWrites` is the same rule for everything else a
 * user sees confirmed (a button's decision, the job it queued): confirm before Slack shows it.
 */
import { type RedisClient, type RedisConnectionOptions, redisTopologyOf } from './redis-connections.js';

/** How many replicas must hold a write (Redis `WAIT`) and how long to wait for them (ms). 0 replicas: no wait. */
export interface ReplicaDurability {
  replicas: number;
  timeoutMs: number;
}

/** How long a click or a request waits for a replica (ms): a replica on a LAN answers in well under 1 ms. */
export const REPLICA_WAIT_MS = 1000;

/** Too few replicas confirmed within the timeout: what was written may be lost in a failover; do not confirm it. */
export class NotReplicatedError extends Error {
  readonly confirmed: number;
  readonly durability: ReplicaDurability;
  constructor(confirmed: number, durability: ReplicaDurability) {
    super(
      `only ${confirmed} of ${durability.replicas} Redis replicas confirmed the request within ${durability.timeoutMs} ms`,
    );
    this.name = 'NotReplicatedError';
    this.confirmed = confirmed;
    this.durability = durability;
  }
}

/**
 * The default for a topology: one replica on Sentinel (a failover promotes a replica), none on a single Redis (it
 * has none) or Cluster (a multi-node client would send WAIT to a random node, and our local cluster has no
 * replicas). `timeoutMs` is the WAIT budget; keep it below the connection's command timeout.
 */
export function replicaDurabilityFor(options: RedisConnectionOptions, timeoutMs: number): ReplicaDurability {
  return { replicas: redisTopologyOf(options) === 'sentinel' ? 1 : 0, timeoutMs };
}

/**
 * `WAIT durability.replicas durability.timeoutMs` on `redis`, after its writes.
 * @throws NotReplicatedError when fewer replicas confirmed; the Redis error when the connection fails.
 */
export async function waitForReplicas(redis: RedisClient, durability: ReplicaDurability): Promise<void> {
  if (durability.replicas <= 0) return;
  const confirmed = Number(await redis.call('WAIT', durability.replicas, durability.timeoutMs));
  if (confirmed < durability.replicas) throw new NotReplicatedError(confirmed, durability);
}

/** A barrier over the connections some flow writes with: `confirm` resolves once their writes so far are durable. */
export interface DurableWrites {
  /** @throws NotReplicatedError (or the Redis error): something written may not survive a failover. */
  confirm(): Promise<void>;
}

/** No replicas to wait for (single Redis, tests' in-memory doubles). */
export const alreadyDurable: DurableWrites = { confirm: async () => undefined };

/**
 * WAIT on each of `connections` (in parallel). A connection that wrote nothing since its last confirmed write
 * answers at once when the replicas are up, so confirming a superset of the writers costs one round trip.
 */
export function replicatedWrites(
  connections: readonly RedisClient[],
  durability: ReplicaDurability,
): DurableWrites {
  if (durability.replicas <= 0) return alreadyDurable;
  return {
    async confirm() {
      await Promise.all(connections.map((redis) => waitForReplicas(redis, durability)));
    },
  };
}

/** One barrier over several (each flow's connections). */
export function allDurable(barriers: readonly (DurableWrites | undefined)[]): DurableWrites {
  const present = barriers.filter((b): b is DurableWrites => b !== undefined && b !== alreadyDurable);
  if (present.length === 0) return alreadyDurable;
  return {
    async confirm() {
      await Promise.all(present.map((b) => b.confirm()));
    },
  };
}
