/**
 * `wavesync completion bash|zsh` — print a shell completion script generated from the commander command tree
 * (subcommands, their options, the choices of options such as `--output text|json`, file names for arguments).
 * Install: `source <(wavesync completion bash)` in ~/.bashrc, or `source <(wavesync completion zsh)` in ~/.zshrc
 * after `compinit`.
 */
import type { Command, Option } from 'commander';
import { type CommandIo, processIo, runAction } from '../command-io.js';

export function registerCompletionCommand(program: Command, io: CommandIo = processIo): void {
  program
    .command('completion')
    .description('print a shell completion script: source <(wavesync completion bash)')
    .argument('<shell>', 'bash or zsh')
    .action((shell: string) =>
      runAction(io, async () => {
        if (shell === 'bash') io.stdout(bashCompletion(program));
        else if (shell === 'zsh') io.stdout(zshCompletion(program));
        else {
          const { BotError } = await import('../../domain/index.js');
          throw new BotError('invalid_command', `no completion for shell "${shell}"`, {
            fix: 'use bash or zsh',
          });
        }
      }),
    );
}

interface CommandShape {
  name: string;
  description: string;
  options: Option[];
  takesFiles: boolean;
}

function shapesOf(program: Command): CommandShape[] {
  return program.commands.map((command) => ({
    name: command.name(),
    description: command.description(),
    options: [...command.options],
    takesFiles: command.registeredArguments.length > 0 && command.name() !== 'completion',
  }));
}

function flagsOf(option: Option): string[] {
  return [option.short, option.long].filter((flag): flag is string => flag !== undefined);
}

/** A bash script: subcommands at the first word, then each subcommand's options, option choices, file names. */
function bashCompletion(program: Command): string {
  const commands = shapesOf(program);
  const cases = commands.map((command) => {
    const flags = [...command.options.flatMap(flagsOf), '--help'].join(' ');
    const choices = command.options
      .filter((option) => option.argChoices !== undefined)
      .map((option) => `      ${flagsOf(option).join('|')}) words_="${option.argChoices!.join(' ')}" ;;`);
    const extra = command.name === 'completion' ? ' bash zsh' : '';
    return [
      `    ${command.name})`,
      `      opts_="${flags}${extra}"`,
      ...(choices.length > 0 ? ['      case "$prev" in', ...choices.map((c) => `  ${c}`), '      esac'] : []),
      '      ;;',
    ].join('\n');
  });
  return `# wavesync completion for bash. Install: source <(wavesync completion bash)
_wavesync() {
  local cur prev opts_ words_
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=( $(compgen -W "${commands.map((c) => c.name).join(' ')} --help --version" -- "$cur") )
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases.join('\n')}
  esac
  if [[ -n "$words_" ]]; then
    COMPREPLY=( $(compgen -W "$words_" -- "$cur") )
  elif [[ "$cur" == -* || "\${COMP_WORDS[1]}" == completion ]]; then
    COMPREPLY=( $(compgen -W "$opts_" -- "$cur") )
  else
    COMPREPLY=( $(compgen -f -- "$cur") )
  fi
}
complete -o default -F _wavesync wavesync
`;
}

/** A zsh script (`_arguments` per subcommand); registered with compdef, so `compinit` must have run. */
function zshCompletion(program: Command): string {
  const commands = shapesOf(program);
  const described = commands.map(
    (c) => `    '${quote(c.name)}:${quote(c.description.replaceAll(':', '\\:'))}'`,
  );
  const cases = commands.map((command) => {
    const specs = command.options.map((option) => {
      const flags = flagsOf(option);
      const help = quote(option.description.replaceAll('[', '(').replaceAll(']', ')'));
      const value =
        option.required || option.optional ? `:${option.long?.slice(2) ?? 'value'}:${valuesOf(option)}` : '';
      const exclusive = flags.length > 1 ? `(${flags.join(' ')})` : '';
      const names = flags.length > 1 ? `{${flags.join(',')}}` : flags[0];
      return `'${exclusive}'${names}'[${help}]${value}'`;
    });
    if (command.takesFiles) specs.push("'*:file:_files'");
    if (command.name === 'completion') specs.push("'1:shell:(bash zsh)'");
    return `    ${command.name})\n      _arguments ${specs.join(' \\\n        ')}\n      ;;`;
  });
  return `#compdef wavesync
# wavesync completion for zsh. Install: source <(wavesync completion zsh) (after compinit)
_wavesync() {
  local -a commands
  commands=(
${described.join('\n')}
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  words=("\${words[@]:1}")
  (( CURRENT-- ))
  case "\${words[1]}" in
${cases.join('\n')}
  esac
}
compdef _wavesync wavesync
`;
}

function valuesOf(option: Option): string {
  if (option.argChoices) return `(${option.argChoices.join(' ')})`;
  return /file/.test(option.flags) ? '_files' : ' ';
}

/** Text inside a single-quoted shell word. */
function quote(text: string): string {
  return text.replaceAll("'", `'\\''`);
}
