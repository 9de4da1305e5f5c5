// govern(1) in roff, generated from the command and option tables (the source of --help) and from
// the directories of the installation it is generated for, so neither can drift from the program.
import type { DefaultDirs } from '../config/paths.js';
import type { ManualCommand, ManualOption } from './model.js';

export interface ManPageInput {
  commands: ManualCommand[];
  version: string;
  dirs: DefaultDirs;
  /** Where the README and docs/ are installed. */
  docDir: string;
}

/** Text as roff: backslashes and hyphens escaped, and no line starting with a control character. */
export function roffText(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

const bold = (text: string) => `\\fB${roffText(text)}\\fR`;
const italic = (text: string) => `\\fI${roffText(text)}\\fR`;

/** A usage line: the command words bold, placeholders italic, the rest as it is. */
function usageLine(usage: string): string {
  return usage
    .split(' ')
    .map((word, i) => (i < 2 ? bold(word) : word.replace(/[A-Z][A-Z0-9_]*/g, (p) => `\\fI${p}\\fR`).replace(/-/g, '\\-')))
    .join(' ');
}

/** Help prose as a sentence: wrapped for a terminal in the table, flowed again by man. */
function prose(text: string): string {
  const flowed = text.replace(/\s*\n\s*/g, ' ').trim();
  return roffText(/[.!?]$/.test(flowed) ? flowed : `${flowed}.`);
}

function optionHeading(o: ManualOption): string {
  const names = [...(o.short ? [bold(`-${o.short}`)] : []), bold(`--${o.name}`)].join(', ');
  return o.placeholder ? `${names} ${italic(o.placeholder)}` : names;
}

interface OptionEntry {
  option: ManualOption;
  commands: string[];
}

/** Each option once, with the commands that accept it (one entry per distinct help text). */
function optionEntries(commands: ManualCommand[]): OptionEntry[] {
  const entries = new Map<string, OptionEntry>();
  for (const command of commands) {
    for (const option of command.options) {
      const key = `${option.name}\0${option.help}`;
      const entry = entries.get(key) ?? { option, commands: [] };
      entry.commands.push(command.name);
      entries.set(key, entry);
    }
  }
  return [...entries.values()].sort((a, b) => a.option.name.localeCompare(b.option.name));
}

function optionText({ option, commands }: OptionEntry, all: number): string {
  const notes = [
    option.choices ? `One of: ${option.choices.join(', ')}.` : '',
    option.default !== undefined ? `Default: ${option.default}.` : '',
    option.env && !option.help.includes(option.env) ? `Environment: ${option.env} (see ENVIRONMENT).` : '',
    option.repeatable ? 'Repeatable.' : '',
    commands.length < all ? `Accepted by: ${commands.join(', ')}.` : '',
  ].filter((n) => n !== '');
  return `.TP\n${optionHeading(option)}\n${prose(option.help)}${notes.length > 0 ? `\n${roffText(notes.join(' '))}` : ''}`;
}

function section(title: string, body: string): string {
  return `.SH ${title}\n${body}`;
}

function entry(term: string, text: string): string {
  return `.TP\n${term}\n${roffText(text)}`;
}

export function manPage(input: ManPageInput): string {
  const { commands, version, dirs, docDir } = input;
  // Each variable once: an option's default, unless it means more than that (the search paths).
  const variables = new Map<string, string>();
  for (const command of commands) for (const o of command.options) if (o.env) variables.set(o.env, `The default of --${o.name}.`);
  for (const kind of ['runners', 'facts', 'templates']) {
    variables.set(`GOVERN_${kind.toUpperCase()}_PATH`, `Colon-separated ${kind} directories, first has priority, in place of the defaults.`);
  }
  variables.set('GOVERN_LOCK_DIR', 'The directory of the run and package locks, in place of /run/govern, under the same checks.');
  variables.set('NO_COLOR', 'When set to anything but the empty string, no colours on a terminal either (--color auto); see no-color.org.');
  const parts = [
    `.TH GOVERN 1 "" "govern ${version}" "User Commands"`,
    // No hyphenation, no justification: option and variable names stay whole.
    '.nh',
    '.ad l',
    section('NAME', 'govern \\- configuration management for the local host'),
    section('SYNOPSIS', [...commands.map((c) => usageLine(c.usage)), `${bold('govern help')} \\fICOMMAND\\fR`, `${bold('govern --help')} | ${bold('--version')}`].join('\n.br\n')),
    section(
      'DESCRIPTION',
      roffText(
        'govern describes the state a host should be in and makes it so. Facts about the host are gathered from ' +
          'facts directories; state files, HCL resource blocks rendered as Handlebars templates with those facts, ' +
          'declare resources; the resources are ordered into a graph, and each is applied by a runner, an ' +
          'executable named after its type (pkg, service, file, exec, user, group, line, or any executable in a runners directory), ' +
          'which reports what it changed. With --noop nothing is changed and govern reports what would be.',
      ),
    ),
    section(
      'COMMANDS',
      commands
        .map((c) => {
          const body = [prose(c.summary), ...(c.details ? [prose(c.details)] : [])].join('\n.IP\n');
          const names = c.options.map((o) => bold(`--${o.name}`)).join(', ');
          return `.TP\n${bold(c.name)}\n${usageLine(c.usage)}\n.IP\n${body}\n.IP\nOptions: ${names}.`;
        })
        .join('\n'),
    ),
    section(
      'OPTIONS',
      [
        roffText('Options come after the command. A value may follow as the next word or after an equals sign (--jobs=4).'),
        ...optionEntries(commands).map((e) => optionText(e, commands.length)),
        entry(bold('--version'), 'Print govern\'s version (before any command).'),
      ].join('\n'),
    ),
    section(
      'EXIT STATUS',
      [
        entry(bold('0'), 'Success.'),
        entry(bold('1'), 'A failure: a resource or fact that failed, or an error found before anything was applied (nothing is applied then).'),
        roffText(
          'With --detailed-exitcodes, govern run exits as Puppet does: 0 nothing changed, 2 changes (in noop mode: changes pending), 4 failures, 6 changes and failures; errors before anything was applied still exit 1.',
        ),
      ].join('\n.PP\n'),
    ),
    section(
      'ENVIRONMENT',
      [
        ...[...variables].map(([name, text]) => entry(bold(name), text)),
        '.PP',
        roffText(
          'Runners are called with the caller\'s environment plus GOVERN (the govern executable), GOVERN_FACTS_PATH (the facts directories used), GOVERN_STATE_DIR (the directory of the state file that declared the resource), GOVERN_NOOP=1 in noop mode, and GOVERN_SIGNAL when they are notified.',
        ),
      ].join('\n'),
    ),
    section(
      'FILES',
      [
        entry(italic(dirs.userRunners), 'Your runners; they override shipped runners of the same name.'),
        entry(italic(dirs.shippedRunners), 'The runners shipped with govern: pkg, service, file, exec, user, group, line.'),
        entry(italic(dirs.userFacts), 'Your facts; they override shipped facts of the same name.'),
        entry(italic(dirs.shippedFacts), 'The facts shipped with govern.'),
        entry(italic(dirs.templates), 'Templates, for govern render NAME and the file runner\'s template key.'),
        entry(italic(dirs.states), 'The state tree govern run, graph and pull use when given no PATH.'),
        entry(italic('/var/lib/govern'), 'The last run\'s record (last-run.json, read by govern status) and the trees govern pull keeps.'),
        entry(italic('/var/cache/govern'), 'Runners\' descriptions and the runners each tree used, kept between runs (when run as root).'),
        entry(italic('/run/govern'), 'Locks, in a directory only root may write (GOVERN_LOCK_DIR to move it).'),
      ].join('\n'),
    ),
    section('SEE ALSO', `${bold('ssh')}(1), ${bold('dot')}(1); the README and docs/ in ${italic(docDir)}.`),
  ];
  return `${parts.join('\n')}\n`;
}
