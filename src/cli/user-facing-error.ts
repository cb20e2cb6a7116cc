/**
 * The one-line message for an error a user can act on, or undefined for a bug (which keeps its stack trace):
 * a BotError (its message is written for users), or a failed system call such as a port already in use or an
 * unreadable file (Node's `listen EADDRINUSE: address already in use 127.0.0.1:3000`).
 */
import { BotError } from '../domain/index.js';

export function userFacingMessage(error: unknown): string | undefined {
  if (error instanceof BotError) return error.message;
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string')
    return error.message;
  return undefined;
}
