import { describe, expect, it } from 'vitest';
import { removalDecision } from './removal-policy.js';

const app = (finalizers?: string[]) => ({
  manifest: { metadata: { name: 'web', ...(finalizers ? { finalizers } : {}) } } as never,
});
const set = (
  applicationsSync: 'create-only' | 'create-update' | 'create-delete' | 'sync',
  preserve = false,
) => ({
  applicationsSync,
  preserveResourcesOnDeletion: preserve,
});
const FINALIZER = ['resources-finalizer.argocd.argoproj.io'];

describe('removalDecision: what Argo CD does with an Application no longer generated', () => {
  it('deletes the resources of an Application with the resources finalizer (sync, create-delete)', () => {
    for (const policy of ['sync', 'create-delete'] as const) {
      expect(
        removalDecision({
          application: app(FINALIZER),
          applicationSet: set(policy),
          applicationSetRemoved: false,
        }),
      ).toEqual({
        deleteResources: true,
        why: `applicationsSync: ${policy} deletes Applications that are no longer generated, and this one's resources finalizer deletes its resources`,
      });
    }
    expect(
      removalDecision({
        application: app(['resources-finalizer.argocd.argoproj.io/background']),
        applicationSet: set('sync'),
        applicationSetRemoved: false,
      }).deleteResources,
    ).toBe(true);
  });

  it('keeps them with preserveResourcesOnDeletion (no finalizer) or a template without the resources finalizer', () => {
    expect(
      removalDecision({
        application: app(),
        applicationSet: set('sync', true),
        applicationSetRemoved: false,
      }),
    ).toEqual({
      deleteResources: false,
      why: 'applicationsSync: sync deletes Applications that are no longer generated; its resources stay (preserveResourcesOnDeletion: true)',
    });
    expect(
      removalDecision({
        application: app(['example.com/other']),
        applicationSet: set('sync'),
        applicationSetRemoved: false,
      }).why,
    ).toMatch(/the template sets finalizers without the resources finalizer\)$/);
  });

  it('create-only and create-update keep the Application and its resources, unless the ApplicationSet is gone', () => {
    for (const policy of ['create-only', 'create-update'] as const) {
      expect(
        removalDecision({
          application: app(FINALIZER),
          applicationSet: set(policy),
          applicationSetRemoved: false,
        }),
      ).toEqual({
        deleteResources: false,
        why: `applicationsSync: ${policy} keeps Applications that are no longer generated; their resources stay`,
      });
    }
    expect(
      removalDecision({
        application: app(FINALIZER),
        applicationSet: set('create-only'),
        applicationSetRemoved: true,
      }),
    ).toEqual({
      deleteResources: true,
      why: "the ApplicationSet is gone, so its Applications are deleted, and this one's resources finalizer deletes its resources",
    });
  });
});
