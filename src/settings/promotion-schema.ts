/**
 * `promotion:` in wavesync.yaml — promotion pipelines (docs/promotion.md): an app's stages in order, each an Argo CD
 * Application, and what "verified" means for a stage. `/sync promote <pipeline>` moves the exact revision a stage
 * synced and verified to the next stage.
 *
 * ```yaml
 * promotion:
 *   checkIntervalSeconds: 30            # how often stages waiting to be verified are looked at (default 30)
 *   pipelines:
 *     guestbook:
 *       stages: [guestbook-dev, guestbook-staging, guestbook-prod]
 *       verify: { healthyForMinutes: 30, postSyncHook: Job/smoke-test }
 * ```
 *
 * The schema is strict (an unknown key is an error naming its path). What it cannot see — whether the stages are
 * known Applications that can be pinned to one revision — is checked against the Applications by
 * `assertPromotionPipelines` (src/promotion) at start-up.
 */
import { z } from 'zod';

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

const applicationName = z
  .string()
  .regex(DNS_SUBDOMAIN, 'stages are Argo CD Application names (lowercase RFC 1123 subdomains)');

/** `Kind/name` of a PostSync hook, e.g. `Job/smoke-test` (a generateName hook matches by its prefix). */
const hookName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9]*\/[a-z0-9]([-a-z0-9.]*[a-z0-9-])?$/, 'must be Kind/name, e.g. Job/smoke-test');

const VerifySchema = z.strictObject({
  /**
   * A stage's sync is verified once its Application stayed Synced and Healthy for this long after the sync ended
   * (0: as soon as the sync ended Succeeded and Healthy). Fractions are allowed (0.5 = 30 s). At most a week.
   */
  healthyForMinutes: z.number().nonnegative().max(10_080).default(30),
  /**
   * A PostSync hook (`Kind/name`) of the stage's sync that must have Succeeded, e.g. a smoke test Job. Without it
   * health alone verifies.
   */
  postSyncHook: hookName.optional(),
});

const PipelineSchema = z.strictObject({
  /** The Applications of the pipeline, first stage first; each Application is a stage of one pipeline only. */
  stages: z
    .array(applicationName)
    .min(2, 'a pipeline needs at least two stages')
    .superRefine((stages, ctx) => {
      const seen = new Set<string>();
      for (const [i, stage] of stages.entries()) {
        if (seen.has(stage)) ctx.addIssue({ code: 'custom', path: [i], message: `${stage} is listed twice` });
        seen.add(stage);
      }
    }),
  verify: VerifySchema.prefault({}),
});

export const PromotionSchema = z
  .strictObject({
    /** How often the bot looks at stages whose sync waits to be verified, in seconds (default 30). */
    checkIntervalSeconds: z.number().int().positive().max(3600).default(30),
    pipelines: z
      .record(
        z.string().regex(DNS_SUBDOMAIN, 'pipeline names are lowercase RFC 1123 subdomains'),
        PipelineSchema,
      )
      .default({}),
  })
  .superRefine((promotion, ctx) => {
    const owner = new Map<string, string>();
    for (const [name, pipeline] of Object.entries(promotion.pipelines)) {
      for (const [i, stage] of pipeline.stages.entries()) {
        const first = owner.get(stage);
        if (first !== undefined && first !== name) {
          ctx.addIssue({
            code: 'custom',
            path: ['pipelines', name, 'stages', i],
            message: `${stage} is already a stage of pipeline ${first}: an Application belongs to one pipeline`,
          });
        }
        owner.set(stage, first ?? name);
      }
    }
  });

export type PipelineSettings = z.infer<typeof PipelineSchema>;
export type VerifySettings = z.infer<typeof VerifySchema>;
