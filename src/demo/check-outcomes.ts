/**
 * Wait for every demo sync to finish and check it: the operation phase (from the queue's history), the Slack
 * thread (the replies the scenario expects, in order, and a final header naming the phase), and the cluster
 * (a Succeeded app's manifests are all live; a Failed app whose PreSync hook failed applied none of them).
 */
import { applicationFromObject, applicationsFromSettings } from '../applications/index.js';
import { type Config, processEnvironment } from '../config.js';
import type { Application, OperationPhase } from '../domain/index.js';
import { buildSyncTasks, getResourceHealth, type SourcedObject } from '../engine/index.js';
import { scriptedHealthForCluster } from '../health-scripts/index.js';
import { clusterApplicationsLister } from '../kube/cluster-applications.js';
import { createKubeCluster } from '../kube/kube-cluster.js';
import { loadKubeConfig } from '../kube/load-kube-config.js';
import { createSyncQueue, type HistoryEntry } from '../queue/index.js';
import { loadSettings, type Settings } from '../settings/index.js';
import type { Block } from '../slack/messages/block.js';
import { renderBlocksAsText } from '../slack/messages/render-blocks-as-text.js';
import { targetPresence } from './cluster-matches-manifests.js';
import { ALERTS_CHANNEL, type DemoApp, type DemoObjectRef } from './demo-scenario.js';
import type { FakeMessage, FakeSlackApi, RecordedCall } from './fake-slack/fake-slack-api.js';

/** Where the outcomes are read: the fake Slack, the queue (config) and the cluster (kubeconfig). */
export interface OutcomeSources {
  slack: FakeSlackApi;
  config: Config;
  kubeconfigFile: string;
}

export interface DemoOutcome {
  application: string;
  expected: OperationPhase;
  phase: OperationPhase | 'timed out';
  ackMs: number;
  /** Planned (phase, wave) steps and hook tasks of the Application's manifests (nothing live). */
  waves: number;
  hooks: number;
  /** From the operation's start to its end (queue history), ms; NaN when it did not finish. */
  durationMs: number;
  /** Slack Web API calls the bot made in the app's channel (fake Slack's record). */
  slackCalls: number;
  problems: string[];
  ok: boolean;
}

export async function checkOutcomes(input: {
  apps: readonly DemoApp[];
  env: OutcomeSources;
  acks: ReadonlyMap<string, number>;
  timeoutMs: number;
}): Promise<DemoOutcome[]> {
  const { env } = input;
  const queue = createSyncQueue({
    connection: env.config.redis,
    prefix: env.config.queue.prefix,
  });
  const deadline = Date.now() + input.timeoutMs;
  try {
    const entries = await Promise.all(input.apps.map((app) => finished(queue.history, app, deadline)));
    const settings = await loadSettings(env.config.configFile ?? '');
    const { registry, renderer } = await applicationsFromSettings(settings, {
      env: processEnvironment(),
      clusterApplications: clusterApplicationsLister(env.kubeconfigFile),
    });
    const cluster = createKubeCluster(loadKubeConfig({ kubeconfig: env.kubeconfigFile }));
    return await Promise.all(
      input.apps.map(async (app, i) => {
        const entry = entries[i];
        const problems: string[] = [];
        if (!entry) problems.push(`no outcome within ${input.timeoutMs / 1000} s`);
        else if (entry.phase !== app.expected) problems.push(`ended ${entry.phase}: ${entry.message}`);
        const application = registry.get(app.application);
        const rendered = await renderer.renderApplication(application);
        if (app.children) {
          const children = childApplicationsIn(rendered.targets);
          problems.push(...(await childProblems(queue.history, app.children, deadline)));
          for (const child of children) {
            const childRendered = await renderer.renderApplication(child);
            const childLive = await targetPresence(
              cluster,
              childRendered.targets,
              child.destination.namespace ?? '',
            );
            problems.push(...childLive.problems.map((p) => `${child.name}: ${p}`));
          }
        }
        if (entry) problems.push(...(await threadProblems(env, app, entry.phase)));
        if (app.expectAlert) problems.push(...(await alertProblems(env, app)));
        if (app.scriptGate && entry)
          problems.push(
            ...(await scriptGateProblems(
              env,
              app,
              { settings, cluster },
              application.destination.namespace ?? '',
            )),
          );
        const live = await targetPresence(cluster, rendered.targets, application.destination.namespace ?? '');
        if (app.expected === 'Succeeded') problems.push(...live.problems);
        else if (live.present.length > 0)
          problems.push(`applied although the sync failed: ${live.present.join(', ')}`);
        const planned = buildSyncTasks({
          targets: rendered.targets,
          live: [],
          namespace: application.destination.namespace ?? '',
          revision: rendered.revision,
          startedAt: entry?.startedAt ?? new Date().toISOString(),
          operation: { prune: false, dryRun: true, syncOptions: application.syncPolicy?.syncOptions ?? [] },
        }).tasks;
        return {
          application: app.application,
          expected: app.expected,
          phase: entry?.phase ?? 'timed out',
          ackMs: input.acks.get(app.application) ?? Number.NaN,
          waves: new Set(planned.map((t) => `${t.phase}/${t.wave}`)).size,
          hooks: planned.filter((t) => t.isHook).length,
          durationMs: entry?.durationMs ?? Number.NaN,
          slackCalls: env.slack.calls().filter((c) => c.args.channel === app.channel).length,
          problems,
          ok: problems.length === 0,
        };
      }),
    );
  } finally {
    await queue.close();
  }
}

/** The child Applications among a parent's rendered objects. */
function childApplicationsIn(targets: readonly SourcedObject[]): Application[] {
  return targets
    .filter((t) => t.object.apiVersion === 'argoproj.io/v1alpha1' && t.object.kind === 'Application')
    .map((t) => applicationFromObject(t.object, t.source));
}

/** Every child must have Succeeded and be Healthy, each started after the previous one ended (gated). */
async function childProblems(
  history: (application: string, limit?: number) => Promise<HistoryEntry[]>,
  children: readonly string[],
  deadline: number,
): Promise<string[]> {
  const problems: string[] = [];
  let previous: HistoryEntry | undefined;
  for (const child of children) {
    const entry = await finished(history, { application: child }, deadline);
    if (!entry) problems.push(`child ${child} did not finish`);
    else if (entry.phase !== 'Succeeded' || entry.health?.status !== 'Healthy')
      problems.push(
        `child ${child} ended ${entry.phase}, ${entry.health?.status ?? 'no health'}: ${entry.message}`,
      );
    else if (previous && Date.parse(entry.startedAt) < Date.parse(previous.finishedAt))
      problems.push(`child ${child} started before ${previous.application} ended`);
    previous = entry;
  }
  return problems;
}

async function finished(
  history: (application: string, limit?: number) => Promise<HistoryEntry[]>,
  app: Pick<DemoApp, 'application'>,
  deadline: number,
): Promise<HistoryEntry | undefined> {
  while (Date.now() < deadline) {
    const [entry] = await history(app.application, 1).catch(() => []);
    if (entry) return entry;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

/** The thread's problems: the final header must name `phase`; the expected replies must appear in order. */
async function threadProblems(
  env: Pick<OutcomeSources, 'slack'>,
  app: DemoApp,
  phase: OperationPhase,
): Promise<string[]> {
  const root = env.slack.channelMessages(app.channel).find((m) => !m.threadTs);
  if (!root) return ['no header was posted'];
  const deadline = Date.now() + 15_000;
  while (!root.text.includes(phase) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const problems = root.text.includes(phase) ? [] : [`the header does not say ${phase}: ${root.text}`];
  // An App of Apps thread ends with the children's summary, posted after the last child.
  const last = app.expectReplies.at(-1);
  while (
    app.children &&
    last &&
    !threadText(env.slack, app.channel, root.ts).includes(last) &&
    Date.now() < deadline
  )
    await new Promise((r) => setTimeout(r, 100));
  const replies = threadText(env.slack, app.channel, root.ts);
  let from = 0;
  for (const expected of app.expectReplies) {
    const at = replies.indexOf(expected, from);
    if (at < 0) problems.push(`the thread has no reply mentioning ${expected} (after the previous ones)`);
    else from = at + expected.length;
  }
  return problems;
}

/**
 * A wave held by a Lua health script (DemoApp.scriptGate): the header said the script's Progressing message
 * before the next wave's reply was posted; the script (through the worker's own source chain: wavesync.yaml and the
 * cluster's argocd-cm) calls the resource Healthy now; and the next wave's object was created no earlier than the
 * resource's Ready condition turned True (timestamps in whole seconds, so the resource must have been Progressing
 * for 2 s or more for the check to tell a held wave from one that did not wait).
 */
async function scriptGateProblems(
  env: Pick<OutcomeSources, 'slack'>,
  app: DemoApp,
  deps: { settings: Settings; cluster: ReturnType<typeof createKubeCluster> },
  namespace: string,
): Promise<string[]> {
  const gate = app.scriptGate!;
  const problems: string[] = [];
  const label = `${gate.resource.kind}/${gate.resource.name}`;
  // Said by the header while the wave waited, or (when no header update could show it) by the wave's completed line.
  /** Where `text` first says one of the script's messages, or -1. */
  const saysWhy = (text: string) => {
    const found = gate.waiting.map((w) => text.indexOf(w)).filter((at) => at >= 0);
    return found.length > 0 ? Math.min(...found) : -1;
  };
  const root = env.slack.channelMessages(app.channel).find((m) => !m.threadTs);
  const calls = env.slack.calls().filter((c) => c.status === 200 && c.args.channel === app.channel);
  const inHeader = calls.findIndex(
    (c) => c.method === 'chat.update' && c.args.ts === root?.ts && saysWhy(callText(c)) >= 0,
  );
  const nextPosted = calls.findIndex(
    (c) =>
      c.method === 'chat.postMessage' && c.args.thread_ts === root?.ts && callText(c).includes(gate.nextWave),
  );
  const replies = root ? threadText(env.slack, app.channel, root.ts) : '';
  const inReplies = saysWhy(replies);
  const headerSaid = inHeader >= 0 && (nextPosted < 0 || inHeader < nextPosted);
  const repliesSaid = inReplies >= 0 && inReplies < replies.indexOf(gate.nextWave);
  if (!headerSaid && !repliesSaid)
    problems.push(`the thread did not say "${gate.waiting.join('" or "')}" before "${gate.nextWave}"`);
  const ref = (r: DemoObjectRef) => ({ ...r, namespace });
  const [resource, next] = await Promise.all([
    deps.cluster.get(ref(gate.resource)),
    deps.cluster.get(ref(gate.next)),
  ]);
  if (!resource) return [...problems, `${label} is not in the cluster`];
  if (!next) return [...problems, `${gate.next.kind}/${gate.next.name} is not in the cluster`];
  const scripted = await scriptedHealthForCluster(deps.settings.health, deps.settings.file, deps.cluster);
  const health = await getResourceHealth(resource, scripted ? { scripted } : {});
  if (health === undefined) problems.push(`${label} is judged by no health script`);
  else if (health.status !== 'Healthy')
    problems.push(`${label} is ${health.status} now${health.message ? `: ${health.message}` : ''}`);
  const ready = (
    (resource.status as { conditions?: { type: string; status: string; lastTransitionTime?: string }[] })
      ?.conditions ?? []
  ).find((c) => c.type === 'Ready' && c.status === 'True');
  const readyAt = Date.parse(ready?.lastTransitionTime ?? '');
  const createdAt = (o: typeof resource) => Date.parse(o.metadata.creationTimestamp ?? '');
  if (Number.isNaN(readyAt)) problems.push(`${label} has no Ready=True condition with a time`);
  else if (readyAt - createdAt(resource) < 2000)
    problems.push(`${label} was Progressing for less than 2 s: the order of the waves cannot be told`);
  else if (createdAt(next) < readyAt)
    problems.push(
      `${gate.next.kind}/${gate.next.name} was created at ${next.metadata.creationTimestamp}, before ${label} was Ready (${ready?.lastTransitionTime})`,
    );
  return problems;
}

function callText(call: RecordedCall): string {
  const blocks = Array.isArray(call.args.blocks) ? (call.args.blocks as Block[]) : [];
  return blocks.length > 0 ? renderBlocksAsText(blocks) : String(call.args.text ?? '');
}

/** A failure notice naming the app must reach the alerts channel (within 10 s of the outcome). */
async function alertProblems(env: Pick<OutcomeSources, 'slack'>, app: DemoApp): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  const names = () =>
    env.slack.channelMessages(ALERTS_CHANNEL).some((m) => textOf(m).includes(app.application));
  while (!names() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return names() ? [] : [`no failure notice about ${app.application} in the alerts channel`];
}

/** The replies of a thread as Slack would show them, oldest first, one per line group. */
export function threadText(slack: FakeSlackApi, channel: string, threadTs: string): string {
  return slack.thread(channel, threadTs).map(textOf).join('\n');
}

function textOf(message: FakeMessage): string {
  return message.blocks.length > 0 ? renderBlocksAsText(message.blocks as Block[]) : message.text;
}
