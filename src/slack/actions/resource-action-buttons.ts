/**
 * The buttons of `/sync resources`: a resource action's button (RESOURCE_ACTION_ID; its value names the
 * Application, action and object — who may is checked for the clicker, from the signed payload, as for the
 * command) and "Show all" (RESOURCES_SHOW_ALL_ACTION_ID; opens a modal of every line at once with the click's
 * trigger_id, for whoever the `view` permission allows).
 */
import type { BlockAction, ButtonAction, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { authorizationOf } from '../commands/authorize.js';
import { ephemeral, type SlackAppDeps } from '../commands/command-context.js';
import { runResourceActionFromSlack } from '../commands/resource-action-run.js';
import { textMessage } from '../messages/block.js';
import { type ResourceActionButtonValue, resourceTreeModal } from '../messages/resource-tree-blocks.js';
import { clickedMessage } from '../slack-payloads.js';

interface ClickArgs {
  body: BlockAction;
  action: ButtonAction;
  respond: RespondFn;
  client: WebClient;
  deps: SlackAppDeps;
}

function parseValue(value: string | undefined): ResourceActionButtonValue | undefined {
  try {
    const parsed = JSON.parse(value ?? '') as Partial<ResourceActionButtonValue>;
    const { application, action, target } = parsed;
    if (typeof application === 'string' && typeof action === 'string' && typeof target === 'string') {
      return { application, action, target };
    }
  } catch {
    // not ours
  }
  return undefined;
}

export async function resourceActionButton({ body, action, respond, deps }: ClickArgs): Promise<void> {
  const value = parseValue(action.value);
  if (!value) {
    return void (await respond({
      ...ephemeral(textMessage('That button is not a resource action.')),
      replace_original: false,
    }));
  }
  await runResourceActionFromSlack(deps, respond, {
    ...value,
    params: {},
    userId: body.user.id,
    userName: body.user.username ?? body.user.name ?? body.user.id,
    channel: clickedMessage(body).channel,
    requestKey: `action:${body.trigger_id}`,
    fromBotMessage: true,
  });
}

export async function showAllResourcesButton({
  body,
  action,
  respond,
  client,
  deps,
}: ClickArgs): Promise<void> {
  const application = action.value ?? '';
  const tell = (text: string) => respond({ ...ephemeral(textMessage(text)), replace_original: false });
  const views = deps.resourceViews;
  if (!views) return void (await tell('Resource views are not available: this bot has no cluster access.'));
  const decision = await authorizationOf(deps, {
    action: 'view',
    application,
    userId: body.user.id,
    channel: clickedMessage(body).channel,
    fromBotMessage: true,
  });
  if (!decision.allowed) return void (await tell(`🚫 ${decision.reason}`));
  try {
    await client.views.open({
      trigger_id: body.trigger_id,
      view: resourceTreeModal(application, await views.tree(application)),
    });
  } catch (err) {
    deps.logger?.warn({ err, application }, 'resources modal failed');
    await tell(
      `⚠️ Could not show every resource of ${application}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}
