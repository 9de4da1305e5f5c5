// Bash completion for govern, generated from the command and option tables: commands, each
// command's options, the values of options that take a fixed set or a directory, and operands
// (state files and directories for PATH, fact names for `govern facts NAME`).
import { operands, type ManualCommand, type ManualOption } from './model.js';

/** How a word is completed: fixed words, or one of the kinds the script knows. */
type Completion = { words: readonly string[] } | 'dir' | 'file' | 'host' | 'state' | 'fact' | 'none';

/** An option's value, from its choices or its placeholder. */
function valueCompletion(o: ManualOption): Completion {
  if (o.choices) return { words: o.choices };
  return ({ DIR: 'dir', FILE: 'file', HOST: 'host' } as const)[o.placeholder ?? ''] ?? 'none';
}

/** An operand, from its name in the usage line. */
function operandCompletion(command: ManualCommand): Completion {
  const first = operands(command)[0] ?? '';
  return ({ PATH: 'state', NAME: 'fact', TEMPLATE: 'file' } as const)[first] ?? 'none';
}

/** A word safe inside single quotes in bash (option names, choices and command names are plain words). */
function quoted(words: readonly string[]): string {
  for (const w of words) if (!/^[A-Za-z0-9_./:+-]+$/.test(w)) throw new Error(`cannot complete ${JSON.stringify(w)}: not a plain word`);
  return `'${words.join(' ')}'`;
}

/** The shell statements that fill COMPREPLY for a completion. */
function reply(c: Completion): string {
  if (typeof c === 'object') return `mapfile -t COMPREPLY < <(compgen -W ${quoted(c.words)} -- "$cur")`;
  switch (c) {
    case 'dir':
      return 'compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur")';
    case 'file':
      return 'compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur")';
    case 'host':
      return 'mapfile -t COMPREPLY < <(compgen -A hostname -- "$cur")';
    case 'state':
      return `compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur"; compgen -f -X '!*.hcl' -- "$cur")`;
    case 'fact':
      return 'mapfile -t COMPREPLY < <(compgen -W "$("${COMP_WORDS[0]}" facts 2>/dev/null | cut -f1)" -- "$cur")';
    case 'none':
      return ':';
  }
}

function commandCase(command: ManualCommand): string {
  const names = command.options.flatMap((o) => [`--${o.name}`, ...(o.short ? [`-${o.short}`] : [])]);
  const valueCases = command.options
    .filter((o) => o.placeholder !== undefined)
    .map((o) => `        ${[`--${o.name}`, ...(o.short ? [`-${o.short}`] : [])].join('|')}) ${reply(valueCompletion(o))}; return 0 ;;`);
  return [
    `    ${command.name})`,
    ...(valueCases.length > 0 ? ['      case $option in', ...valueCases, '      esac'] : []),
    `      if [[ $cur == -* ]]; then mapfile -t COMPREPLY < <(compgen -W ${quoted(names)} -- "$cur"); return 0; fi`,
    `      ${reply(operandCompletion(command))} ;;`,
  ].join('\n');
}

export function bashCompletion(commands: ManualCommand[]): string {
  const names = commands.map((c) => c.name);
  return `# bash completion for govern(1), generated from govern's command and option tables.
_govern() {
  local cur=\${COMP_WORDS[COMP_CWORD]} option=\${COMP_WORDS[COMP_CWORD-1]}
  COMPREPLY=()
  # bash splits --option=value at "=": the option is then the word before the "=".
  if [[ $cur == = ]]; then
    cur=
  elif [[ $option == = ]]; then
    option=\${COMP_WORDS[COMP_CWORD-2]}
  fi
  if (( COMP_CWORD == 1 )); then
    mapfile -t COMPREPLY < <(compgen -W ${quoted([...names, 'help', '--help', '--version'])} -- "$cur")
    return 0
  fi
  case \${COMP_WORDS[1]} in
    help)
      (( COMP_CWORD == 2 )) && mapfile -t COMPREPLY < <(compgen -W ${quoted(names)} -- "$cur") ;;
${commands.map(commandCase).join('\n')}
  esac
  return 0
}
complete -F _govern govern
`;
}
