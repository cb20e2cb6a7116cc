/**
 * RolloutChain — what a sync of an ApplicationSet's rollout (`/sync <appset>`, `strategy: RollingSync`) carries in
 * its SyncRequest: the ApplicationSet, the rollout's thread, and its steps (the generated Applications of each, how
 * many are updated at once, which need approval). Plain JSON, so it travels as BullMQ job data and survives a worker
 * crash; the worker that ends one Application's sync reads it to start the next ones (src/app-of-apps/
 * rollout-driver.ts), as an App of Apps chain does (./app-of-apps-chain.ts). The Applications themselves are the
 * registry's (generated ones), resolved by name.
 */
import { z } from 'zod';
import type { ReportTarget } from './sync-reporter.js';

export interface RolloutChainStep {
  /** The generated Applications of this step, in generation order. */
  applications: string[];
  /** How many of them are updated at once (maxUpdate resolved; 0: none). */
  atOnce: number;
  /** `maxUpdate` as written, for messages. */
  maxUpdate?: number | string;
}

export interface RolloutChain {
  applicationSet: string;
  /** The rollout's identity: its Applications' job ids, approval request keys and Redis keys derive from it. */
  rolloutId: string;
  /** The rollout's thread: a line per Application and per step, and the final summary. */
  target?: ReportTarget;
  steps: RolloutChainStep[];
  /** Applications whose environment requires approval: each waits for one before it syncs. */
  approval: string[];
  /** Generated Applications no step selects: never synced by the rollout (Argo CD's step -1). */
  unassigned: string[];
}

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const appName = z.string().regex(NAME, 'must be an Argo CD Application name');

/** Validation of `SyncRequest.rollout` (untrusted JSON from Redis). */
export const RolloutChainSchema = z.object({
  applicationSet: z.string().min(1).max(253),
  rolloutId: z.string().min(1).max(100),
  target: z.object({ channel: z.string().min(1), threadTs: z.string().min(1) }).optional(),
  steps: z
    .array(
      z.object({
        applications: z.array(appName),
        atOnce: z.number().int().min(0),
        maxUpdate: z.union([z.number().int(), z.string()]).optional(),
      }),
    )
    .min(1),
  approval: z.array(appName),
  unassigned: z.array(appName),
});
