// A small command-line parser: `--name value`, `--name=value`, repeatable options, flags, `--`.
import { UserError } from '../shared/errors.js';

export interface OptionSpec {
  /** Long name without dashes. */
  name: string;
  short?: string;
  /** Takes a value (otherwise a flag). */
  value?: boolean;
  repeatable?: boolean;
  help: string;
  /** Shown as the value's placeholder in help. */
  placeholder?: string;
  /** The only values accepted (shell completion offers them). */
  choices?: readonly string[];
}

export interface ParsedArgs {
  positional: string[];
  flags: Set<string>;
  values: Map<string, string[]>;
}

export function parseArgs(argv: string[], specs: OptionSpec[]): ParsedArgs {
  const parsed: ParsedArgs = { positional: [], flags: new Set(), values: new Map() };
  const byLong = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      parsed.positional.push(...argv.slice(i + 1));
      break;
    }
    let spec: OptionSpec | undefined;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq < 0 ? undefined : arg.slice(eq + 1);
      spec = byLong.get(name);
      if (!spec) throw new UserError(`unknown option --${name} (see govern --help)`);
    } else if (arg.startsWith('-') && arg.length > 1) {
      spec = byShort.get(arg.slice(1));
      if (!spec) throw new UserError(`unknown option ${arg} (see govern --help)`);
    } else {
      parsed.positional.push(arg);
      continue;
    }
    if (!spec.value) {
      if (inline !== undefined) throw new UserError(`--${spec.name} takes no value`);
      parsed.flags.add(spec.name);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UserError(`--${spec.name} needs a value`);
    const list = parsed.values.get(spec.name) ?? [];
    if (list.length > 0 && !spec.repeatable) throw new UserError(`--${spec.name} is given more than once`);
    list.push(value);
    parsed.values.set(spec.name, list);
  }
  return parsed;
}

export function optionValue(args: ParsedArgs, name: string): string | undefined {
  return args.values.get(name)?.[0];
}

export function optionValues(args: ParsedArgs, name: string): string[] {
  return args.values.get(name) ?? [];
}

/** A positive whole number from the option, else from the fallback text (an environment variable, say). */
export function positiveInteger(args: ParsedArgs, name: string, fallback: string): number {
  const text = optionValue(args, name) ?? fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1) throw new UserError(`--${name} must be a positive whole number, not "${text}"`);
  return Number(text);
}

export function formatOptionHelp(specs: OptionSpec[]): string {
  return specs
    .map((s) => {
      const left = `${s.short ? `-${s.short}, ` : '    '}--${s.name}${s.value ? ` ${s.placeholder ?? 'VALUE'}` : ''}`;
      return `  ${left.padEnd(34)} ${s.help}${s.repeatable ? ' (repeatable)' : ''}`;
    })
    .join('\n');
}
