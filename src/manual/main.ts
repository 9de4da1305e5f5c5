// Writes govern's man page or bash completion to stdout, for the installation `make install` (or
// the Debian package) is making: `node dist/src/manual/main.js man|bash-completion --prefix P --sysconfdir S`.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { defaultDirs, governVersion, installedDirs, type DefaultDirs } from '../config/paths.js';
import { bashCompletion } from './bash-completion.js';
import { manualCommands } from './cli-table.js';
import { manPage } from './man-page.js';

const USAGE = 'usage: node dist/src/manual/main.js man|bash-completion [--prefix DIR] [--sysconfdir DIR]\n';

function main(argv: string[]): string | undefined {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { prefix: { type: 'string' }, sysconfdir: { type: 'string' } } });
  const prefix = values.prefix ?? '/usr/local';
  const sysconfdir = values.sysconfdir ?? path.join(prefix, 'etc');
  switch (positionals.join(' ')) {
    case 'man': {
      const dirs = installedDirs({ libDir: path.join(prefix, 'lib', 'govern'), sysconfdir });
      const page = manPage({ commands: manualCommands(), version: governVersion(), dirs, docDir: path.join(prefix, 'share', 'doc', 'govern') });
      return forInstallation(page, defaultDirs(), dirs);
    }
    case 'bash-completion':
      return bashCompletion(manualCommands());
  }
  return undefined;
}

/**
 * The commands' help names the directories of the govern that runs this (the checkout's, under
 * /usr/local): the page being made is for another installation (/usr and /etc for the package).
 */
function forInstallation(page: string, running: DefaultDirs, installed: DefaultDirs): string {
  const keys = Object.keys(running) as (keyof DefaultDirs)[];
  // Longest first, so that a directory is not replaced inside a longer one.
  keys.sort((a, b) => running[b].length - running[a].length);
  const escaped = (dir: string) => dir.replace(/-/g, '\\-'); // as the page writes them (roff)
  for (const key of keys) page = page.split(running[key]).join(installed[key]).split(escaped(running[key])).join(escaped(installed[key]));
  return page;
}

const text = main(process.argv.slice(2));
if (text === undefined) {
  process.stderr.write(USAGE);
  process.exitCode = 2;
} else process.stdout.write(text);
