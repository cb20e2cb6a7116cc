/**
 * `/sync help`: every subcommand with its form, and the usage strings the error replies reuse.
 */
import { context, plainFallback, type SlackMessage, section } from './block.js';

/** The right form of each subcommand, as the error replies print it. */
export const USAGE = {
  sync: '/sync <app> [--revision REV] [--prune] [--dry-run] [--resource GROUP:KIND:NAME] [--break-glass "reason"]',
  status: '/sync status [app]',
  cancel: '/sync cancel <app> ["reason"]',
  confirmPrune: '/sync confirm-prune <app>',
  history: '/sync history <app>',
  rollback: '/sync rollback <app> [ID] [--prune] [--break-glass "reason"]',
  diff: '/sync diff <app> [--revision REV] [--prune]',
  apps: '/sync apps',
  rollout: '/sync <appset>',
  delete: '/sync delete <app> [--cascade=foreground|background|orphan] [--break-glass "reason"]',
  help: '/sync help',
  promote:
    '/sync promote <pipeline> [--from STAGE] [--to STAGE] [--revision REV] [--prune] [--break-glass "reason"]',
  pipeline: '/sync pipeline <pipeline>',
  resources: '/sync resources <app>',
  action: '/sync action <app> <action> <Kind/name> [--param name=value]',
  logs: '/sync logs <app> [Kind/name] [-c container] [--tail N] [--previous]',
  events: '/sync events <app> [Kind/name]',
} as const;

/** The flags `/sync <app>` accepts, for "Unknown flag" replies. */
export const FLAGS_TEXT =
  '--revision REV · --prune · --dry-run · --resource GROUP:KIND:NAME · --break-glass "reason"';

export function helpBlocks(): SlackMessage {
  const lines = [
    '*wavesync* syncs Argo CD Applications from Slack: phases, waves and hooks as Argo CD runs them.',
    `\`${USAGE.sync}\` — queue a sync; progress appears in a thread under the header.`,
    '   `--revision REV` branch, tag or commit · `--prune` delete resources no longer in git · ' +
      '`--dry-run` validate only · `--resource GROUP:KIND:NAME` selective sync (repeatable; hooks do not run) · ' +
      '`--break-glass "reason"` sync during a change freeze; the reason is recorded',
    `\`${USAGE.rollout}\` — roll an ApplicationSet out step by step (its RollingSync steps and maxUpdate), in one thread; production Applications ask for approval there`,
    `\`${USAGE.status}\` — what is running and queued`,
    `\`${USAGE.cancel}\` — cancel the running (else the next queued) sync; the reason is shown and audited`,
    `\`${USAGE.history}\` — the last syncs with their history id (#41), revision and outcome`,
    `\`${USAGE.rollback}\` — sync back to the exact revision of history entry ID (default: the last Succeeded sync before the current one); refused for apps with automated sync and for local folders`,
    `\`${USAGE.diff}\` — what a sync would change in the cluster now (only you see it; Secret values are hidden)`,
    `\`${USAGE.confirmPrune}\` — let a waiting sync prune its \`Prune=confirm\` resources (approvers, in production)`,
    `\`${USAGE.apps}\` — the Applications you can sync`,
    `\`${USAGE.delete}\` — delete an Application: shows the plan (per wave, what is kept and why) with Delete/Cancel; ` +
      'its resources go highest wave first when it has a resources finalizer (or `--cascade`), `orphan` leaves them; approval rules apply',
    '`/sync audit <app>` — requests, approvals and outcomes of an application (approvers only)',
    `\`${USAGE.promote}\` — sync the next stage of a promotion pipeline to exactly the revision verified in the stage before it (through its usual approval)`,
    `\`${USAGE.pipeline}\` — each stage of a pipeline: revision, health, how long verified, what waits to be promoted (a stage's name finds its pipeline too)`,
    `\`${USAGE.resources}\` — the live resources as a tree (owners first), health and messages, unhealthy first, with their actions`,
    `\`${USAGE.logs}\` — the last lines of a Pod or of a workload's Pods (Secret values hidden; posted as a snippet in its thread)`,
    `\`${USAGE.events}\` — recent Kubernetes Events of the app's objects, warnings first`,
    `\`${USAGE.action}\` — run an Argo CD resource action (restart, scale, …) on one of them; posted in the channel and audited`,
  ];
  const text = lines.join('\n');
  return {
    text: plainFallback(text),
    blocks: [section(text), context('Use the core group as an empty GROUP: `--resource :Service:web`.')],
  };
}
