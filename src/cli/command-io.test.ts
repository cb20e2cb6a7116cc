import { describe, expect, it } from 'vitest';
import { BotError, ManifestError } from '../domain/index.js';
import { errorReport, isVerbose } from './command-io.js';

describe('errorReport: one line `error: <what> (<where>): <how to fix>` and the exit code', () => {
  it("puts a manifest error's file and line in parentheses after the problem, then the fix; exit 2", () => {
    const error = new ManifestError('app/x.yaml', 5, 'duplicate resource ConfigMap/x', { fix: 'remove one' });
    expect(errorReport(error, false)).toEqual({
      text: 'error: duplicate resource ConfigMap/x (app/x.yaml:5): remove one\n',
      exitCode: 2,
    });
  });

  it('exits 1 for a failed operation (cluster, render) and 2 for bad input (config, command, Application)', () => {
    expect(errorReport(new BotError('cluster_error', 'cannot reach the cluster'), false).exitCode).toBe(1);
    expect(errorReport(new BotError('render_failed', 'helm failed'), false).exitCode).toBe(1);
    expect(errorReport(new BotError('invalid_config', 'SLACK_BOT_TOKEN is missing'), false).exitCode).toBe(2);
    expect(errorReport(new BotError('invalid_command', 'give a path'), false).exitCode).toBe(2);
    expect(errorReport(new BotError('application_not_found', 'No application'), false).exitCode).toBe(2);
  });

  it('gives a failed system call its message, and names anything else as a bug, without a stack trace', () => {
    const inUse = Object.assign(new Error('listen EADDRINUSE: address already in use 127.0.0.1:3000'), {
      code: 'EADDRINUSE',
      syscall: 'listen',
    });
    expect(errorReport(inUse, false)).toEqual({
      text: 'error: listen EADDRINUSE: address already in use 127.0.0.1:3000\n',
      exitCode: 1,
    });
    const bug = errorReport(new TypeError('x is undefined'), false);
    expect(bug.text).toBe(
      'error: unexpected TypeError: x is undefined: rerun with --verbose for the stack trace, and report it as a bug\n',
    );
    expect(bug.exitCode).toBe(1);
  });

  it('appends the stack trace only when verbose (--verbose or LOG_LEVEL=debug)', () => {
    const text = errorReport(new BotError('invalid_command', 'bad'), true).text;
    expect(text.split('\n')[0]).toBe('error: bad');
    expect(text).toMatch(/\n {4}at /);
    expect(isVerbose(['node', 'wavesync', 'plan', '--verbose'], {})).toBe(true);
    expect(isVerbose(['node', 'wavesync', 'plan'], { LOG_LEVEL: 'debug' })).toBe(true);
    expect(isVerbose(['node', 'wavesync', 'plan'], { LOG_LEVEL: 'info' })).toBe(false);
  });
});
