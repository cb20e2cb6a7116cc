/**
 * Slack user-group membership for authorization, read with `usergroups.users.list` (Tier 2: ~20 calls/min) and
 * cached per group for `ttlMs`. Concurrent look-ups of one group share one call. When a refresh fails the last
 * known members are used; with nothing cached the error propagates (the caller refuses the click, fail closed).
 */

/** Reads the members of a user group (user ids). */
export type ListGroupMembers = (groupId: string) => Promise<readonly string[]>;

export interface GroupMembership {
  /** Members of `groupId`, from the cache when fresh. */
  membersOf(groupId: string): Promise<ReadonlySet<string>>;
  /** True when `userId` is in one of `groups`. */
  isMemberOfAny(userId: string, groups: readonly string[]): Promise<boolean>;
}

export interface GroupMembershipOptions {
  list: ListGroupMembers;
  /** Cache lifetime in ms (default 5 minutes). */
  ttlMs?: number;
  now?: () => number;
}

interface Entry {
  members: ReadonlySet<string>;
  fetchedAt: number;
}

export function createGroupMembership(options: GroupMembershipOptions): GroupMembership {
  const ttl = options.ttlMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<ReadonlySet<string>>>();

  async function refresh(groupId: string): Promise<ReadonlySet<string>> {
    try {
      const members = new Set(await options.list(groupId));
      cache.set(groupId, { members, fetchedAt: now() });
      return members;
    } catch (error) {
      const stale = cache.get(groupId);
      if (stale) return stale.members;
      throw error;
    } finally {
      inFlight.delete(groupId);
    }
  }

  async function membersOf(groupId: string): Promise<ReadonlySet<string>> {
    const cached = cache.get(groupId);
    if (cached && now() - cached.fetchedAt < ttl) return cached.members;
    let pending = inFlight.get(groupId);
    if (!pending) {
      pending = refresh(groupId);
      inFlight.set(groupId, pending);
    }
    return pending;
  }

  return {
    membersOf,
    async isMemberOfAny(userId, groups) {
      for (const group of groups) {
        if ((await membersOf(group)).has(userId)) return true;
      }
      return false;
    },
  };
}
