import { describe, expect, it } from 'vitest';
import { testApplication } from '../../test/support/test-application.js';
import type { Application, SyncOperation } from '../domain/index.js';
import type { AuditEntry } from '../environments/index.js';
import type { SyncRequest } from '../queue/index.js';
import { parseSettings } from '../settings/index.js';
import { createMoveActions, decideMove, type RevisionAnnouncer, triggerText } from './act-on-move.js';
import type { RevisionMove } from './revision-watcher.js';

const settings = parseSettings(
  [
    'environments:',
    '  production: { requireApproval: true, approvers: { users: [U0SAM] } }',
    '  staging: {}',
    '  frozen: { freezeWindows: [{ name: release, cron: "0 0 * * *", durationMinutes: 1440 }] }',
    '  manual: { autoSync: false }',
  ].join('\n'),
  '/tmp/wavesync.yaml',
);
const SHA = '3f9c2e1a9b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e';

function move(environment: string, automated?: { prune?: boolean; enabled?: boolean }): RevisionMove {
  const app: Application = testApplication({
    name: `app-${environment}`,
    labels: { 'wavesync.io/environment': environment },
    source: { repoURL: 'https://git.example.com/r', path: 'app', targetRevision: 'main' },
    ...(automated ? { syncPolicy: { automated } } : {}),
  });
  return {
    app,
    from: 'a'.repeat(40),
    to: SHA,
    pin: SHA,
    git: { repoURL: 'https://git.example.com/r', branch: 'main', path: 'app' },
    trigger: { kind: 'push', provider: 'GitHub' },
    firstSync: false,
  };
}

function harness() {
  const said: string[] = [];
  const queued: { request: SyncRequest; jobId?: string }[] = [];
  const approvals: unknown[] = [];
  const audits: AuditEntry[] = [];
  const claims = new Set<string>();
  const announcer: RevisionAnnouncer = {
    syncHeader: async (app, operation: SyncOperation, trigger) => {
      said.push(`header ${app.name} ${operation.revision} prune=${operation.prune} ${trigger}`);
      return { channel: 'C1', threadTs: '1.1' };
    },
    newRevision: async (m, commit, why) => void said.push(`moved ${m.app.name} ${commit?.subject} ${why}`),
    waiting: async (m, reason) => void said.push(`waiting ${m.app.name} ${reason}`),
  };
  const act = createMoveActions({
    settings,
    channelOf: () => 'C1',
    announcer,
    describeCommit: async (_url, sha) => ({
      sha,
      author: 'ana',
      subject: 'Bump',
      files: ['app/a.yaml', 'docs/x.md'],
    }),
    request: {
      queue: {
        enqueueSync: async (request, options) => {
          queued.push({ request, ...(options?.jobId ? { jobId: options.jobId } : {}) });
          return { jobId: options?.jobId ?? 'j', duplicate: false, position: 1, ahead: [] };
        },
      },
      approvals: {
        requestAutomatedApproval: async (ctx) => {
          approvals.push(ctx);
          return { kind: 'approval-posted', requestId: 'r1' };
        },
      },
      audit: async (entry) => audits.push(entry),
    },
    store: { claim: async (key) => (claims.has(key) ? false : Boolean(claims.add(key))) },
    now: () => new Date('2026-11-25T10:00:00Z'),
  });
  return { act, said, queued, approvals, audits };
}

describe('what a moved revision does', () => {
  it('syncs an automated app where allowed: header first, the revision pinned, prune as automated says, audited', async () => {
    const h = harness();
    expect(await h.act(move('staging', { prune: true }))).toBe('done');
    expect(h.said).toEqual([`header app-staging ${SHA} prune=true push 3f9c2e1 from GitHub`]);
    expect(h.queued).toHaveLength(1);
    expect(h.queued[0]?.request).toMatchObject({
      application: 'app-staging',
      operation: { revision: SHA, prune: true, dryRun: false },
      initiator: { userId: 'wavesync (automated)' },
      target: { channel: 'C1', threadTs: '1.1' },
      trigger: 'push 3f9c2e1 from GitHub',
      requestKey: `automated:app-staging@${SHA}`,
    });
    expect(h.queued[0]?.jobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(h.audits).toEqual([
      expect.objectContaining({ type: 'automated-sync', trigger: 'push 3f9c2e1 from GitHub', revision: SHA }),
    ]);
  });

  it('asks for approval where the environment requires it, and queues nothing', async () => {
    const h = harness();
    expect(await h.act(move('production', {}))).toBe('done');
    expect(h.queued).toEqual([]);
    expect(h.approvals).toEqual([
      expect.objectContaining({
        application: 'app-production',
        channel: 'C1',
        trigger: 'push 3f9c2e1 from GitHub',
      }),
    ]);
  });

  it('waits during a freeze (said once per revision, deferred each time)', async () => {
    const h = harness();
    expect(await h.act(move('frozen', {}))).toBe('deferred');
    expect(await h.act(move('frozen', {}))).toBe('deferred');
    expect(h.queued).toEqual([]);
    expect(h.said).toEqual([
      'waiting app-frozen frozen is in freeze window "release" until 2026-11-26 00:00 UTC',
    ]);
  });

  it('tells the channel of a not-automated app (and of autoSync: false), with the commit, once per call', async () => {
    const h = harness();
    await h.act(move('staging'));
    await h.act(move('manual', {}));
    await h.act(move('staging', { enabled: false }));
    expect(h.said).toEqual([
      'moved app-staging Bump not automated',
      'moved app-manual Bump manual has autoSync: false',
      'moved app-staging Bump not automated',
    ]);
    expect(h.queued).toEqual([]);
  });

  it('names the trigger: push, poll, first automated sync; a chart version as it is', () => {
    expect(triggerText({ to: SHA, trigger: { kind: 'poll' }, firstSync: false })).toBe(
      'new revision 3f9c2e1 (poll)',
    );
    expect(triggerText({ to: SHA, trigger: { kind: 'poll' }, firstSync: true })).toBe(
      'first automated sync of 3f9c2e1',
    );
    expect(
      triggerText({ to: '1.2.3', trigger: { kind: 'push', provider: 'GitLab' }, firstSync: false }),
    ).toBe('push 1.2.3 from GitLab');
    expect(decideMove(settings, move('staging', {}), new Date())).toEqual({ kind: 'sync' });
  });
});
