// The one place that reads the CLI's command and option tables for the man page and the
// completion: a new command or option appears in both without an edit here.
import { commands } from '../cli/all-commands.js';
import { repeatable, takesValue } from '../cli/options.js';
import type { ManualCommand } from './model.js';

export function manualCommands(): ManualCommand[] {
  return commands.map((c) => ({
    name: c.name,
    usage: c.usage,
    summary: c.summary,
    details: c.details,
    options: c.options.map((o) => ({
      name: o.name,
      short: o.short,
      placeholder: takesValue(o) ? (o.placeholder ?? 'VALUE') : undefined,
      help: o.help,
      choices: o.choices,
      default: o.default,
      env: o.env,
      repeatable: repeatable(o) && o.kind !== 'counter',
    })),
  }));
}
