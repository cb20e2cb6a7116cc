import { describe, expect, it } from 'vitest';
import { createGroupMembership } from './group-membership.js';

function counting(members: Record<string, string[]>) {
  const calls: string[] = [];
  let fail = false;
  return {
    calls,
    failNext: () => {
      fail = true;
    },
    list: async (group: string) => {
      calls.push(group);
      if (fail) {
        fail = false;
        throw new Error('ratelimited');
      }
      return members[group] ?? [];
    },
  };
}

describe('src/environments/group-membership', () => {
  it('caches a group for the TTL and refreshes after it', async () => {
    let now = 0;
    const api = counting({ S1: ['U1'] });
    const groups = createGroupMembership({ list: api.list, ttlMs: 1000, now: () => now });

    expect(await groups.isMemberOfAny('U1', ['S1'])).toBe(true);
    expect(await groups.isMemberOfAny('U2', ['S1'])).toBe(false);
    now = 1500;
    await groups.membersOf('S1');

    expect(api.calls).toEqual(['S1', 'S1']);
  });

  it('shares one call between concurrent look-ups', async () => {
    const api = counting({ S1: ['U1'] });
    const groups = createGroupMembership({ list: api.list });

    await Promise.all([groups.membersOf('S1'), groups.membersOf('S1'), groups.membersOf('S1')]);

    expect(api.calls).toEqual(['S1']);
  });

  it('keeps the last known members when a refresh fails, and fails closed with nothing cached', async () => {
    let now = 0;
    const api = counting({ S1: ['U1'] });
    const groups = createGroupMembership({ list: api.list, ttlMs: 10, now: () => now });
    await groups.membersOf('S1');
    now = 100;
    api.failNext();

    expect(await groups.isMemberOfAny('U1', ['S1'])).toBe(true);
    api.failNext();
    await expect(groups.membersOf('S2')).rejects.toThrow('ratelimited');
  });

  it('asks Slack at decision time: a member removed since the cached read is refused at once', async () => {
    const members: Record<string, string[]> = { S1: ['U1'] };
    const api = counting(members);
    const groups = createGroupMembership({ list: api.list, now: () => 0 });
    expect(await groups.isMemberOfAny('U1', ['S1'])).toBe(true);
    members.S1 = [];

    expect(await groups.isMemberOfAny('U1', ['S1'])).toBe(true); // reads may use the cache
    expect(await groups.isMemberOfAnyNow('U1', ['S1'])).toBe(false);
    expect(api.calls).toEqual(['S1', 'S1']);
  });

  it('lets a recent cached "not a member" refuse a decision without a call, never grant one', async () => {
    let now = 0;
    const members: Record<string, string[]> = { S1: ['U1'] };
    const api = counting(members);
    const groups = createGroupMembership({ list: api.list, refusalCacheMs: 1000, now: () => now });
    await groups.membersOf('S1');

    expect(await groups.isMemberOfAnyNow('U2', ['S1'])).toBe(false);
    expect(api.calls).toEqual(['S1']);
    expect(await groups.isMemberOfAnyNow('U1', ['S1'])).toBe(true);
    expect(api.calls).toEqual(['S1', 'S1']);
    members.S1 = ['U1', 'U2'];
    now = 1500;
    expect(await groups.isMemberOfAnyNow('U2', ['S1'])).toBe(true);
  });

  it('fails a decision when Slack cannot be asked, even with members cached', async () => {
    const api = counting({ S1: ['U1'] });
    const groups = createGroupMembership({ list: api.list });
    await groups.membersOf('S1');
    api.failNext();

    await expect(groups.isMemberOfAnyNow('U1', ['S1'])).rejects.toThrow('ratelimited');
  });
});
