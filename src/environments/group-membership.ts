/**
 * Slack user-group membership for authorization, read with `usergroups.users.list` (Tier 2: ~20 calls/min).
 * Concurrent look-ups of one group share one call.
 *
 * Two ways to ask:
 * - `isMemberOfAny` (commands, reads, cancels): cached per group for `ttlMs`; when a refresh fails the last known
 *   members are used; with nothing cached the error propagates (the caller refuses, fail closed).
 * - `isMemberOfAnyNow` (an approval decision): asked of Slack at decision time, so a removed approver is refused at
 *   once. A cached answer may only shorten a refusal, never grant: a user the cache (fetched within
 *   `refusalCacheMs`) does not list is refused without a call — a storm of clicks by non-members spends no calls —
 *   and every "member" answer comes from a fresh call. A failed call propagates (no stale members): the caller
 *   refuses with a retry hint.
 */

/** Reads the members of a user group (user ids). */
export type ListGroupMembers = (groupId: string) => Promise<readonly string[]>;

export interface GroupMembership {
  /** Members of `groupId`, from the cache when fresh. */
  membersOf(groupId: string): Promise<ReadonlySet<string>>;
  /** True when `userId` is in one of `groups` (cached answers allowed). */
  isMemberOfAny(userId: string, groups: readonly string[]): Promise<boolean>;
  /** True when Slack says now that `userId` is in one of `groups`; rejects when Slack cannot be asked. */
  isMemberOfAnyNow(userId: string, groups: readonly string[]): Promise<boolean>;
}

export interface GroupMembershipOptions {
  list: ListGroupMembers;
  /** Cache lifetime in ms (default 5 minutes). */
  ttlMs?: number;
  /** How long a cached "not a member" may refuse a decision without a call, ms (default 10 s). */
  refusalCacheMs?: number;
  now?: () => number;
}

interface Entry {
  members: ReadonlySet<string>;
  fetchedAt: number;
}

export function createGroupMembership(options: GroupMembershipOptions): GroupMembership {
  const ttl = options.ttlMs ?? 5 * 60_000;
  const refusalTtl = Math.min(ttl, options.refusalCacheMs ?? 10_000);
  const now = options.now ?? Date.now;
  const cache = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<ReadonlySet<string>>>();

  /** One call to Slack per group at a time; the cache is updated on success, errors propagate. */
  function fetchNow(groupId: string): Promise<ReadonlySet<string>> {
    let pending = inFlight.get(groupId);
    if (!pending) {
      pending = options
        .list(groupId)
        .then((list) => {
          const members = new Set(list);
          cache.set(groupId, { members, fetchedAt: now() });
          return members;
        })
        .finally(() => inFlight.delete(groupId));
      inFlight.set(groupId, pending);
    }
    return pending;
  }

  async function membersOf(groupId: string): Promise<ReadonlySet<string>> {
    const cached = cache.get(groupId);
    if (cached && now() - cached.fetchedAt < ttl) return cached.members;
    try {
      return await fetchNow(groupId);
    } catch (error) {
      const stale = cache.get(groupId);
      if (stale) return stale.members;
      throw error;
    }
  }

  return {
    membersOf,
    async isMemberOfAny(userId, groups) {
      for (const group of groups) {
        if ((await membersOf(group)).has(userId)) return true;
      }
      return false;
    },
    async isMemberOfAnyNow(userId, groups) {
      const fresh = (e: Entry | undefined) => e !== undefined && now() - e.fetchedAt < refusalTtl;
      const entries = groups.map((g) => cache.get(g));
      if (groups.length > 0 && entries.every((e) => fresh(e) && !e!.members.has(userId))) return false;
      for (const group of groups) {
        if ((await fetchNow(group)).has(userId)) return true;
      }
      return false;
    },
  };
}
