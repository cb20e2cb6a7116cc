/**
 * `/sync logs` in the channel: the logs (already redacted and bounded by src/resource-actions: the Application's
 * Secret values as `***`, at most 1,000 lines per Pod and 64 KiB in all) are shared as a text snippet
 * (files.uploadV2: files.getUploadURLExternal, the upload, files.completeUploadExternal) in a thread everyone in the
 * channel sees: the Application's latest sync thread when it is in this channel (its running or queued sync, else
 * its last finished one), else a new thread "📜 logs of <app> <Kind/name>" started here. When the file cannot be
 * shared (no `files:write`, Slack refuses) the same lines are posted in that thread as code blocks instead
 * (logsBlocks: cut to Slack's section size, the newest lines kept).
 */
import type { WebClient } from '@slack/web-api';
import type { LogsResult } from '../../resource-actions/index.js';
import { plainFallback, type SlackMessage, section } from '../messages/block.js';
import { escapeMrkdwn, mention, plural } from '../messages/format.js';
import { logsBlocks } from '../messages/logs-events-blocks.js';
import type { SyncQueueClient } from '../ports.js';

interface LogsThread {
  channel: string;
  threadTs: string;
  /** True when the thread is the Application's sync thread (else wavesync started it for these logs). */
  syncThread: boolean;
}

export interface SharedLogs {
  thread: LogsThread;
  /** `file`: shared as a snippet; `blocks`: posted as code blocks (the file could not be shared: `reason`). */
  as: 'file' | 'blocks';
  permalink?: string;
  reason?: string;
}

/** The snippet's text: one header per Pod (its problem, if any), then its lines. */
function logsSnippetText(result: LogsResult): string {
  const parts = result.logs.map((log) => {
    const head = `==> Pod ${log.namespace}/${log.pod}${log.problem ? ` — ${log.problem}` : ''} <==`;
    return [head, ...log.lines].join('\n');
  });
  if (result.dropped > 0) parts.unshift(`(${plural(result.dropped, 'older line')} left out: 64 KiB at most)`);
  return `${parts.join('\n\n')}\n`;
}

/** The Application's latest sync thread in `channel`: its running or queued sync's, else its last finished one's. */
async function latestSyncThread(
  queue: Pick<SyncQueueClient, 'applicationStatus' | 'history' | 'jobStatus'>,
  application: string,
  channel: string,
): Promise<LogsThread | undefined> {
  try {
    const live = (await queue.applicationStatus(application)).find((j) => j.target?.channel === channel);
    if (live?.target) return { channel, threadTs: live.target.threadTs, syncThread: true };
    for (const entry of await queue.history(application, 5)) {
      const target = (await queue.jobStatus(entry.jobId))?.target;
      if (target?.channel === channel) return { channel, threadTs: target.threadTs, syncThread: true };
    }
  } catch {
    // The queue is unreachable: a thread of its own still shows the logs.
  }
  return undefined;
}

/** Share `result` in the Application's sync thread in `channel`, or in a new thread; resolves with where and how. */
export async function shareLogs(
  client: WebClient,
  queue: Pick<SyncQueueClient, 'applicationStatus' | 'history' | 'jobStatus'>,
  ask: {
    application: string;
    target: string | undefined;
    channel: string;
    userId: string;
    previous?: boolean;
  },
  result: LogsResult,
): Promise<SharedLogs> {
  const what = `${ask.application}${ask.target ? ` ${ask.target}` : ''}`;
  const thread =
    (await latestSyncThread(queue, ask.application, ask.channel)) ??
    (await startThread(
      client,
      ask.channel,
      `📜 logs of *${escapeMrkdwn(ask.application)}*${ask.target ? ` ${escapeMrkdwn(ask.target)}` : ''}`,
    ));
  const pods = plural(result.logs.length, 'Pod');
  const comment =
    `📜 ${ask.previous ? 'Previous logs' : 'Logs'} of *${escapeMrkdwn(what)}* (${pods}) for ${mention(ask.userId)}` +
    " · values of the application's Secrets are shown as ***";
  const filename = `${what.replace(/[^A-Za-z0-9._-]+/g, '-')}${ask.previous ? '-previous' : ''}.log`;
  try {
    const uploaded = await client.filesUploadV2({
      channel_id: thread.channel,
      thread_ts: thread.threadTs,
      filename,
      title: `Logs of ${what}`,
      content: logsSnippetText(result),
      initial_comment: comment,
    });
    const file = (uploaded.files as { files?: { permalink?: string }[] }[] | undefined)?.[0]?.files?.[0];
    return { thread, as: 'file', ...(file?.permalink ? { permalink: file.permalink } : {}) };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const message = logsBlocks(ask.application, ask.target, result);
    await client.chat.postMessage({
      channel: thread.channel,
      thread_ts: thread.threadTs,
      text: message.text,
      blocks: message.blocks,
    });
    return { thread, as: 'blocks', reason };
  }
}

async function startThread(client: WebClient, channel: string, title: string): Promise<LogsThread> {
  const message: SlackMessage = { text: plainFallback(title), blocks: [section(title)] };
  const posted = await client.chat.postMessage({ channel, text: message.text, blocks: message.blocks });
  if (!posted.ts) throw new Error('chat.postMessage returned no ts');
  return { channel: posted.channel ?? channel, threadTs: posted.ts, syncThread: false };
}
