import { describe, expect, it } from 'vitest';
import { buildProgram, usageErrorLine } from './program.js';

/** Runs `wavesync ...args` through the real program, returning what it wrote to stderr. */
async function stderrOf(...args: string[]): Promise<string> {
  let stderr = '';
  const program = buildProgram((text) => {
    stderr += text;
  });
  await expect(program.parseAsync(args, { from: 'user' })).rejects.toThrow();
  return stderr;
}

describe('src/cli/program: commander usage errors in the one error style', () => {
  it('an unknown command: one line listing the commands, or "did you mean"', async () => {
    expect(await stderrOf('bogus')).toBe(
      "error: unknown command 'bogus' (wavesync): the commands are cluster-sim, plan, sync, diff, health, action, appset, serve, bot, " +
        'worker, demo, completion; see wavesync --help\n',
    );
    expect(await stderrOf('plna')).toBe("error: unknown command 'plna' (wavesync): did you mean plan?\n");
  });

  it('an unknown option, a bad choice and too many arguments: one line naming the command', async () => {
    expect(await stderrOf('plan', '--outptu', 'json')).toBe(
      "error: unknown option '--outptu' (wavesync plan): did you mean --output?\n",
    );
    expect(await stderrOf('plan', '-o', 'yaml')).toBe(
      "error: option '-o, --output <format>' argument 'yaml' is invalid (wavesync plan): use one of text, json\n",
    );
    expect(await stderrOf('plan', 'a', 'b')).toMatch(
      /^error: too many arguments for 'plan'\. Expected 1 argument but got 2 \(wavesync plan\): see wavesync plan --help\n$/,
    );
  });

  it('keeps a message with no suggestion to one line', () => {
    expect(usageErrorLine("error: missing required argument 'x'\n", 'wavesync sync')).toBe(
      "error: missing required argument 'x' (wavesync sync): see wavesync sync --help\n",
    );
  });
});
