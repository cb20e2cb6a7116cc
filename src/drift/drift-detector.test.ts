import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Application } from '../domain/index.js';
import type { ResourceDifference } from './compare-application.js';
import { createDriftDetector } from './drift-detector.js';
import { selfHealAllowed, selfHealOperation, selfHealReason } from './self-heal.js';

function app(name: string, automated?: { selfHeal?: boolean; prune?: boolean }): Application {
  return {
    name,
    namespace: 'argocd',
    project: 'default',
    source: { repoURL: '', path: name },
    destination: { namespace: name },
    ...(automated ? { syncPolicy: { automated } } : {}),
    finalizers: [],
    labels: {},
    annotations: {},
    manifest: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Application', metadata: { name } },
    origin: 'test',
  };
}
const drift: ResourceDifference[] = [
  { key: { group: '', kind: 'ConfigMap', namespace: 'x', name: 'c' }, reason: 'changed', path: 'data.a' },
];

afterEach(() => {
  vi.useRealTimers();
});

describe('createDriftDetector', () => {
  it('checks only automated Applications, acts once per episode, self-heals where allowed, and survives errors', async () => {
    const apps = [
      app('manual'),
      app('notify', {}),
      app('heal', { selfHeal: true }),
      app('prod', { selfHeal: true }),
      app('broken', {}),
    ];
    const actions: string[] = [];
    const warnings: string[] = [];
    let differences = drift;
    const detector = createDriftDetector({
      applications: () => apps,
      compare: async (a) => {
        if (a.name === 'broken') throw new Error('cluster unreachable');
        return differences;
      },
      autoSyncAllowed: (a) => a.name !== 'prod',
      onAction: async (a, action) => void actions.push(`${a.name}:${action.action}`),
      logger: {
        warn: (obj: unknown) => void warnings.push((obj as { application: string }).application),
      } as never,
    });

    await detector.tick();
    await detector.tick();
    differences = [];
    await detector.tick();

    expect(actions).toEqual([
      'notify:notify',
      'heal:sync',
      'prod:notify',
      'notify:resolved',
      'heal:resolved',
      'prod:resolved',
    ]);
    expect(warnings).toEqual(['broken', 'broken', 'broken']);
  });

  it('ticks on its interval until stopped', async () => {
    vi.useFakeTimers();
    let compared = 0;
    const detector = createDriftDetector({
      applications: () => [app('a', {})],
      compare: async () => {
        compared++;
        return [];
      },
      onAction: async () => {},
    });

    detector.start(1000);
    await vi.advanceTimersByTimeAsync(3500);
    detector.stop();
    await vi.advanceTimersByTimeAsync(5000);

    expect(compared).toBe(3);
  });

  it('acts again at the next tick when the action failed (Slack or the queue was down)', async () => {
    const attempts: string[] = [];
    let down = true;
    const detector = createDriftDetector({
      applications: () => [app('a', {})],
      compare: async () => drift,
      onAction: async (a, action) => {
        attempts.push(`${a.name}:${action.action}:${down ? 'failed' : 'posted'}`);
        if (down) throw new Error('slack down');
      },
    });

    await detector.tick();
    down = false;
    await detector.tick();
    await detector.tick();

    expect(attempts).toEqual(['a:notify:failed', 'a:notify:posted']);
  });
});

const differs = (name: string, reason: ResourceDifference['reason']): ResourceDifference =>
  ({
    key: { group: 'apps', kind: 'Deployment', namespace: 'guestbook', name },
    reason,
  }) as ResourceDifference;

describe('src/drift/self-heal', () => {
  it('self-heals only with selfHeal set and the environment allowing it, and asks the environment only then', () => {
    let asked = 0;
    const allowed = (answer: boolean) => () => {
      asked += 1;
      return answer;
    };

    expect(selfHealAllowed(app('guestbook', { selfHeal: true }), allowed(true))).toBe(true);
    expect(selfHealAllowed(app('guestbook', { selfHeal: true }), allowed(false))).toBe(false);
    expect(asked).toBe(2);
    expect(selfHealAllowed(app('guestbook', { prune: true }), allowed(true))).toBe(false);
    expect(selfHealAllowed(app('guestbook'), allowed(true))).toBe(false);
    expect(asked).toBe(2);
  });

  it('prunes only with syncPolicy.automated.prune (Argo CD), never as a dry run', () => {
    expect(selfHealOperation(app('guestbook', { selfHeal: true, prune: true }))).toEqual({
      prune: true,
      dryRun: false,
      syncOptions: [],
    });
    expect(selfHealOperation(app('guestbook', { selfHeal: true }))).toEqual({
      prune: false,
      dryRun: false,
      syncOptions: [],
    });
  });

  it('names what drifted in the audit reason, at most ten', () => {
    expect(selfHealReason([differs('web', 'changed'), differs('api', 'missing')], true)).toBe(
      'selfHeal (syncPolicy.automated, prune): drift in 2 resource(s): Deployment/web (changed), Deployment/api (missing)',
    );
    const many = Array.from({ length: 12 }, (_, i) => differs(`d${i}`, 'changed'));
    const reason = selfHealReason(many, false);
    expect(reason).toMatch(
      /^selfHeal \(syncPolicy\.automated\): drift in 12 resource\(s\): Deployment\/d0 \(changed\)/,
    );
    expect(reason).toContain('Deployment/d9 (changed), …');
    expect(reason).not.toContain('d10');
  });

  it('checkApps compares only the named automated apps, never two comparisons of one app at once, and joins a queued one', async () => {
    const apps = [app('a', {}), app('b', {}), app('manual')];
    const started: string[] = [];
    let active = 0;
    let overlapped = false;
    const gates: (() => void)[] = [];
    const detector = createDriftDetector({
      applications: () => apps,
      compare: async (a) => {
        started.push(a.name);
        if (++active > 1) overlapped = true;
        await new Promise<void>((resolve) => gates.push(resolve));
        active--;
        return [];
      },
      onAction: async () => undefined,
    });

    const first = detector.checkApps(['a', 'manual', 'nobody']);
    await vi.waitFor(() => expect(started).toEqual(['a']));
    // While a's comparison runs: two more changes of a queue one comparison after it, not two and not at once.
    const second = detector.checkApps(['a']);
    const third = detector.checkApps(['a']);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toEqual(['a']);
    gates.shift()!();
    await first;
    await vi.waitFor(() => expect(started).toEqual(['a', 'a']));
    gates.shift()!();
    await Promise.all([second, third]);

    expect(started).toEqual(['a', 'a']);
    expect(overlapped).toBe(false);
  });

  it('a tick waits for a change-driven comparison of the same app and then compares it itself; the claim gates change-driven checks only', async () => {
    const apps = [app('a', {}), app('b', {})];
    const checked: string[] = [];
    let release: (() => void) | undefined;
    const claims: string[] = [];
    const detector = createDriftDetector({
      applications: () => apps,
      compare: async () => {
        if (!release && checked.length === 0) await new Promise<void>((resolve) => (release = resolve));
        return [];
      },
      onAction: async () => undefined,
      onChecked: (a, _result, trigger) => void checked.push(`${a.name}:${trigger}`),
      claim: async (name) => {
        claims.push(name);
        return name === 'a';
      },
    });

    const change = detector.checkApps(['a', 'b']);
    await vi.waitFor(() => expect(release).toBeDefined());
    const tick = detector.tick();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(checked).toEqual([]);
    release!();
    await Promise.all([change, tick]);

    // b's change belongs to another replica's claim: not compared for the change, but by the tick.
    expect(claims.sort()).toEqual(['a', 'b']);
    expect(checked).toEqual(['a:change', 'a:interval', 'b:interval']);
  });
});
