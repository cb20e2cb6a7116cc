/** Spawn `bot-process.ts` under tsx (for kill -9 tests of the bot) and resolve with its port. */
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { spawnTsxScript } from './worker-processes.js';

const SCRIPT = path.join(import.meta.dirname, 'bot-process.ts');

export interface BotProcessEnv {
  REDIS_URL: string;
  PREFIX: string;
  SLACK_API_URL: string;
  SIGNING_SECRET: string;
  LEASE_MS: string;
  APPS: string;
}

/**
 * Start a bot process; resolves once it printed `ready <port>` (rejects if it exits first or after 60 s: tsx
 * start-up of Bolt and BullMQ on a loaded 2-core machine).
 */
export async function spawnBotProcess(env: BotProcessEnv): Promise<{ child: ChildProcess; port: number }> {
  const { child, match } = await spawnTsxScript(SCRIPT, { ...env }, /ready (\d+)/, 60_000);
  return { child, port: Number(match[1]) };
}
