/**
 * `environments:` in wavesync.yaml — the place the approvals work (issue 7) fills: per environment, approval
 * rules, approvers, channels, freeze windows. Until then an environment is a named map whose contents are kept
 * as written and not interpreted. Replace `EnvironmentSchema` here; `SettingsSchema` picks it up.
 */
import { z } from 'zod';

/** One environment's settings (placeholder: any map; issue 7 defines the keys). */
export const EnvironmentSchema = z.looseObject({});

/** `environments:` — environment name → its settings. */
export const EnvironmentsSchema = z.record(z.string().min(1), EnvironmentSchema);

export type EnvironmentSettings = z.infer<typeof EnvironmentSchema>;
