import { Command } from 'commander';
import type { CommandIo } from '../../src/cli/commands/plan.js';

/** What a command wrote and the exit code it set, when run in process through commander. */
export interface CommandRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Runs `wavesync <args>` in process with the one command `register` adds, capturing what it writes. */
export async function runCommand(
  register: (program: Command, io: CommandIo) => void,
  args: string[],
): Promise<CommandRun> {
  const out = { stdout: '', stderr: '', exitCode: 0 };
  const program = new Command('wavesync').exitOverride();
  register(program, {
    stdout: (text) => {
      out.stdout += text;
    },
    stderr: (text) => {
      out.stderr += text;
    },
    setExitCode: (code) => {
      out.exitCode = code;
    },
  });
  await program.parseAsync(args, { from: 'user' });
  return out;
}
