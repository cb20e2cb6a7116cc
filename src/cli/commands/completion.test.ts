import { execFileSync } from 'node:child_process';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../../test/support/run-command.js';
import { registerCompletionCommand } from './completion.js';
import { registerPlanCommand } from './plan.js';
import { registerSyncCommand } from './sync.js';

/** The `wavesync` tree with plan, sync and completion, as main.ts registers them. */
function register(program: Command, io: Parameters<typeof registerPlanCommand>[1]): void {
  registerPlanCommand(program, io);
  registerSyncCommand(program, io);
  registerCompletionCommand(program, io);
}

/** What bash completes for the words typed so far (the last one is being completed). */
function completeInBash(script: string, words: string[]): string[] {
  const program = [
    script,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_wavesync',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash array expansion, not a template
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  return execFileSync('bash', ['-c', program], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

describe('wavesync completion', () => {
  it('bash: completes subcommands, their options and option choices from the commander tree', async () => {
    const { stdout, exitCode } = await runCommand(register, ['completion', 'bash']);
    expect(exitCode).toBe(0);
    expect(completeInBash(stdout, ['wavesync', 'pl'])).toEqual(['plan']);
    expect(completeInBash(stdout, ['wavesync', 'sync', '--dry'])).toEqual(['--dry-run']);
    expect(completeInBash(stdout, ['wavesync', 'plan', '--output', ''])).toEqual(['text', 'json']);
    expect(completeInBash(stdout, ['wavesync', 'completion', 'z'])).toEqual(['zsh']);
  });

  it('zsh: one _arguments case per subcommand, registered with compdef', async () => {
    const { stdout } = await runCommand(register, ['completion', 'zsh']);
    expect(stdout.split('\n')[0]).toBe('#compdef wavesync');
    expect(stdout).toContain("'plan:print the sync plan of manifests");
    expect(stdout).toMatch(/'\(-o --output\)'\{-o,--output\}'\[output format\]:output:\(text json\)'/);
    expect(stdout.trimEnd().endsWith('compdef _wavesync wavesync')).toBe(true);
  });

  it('refuses another shell with the error style and exit 2', async () => {
    const result = await runCommand(register, ['completion', 'fish']);
    expect(result).toEqual({
      stdout: '',
      stderr: 'error: no completion for shell "fish": use bash or zsh\n',
      exitCode: 2,
    });
  });
});
