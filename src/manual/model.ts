// What the man page and the shell completion are generated from: govern's commands and options as
// plain data (cli-table.ts reads them from the CLI's own tables, the source of --help).

export interface ManualOption {
  /** Long name, without dashes. */
  name: string;
  /** One letter, without the dash. */
  short?: string;
  /** The value's name (`DIR`, `N`); undefined for a flag. */
  placeholder?: string;
  help: string;
  /** The only values accepted. */
  choices?: readonly string[];
  /** The environment variable read when the option is not given. */
  env?: string;
  /** The value when neither the option nor its variable is given, as written on the command line. */
  default?: string;
  repeatable: boolean;
}

export interface ManualCommand {
  name: string;
  /** `govern run [--noop] [--json] PATH` */
  usage: string;
  summary: string;
  details?: string;
  options: ManualOption[];
}

/**
 * The operands a usage line names, in order: `govern facts [OPTIONS] [NAME...]` has NAME.
 * `[OPTIONS]`, and bracketed options with their values (`[--host HOST]`), are not operands.
 */
export function operands(command: ManualCommand): string[] {
  const words = command.usage
    .replace(/\[(-[^\]]*|OPTIONS)\]/g, ' ')
    .split(/\s+/)
    .slice(2);
  return words.map((w) => w.replace(/[[\]]|\.\.\./g, '')).filter((w) => /^[A-Z][A-Z0-9_]*$/.test(w));
}
