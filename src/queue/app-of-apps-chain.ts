/**
 * AppOfAppsChain — what a child sync of an App of Apps carries in its SyncRequest: the parent, the parent's Slack
 * thread, every child in the parent's order (phase → wave → kind → name) with its Application manifest, and which
 * child this job is. Plain JSON, so it travels as BullMQ job data and survives a worker crash; the worker that
 * ends one child reads it to enqueue the next (src/app-of-apps/app-of-apps-driver.ts).
 *
 * Child Applications are not in the wavesync.yaml registry: the manifest the parent applied is carried here and
 * parsed again (zod, `applicationFromObject`) by the worker that runs the child.
 */
import { z } from 'zod';
import type { ReportTarget } from './sync-reporter.js';

/** One child Application of the chain, as the parent's manifests define it. */
export interface AppOfAppsChild {
  /** metadata.name of the child Application. */
  name: string;
  /** The child Application object as the parent rendered it (argoproj.io/v1alpha1 Application). */
  manifest: Record<string, unknown>;
  /** `file:line` of the manifest in the parent's source, for error messages. */
  origin: string;
  /** The child's sync wave inside the parent. */
  wave: number;
}

/** The App of Apps chain a child sync belongs to. */
export interface AppOfAppsChain {
  /** The parent Application's name. */
  parent: string;
  /** The parent's BullMQ job id: the chain's identity (child job ids and Redis keys derive from it). */
  parentJobId: string;
  /** The parent's thread: each child's line and the final summary are posted there. */
  parentTarget?: ReportTarget;
  /** The parent's environment, for a child that names none (failure notices). */
  environment?: string;
  /** Wait for each child to be Succeeded and Healthy before the next (false: start each after the previous started). */
  gateOnHealth: boolean;
  /** Every child in the parent's order. */
  children: AppOfAppsChild[];
  /** Index in `children` of the child this job syncs. */
  index: number;
}

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

/** Validation of `SyncRequest.appOfApps` (untrusted JSON from Redis). */
export const AppOfAppsChainSchema = z
  .object({
    parent: z.string().regex(NAME, 'must be an Argo CD Application name'),
    parentJobId: z.string().min(1).max(100),
    parentTarget: z.object({ channel: z.string().min(1), threadTs: z.string().min(1) }).optional(),
    environment: z.string().min(1).optional(),
    gateOnHealth: z.boolean(),
    children: z
      .array(
        z.object({
          name: z.string().regex(NAME, 'must be an Argo CD Application name'),
          manifest: z.record(z.string(), z.unknown()),
          origin: z.string(),
          wave: z.number().int(),
        }),
      )
      .min(1),
    index: z.number().int().min(0),
  })
  .refine((c) => c.index < c.children.length, { message: 'index is past the last child', path: ['index'] });

/** The child a chain request syncs. */
export function currentChild(chain: AppOfAppsChain): AppOfAppsChild {
  const child = chain.children[chain.index];
  if (!child) throw new RangeError(`App of Apps chain of ${chain.parent} has no child ${chain.index}`);
  return child;
}
