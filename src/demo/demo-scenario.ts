/**
 * What `wavesync demo` runs and what it expects: one `/sync` per example Application (examples/applications),
 * each from its own channel so the terminal shows one labelled thread per app, and the outcome each must reach.
 */
import type { OperationPhase } from '../domain/index.js';

export interface DemoApp {
  application: string;
  /** Channel the `/sync` comes from (and the thread is posted in). */
  channel: string;
  expected: OperationPhase;
  /** Why this app is in the demo, printed before it starts. */
  story: string;
  /** Thread replies that must appear (substrings of the text Slack would show), in this order. */
  expectReplies: readonly string[];
  /** Needs `kustomize` or `kubectl` on PATH to render. */
  needsKustomize?: boolean;
  /** A production app: the demo's second user approves the request. */
  needsApproval?: boolean;
  /** A failure notice naming the app must reach the alerts channel. */
  expectAlert?: boolean;
  /**
   * An App of Apps parent: these child Applications must each be synced (Succeeded, Healthy) after it, in this
   * order, with their resources live; `expectReplies` then also covers their lines in the parent's thread.
   */
  children?: readonly string[];
  /**
   * A custom resource judged by a Lua health script (wavesync.yaml `health.argocdCm`) that holds its wave: the
   * thread must say the script's Progressing message (`waiting`) before the next wave starts, the script must call
   * the resource Healthy at the end, and `next` (an object of the next wave) must have been created only after the
   * resource turned Ready.
   */
  scriptGate?: {
    resource: DemoObjectRef;
    /**
     * Why the wave waits: the script's Progressing messages (any of them, as substrings), said by the header while
     * it waits or by the wave's completed line (when no header update could show it) before the next wave starts.
     * Which one the engine sees depends on when it reads the object: before its operator wrote a status, or after.
     */
    waiting: readonly string[];
    /** The reply that starts the next wave, e.g. `▶ Sync · wave 1`. */
    nextWave: string;
    next: DemoObjectRef;
  };
}

export interface DemoObjectRef {
  apiVersion: string;
  kind: string;
  name: string;
}

/** Where failure notifications go (examples/wavesync.yaml `notifications.channel`). */
export const ALERTS_CHANNEL = 'C0ALERTS';

export const DEMO_USERS = {
  requester: { id: 'U0PAT', name: 'pat' },
  approver: { id: 'U0SAM', name: 'sam' },
} as const;

export const DEMO_APPS: readonly DemoApp[] = [
  {
    application: 'guestbook',
    channel: 'C0GUESTBOOK',
    expected: 'Succeeded',
    story: 'argocd-example-apps guestbook: one Deployment and one Service in Sync wave 0',
    expectReplies: ['▶ Sync · wave 0', '🎉 Succeeded'],
  },
  {
    application: 'sync-waves',
    channel: 'C0SYNCWAVES',
    expected: 'Succeeded',
    story:
      'argocd-example-apps sync-waves: PreSync hook, then Sync waves 0 to 3 with Sync hooks in waves 1 and 3',
    expectReplies: [
      '▶ PreSync',
      '▶ Sync · wave 0',
      '▶ Sync · wave 1',
      '▶ Sync · wave 2',
      '▶ Sync · wave 3',
      '🎉 Succeeded',
    ],
  },
  {
    application: 'pre-post-sync',
    channel: 'C0PREPOST',
    expected: 'Succeeded',
    story: 'argocd-example-apps pre-post-sync (Kustomize): PreSync Job, Service and Deployment, PostSync Job',
    expectReplies: ['▶ PreSync', '▶ Sync', '▶ PostSync', '🎉 Succeeded'],
    needsKustomize: true,
  },
  {
    application: 'orders',
    channel: 'C0ORDERS',
    expected: 'Succeeded',
    story:
      'a custom resource gated by our own Lua health script: CRD (wave -1), Database orders-db (wave 0) ' +
      'Progressing while its operator provisions it, then the web tier (wave 1) once the script says Healthy',
    expectReplies: ['▶ Sync · wave -1', '▶ Sync · wave 0', '▶ Sync · wave 1', '🎉 Succeeded'],
    scriptGate: {
      resource: { apiVersion: 'demo.wavesync.dev/v1alpha1', kind: 'Database', name: 'orders-db' },
      waiting: [
        'Database/orders-db: Provisioning postgres 16',
        'Database/orders-db: Waiting for the database controller',
      ],
      nextWave: '▶ Sync · wave 1',
      next: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'orders-web' },
    },
  },
  {
    application: 'rails',
    channel: 'C0RAILS',
    expected: 'Succeeded',
    story:
      'Rails migration: PreSync ConfigMap wave 1 → PreSync Job db-migrate wave 2 → web → PostSync smoke test',
    expectReplies: ['▶ PreSync', '▶ Sync', '▶ PostSync', '🎉 Succeeded'],
  },
  {
    application: 'payments',
    channel: 'C0PAYMENTS',
    expected: 'Succeeded',
    story:
      'production: waits for an approval, which @sam (a second user) grants; then migrate, web, smoke test',
    expectReplies: ['▶ PreSync', '▶ Sync', '▶ PostSync', '🎉 Succeeded'],
    needsApproval: true,
  },
  {
    application: 'app-of-apps',
    channel: 'C0APPOFAPPS',
    expected: 'Succeeded',
    story:
      'App of Apps (argocd-example-apps `apps`, plain YAML): applies 5 child Applications, then syncs each child in order, each after the previous is Healthy',
    expectReplies: [
      '▶ Sync · wave 0',
      '🎉 Succeeded',
      'App of Apps: syncing 5 children of app-of-apps in order',
      '↳ ✅ example.guestbook Succeeded · Healthy',
      '↳ ✅ example.helm-hooks Succeeded · Healthy',
      '↳ ✅ example.kustomize-guestbook Succeeded · Healthy',
      '↳ ✅ example.pre-post-sync Succeeded · Healthy',
      '↳ ✅ example.sync-waves Succeeded · Healthy',
      '✅ App of Apps: 5/5 children synced and Healthy',
    ],
    needsKustomize: true,
    children: [
      'example.guestbook',
      'example.helm-hooks',
      'example.kustomize-guestbook',
      'example.pre-post-sync',
      'example.sync-waves',
    ],
  },
  {
    application: 'broken-migration',
    channel: 'C0BROKEN',
    expected: 'Failed',
    story:
      'a PreSync migration that fails: the Sync phase never starts, the SyncFail hook runs, #alerts is told',
    expectReplies: ['✗ PreSync hook', '▶ SyncFail', '❌ Failed'],
    expectAlert: true,
  },
];
